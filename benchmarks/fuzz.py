"""Long fuzz run: `python benchmarks/fuzz.py --examples 5000`.

The same invariants as tests/test_fuzz.py (check never raises; --fix output parses and is
idempotent), many more examples, no derandomisation. Any failure prints the input; add it
to tests/regressions/ as a regression test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.fuzzing import check_invariants, grammar_source, mutated_source  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    strategies = [("mutated", mutated_source()), ("text", st.text(max_size=2000))]
    grammar = grammar_source()
    if grammar is not None:
        strategies.append(("grammar", grammar))
    for name, strategy in strategies:
        start = time.perf_counter()

        @settings(
            max_examples=args.examples, deadline=None, suppress_health_check=list(HealthCheck)
        )
        @given(strategy)
        def run(text):
            check_invariants(text)

        run()
        print(f"{name}: {args.examples} examples OK in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
