#!/bin/bash
# usage: excl.sh owner/name ; prints hits count in main files, main git log, shared
r=$1; n=${r#*/}
h1=$(grep -rilw -e "$r" -e "$n" /work/main --include='*' --exclude-dir=.git 2>/dev/null | head -5 | tr '\n' ' ')
h2=$(git -C /work/main log --all --format=%B | grep -ciw -e "$r" -e "$n")
h3=$(grep -rilw -e "$r" -e "$n" /work/shared 2>/dev/null | head -5 | tr '\n' ' ')
echo "$r | main:[$h1] log:$h2 shared:[$h3]"
