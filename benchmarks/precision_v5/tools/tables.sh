#!/bin/bash
# Wilson tables of corpus v5, default selection and preview-only apart (wilson.py has no filter).
cd "$(dirname "$0")/../../.." || exit 1
R=benchmarks/precision_v5/review.json
for s in default preview; do
  python3 -c "import json,sys; json.dump([x for x in json.load(open('$R')) if x['selection']=='$s'], open('/tmp/v5_review_$s.json','w'))"
  for b in rule family confidence; do
    echo "### $s selection, --by $b"; echo
    /work/venv/bin/python benchmarks/wilson.py /tmp/v5_review_$s.json --by $b; echo
  done
done
echo "### all rows, --by family"; echo
/work/venv/bin/python benchmarks/wilson.py $R --by family
