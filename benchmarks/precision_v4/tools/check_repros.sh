#!/bin/bash
# Each reproduction must run on JAX 0.12 and (until the model is fixed) make jaxlint report it.
# Run from the repository root: bash benchmarks/precision_v4/tools/check_repros.sh
set -u
for f in benchmarks/precision_v4/repros/*.py; do
  /work/venv/bin/python "$f" > /dev/null 2>&1 || echo "FAILS TO RUN: $f"
  n=$(/work/venv/bin/python -m jaxlint check --no-cache --format concise "$f" | grep -c ' JAX')
  echo "$f: $n findings"
done
