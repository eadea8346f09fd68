#!/bin/bash
# Lint every corpus v5 repository from its own root, jaxlint from the r5-v5 worktree
# (main at dbd82f3), default selection and --preview, JSON (as precision_v4/tools/lint_check.sh).
set -u
F=/work/precision-v5/findings
mkdir -p $F
for k in $(python3 -c "import json; print(' '.join(r['repo'].replace('/', '+') for r in json.load(open('/work/wt/v5/benchmarks/precision_v5/corpus.json'))['repos']))"); do
  for mode in plain preview; do
    if [ $mode = plain ]; then out=$F/$k.json; extra=""; else out=$F/$k.preview.json; extra="--preview"; fi
    [ -s "$out" ] && continue
    ( cd /work/precision-v5/repos/$k && PYTHONPATH=/work/wt/v5 /usr/bin/time -f "%e s" nice -n 5 /work/venv/bin/python -m jaxlint check --format json --no-cache $extra . > "$out" 2> "$out.stderr" )
    echo "$k $mode rc=$? $(tail -1 $out.stderr)"
  done
done
