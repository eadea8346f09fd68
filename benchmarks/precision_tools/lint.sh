#!/bin/bash
# Lint the repositories of a precision corpus, each from its own root, with the jaxlint of the
# worktree this script lives in, default selection and --preview, JSON, --no-cache, under nice.
# Parameterised form of precision_v4/tools/lint_tuning.sh and precision_v5/tools/lint.sh.
# usage: lint.sh CORPUS_JSON ROOT FINDINGS_DIR HALF     (HALF: tuning | check | all)
# Writes FINDINGS_DIR/OWNER+NAME.json and .preview.json (+ .stderr with the wall time).
set -u
corpus=$1; root=$2; F=$3; half=$4
wt=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$F"
for k in $(python3 -c "import json,sys; print(' '.join(r['repo'].replace('/', '+') for r in json.load(open(sys.argv[1]))['repos'] if sys.argv[2] in ('all', r.get('half'))))" "$corpus" "$half"); do
  for mode in plain preview; do
    if [ $mode = plain ]; then out=$F/$k.json; extra=""; else out=$F/$k.preview.json; extra="--preview"; fi
    [ -s "$out" ] && continue
    # an export (git archive) has no .git: a user lints a clone, whose .git marks the project
    # root (x64 evidence, the project index's module names); an empty repository marks it
    # the same way (v24 on; v23 and earlier were linted without it, docs/precision.md v23)
    [ -e "$root/repos/$k/.git" ] || git init -q "$root/repos/$k"
    ( cd "$root/repos/$k" && PYTHONPATH=$wt /usr/bin/time -f "%e s" nice -n 10 /work/venv/bin/python -m jaxlint check --format json --no-cache $extra . > "$out" 2> "$out.stderr" )
    rc=$?
    # a run that stopped without a JSON report (v42: a .gitignore line made jaxlint raise)
    # must not pass for a repository without findings: say so, loudly, in the log
    if ! python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out" 2>/dev/null; then
      echo "$k $mode rc=$rc NO JSON REPORT: jaxlint stopped; see $out.stderr"
      continue
    fi
    echo "$k $mode rc=$rc $(tail -1 "$out.stderr")"
  done
done
