#!/bin/bash
# Lint the TUNING half only, one repository at a time, main's jaxlint, default selection.
set -u
cd /work/precision-v3/tuning/repos
for d in */; do d=${d%/}
  out=/work/precision-v3/tuning/findings/$d.json
  [ -s "$out" ] && continue
  ( cd "$d" && /usr/bin/time -f "%e s" nice -n 5 /work/venv/bin/python -m jaxlint check --format json --no-cache . > "$out" 2> "/work/precision-v3/tuning/findings/$d.stderr" )
  echo "$d rc=$? $(tail -1 /work/precision-v3/tuning/findings/$d.stderr)"
done
