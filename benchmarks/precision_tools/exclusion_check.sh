#!/bin/bash
# Exclusion check for a fresh precision corpus (issue 23, "How to measure"), parameterised form of
# precision_v5/tools/exclusion_check.sh.
# usage: exclusion_check.sh ISSUES_TEXT owner/name [owner/name ...]
# ISSUES_TEXT: a file holding the output of `issues`, `issues list`, `issues all --page K` and
# `issues show N` for every N. Each candidate is searched as "owner/name" and as the bare name
# (grep -iw) over all of /work/main (every file incl. benchmarks json, not .git), main's git log
# (all branches, message bodies), all of /work/shared, and the issues text. Any hit excludes it.
set -u
issues=$1; shift
log=$(mktemp); git -C /work/main log --all --format=%B > "$log"
for r in "$@"; do
  n=${r#*/}
  h1=$(grep -rilw -e "$r" -e "$n" /work/main --exclude-dir=.git 2>/dev/null | head -5 | tr '\n' ' ')
  h2=$(grep -ciw -e "$r" -e "$n" "$log")
  h3=$(grep -rilw -e "$r" -e "$n" /work/shared 2>/dev/null | head -5 | tr '\n' ' ')
  h4=$(grep -ciw -e "$r" -e "$n" "$issues")
  v=ok; { [ -n "$h1" ] || [ "$h2" != 0 ] || [ -n "$h3" ] || [ "$h4" != 0 ]; } && v=EXCLUDED
  echo "$r | main:[$h1] log:$h2 shared:[$h3] issues:$h4 | $v"
done
rm -f "$log"
