"""JAX6xx: benchmarking honesty.

One rule per module; what a timed region is (two subtracted clock reads) is shared in
`_timing.py`. Both rules' prefilter gate, `TIMING_WORDS`, derives from `CLOCKS` and `TIMEIT`.
"""

from jaxlint.analysis.jax_api import CLOCKS, TIMEIT
from jaxlint.rules.benchmarking.timing_includes_compilation import TimingIncludesCompilation
from jaxlint.rules.benchmarking.timing_without_block_until_ready import TimingWithoutBlockUntilReady

__all__ = ["CLOCKS", "TIMEIT", "TimingIncludesCompilation", "TimingWithoutBlockUntilReady"]
