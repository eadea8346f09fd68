#!/bin/bash
# Lint the CHECK half only (corpus.json "half": "check"), each repository from its own root,
# jaxlint from the r4-check worktree (main at e07b14a), default selection and --preview.
set -u
F=/work/precision-v4/check/findings
for k in $(python3 -c "import json; print(' '.join(r['repo'].replace('/', '+') for r in json.load(open('/work/wt/check/benchmarks/precision_v4/corpus.json'))['repos'] if r['half'] == 'check'))"); do
  for mode in plain preview; do
    if [ $mode = plain ]; then out=$F/$k.json; extra=""; else out=$F/$k.preview.json; extra="--preview"; fi
    [ -s "$out" ] && continue
    ( cd /work/precision-v4/repos/$k && PYTHONPATH=/work/wt/check /usr/bin/time -f "%e s" nice -n 5 /work/venv/bin/python -m jaxlint check --format json --no-cache $extra . > "$out" 2> "$out.stderr" )
    echo "$k $mode rc=$? $(tail -1 $out.stderr)"
  done
done
