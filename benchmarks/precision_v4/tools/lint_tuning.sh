#!/bin/bash
# Lint the TUNING half only (corpus.json "half": "tuning"), each repository from its own root,
# jaxlint from the r4-corpus worktree (main at 330b186), default selection and --preview.
set -u
F=/work/precision-v4/tuning/findings
for k in $(python3 -c "import json; print(' '.join(r['repo'].replace('/', '+') for r in json.load(open('/work/wt/corpus/benchmarks/precision_v4/corpus.json'))['repos'] if r['half'] == 'tuning'))"); do
  for mode in plain preview; do
    if [ $mode = plain ]; then out=$F/$k.json; extra=""; else out=$F/$k.preview.json; extra="--preview"; fi
    [ -s "$out" ] && continue
    ( cd /work/precision-v4/repos/$k && PYTHONPATH=/work/wt/corpus /usr/bin/time -f "%e s" nice -n 5 /work/venv/bin/python -m jaxlint check --format json --no-cache $extra . > "$out" 2> "$out.stderr" )
    echo "$k $mode rc=$? $(tail -1 $out.stderr)"
  done
done
