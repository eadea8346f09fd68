# source: https://github.com/jax-ml/jax/issues/1988
# family: benchmarking
# expect: JAX601
# check: elapsed<good/3
# "Speed-up gained from using jit does not persist": timing foo_jit(...) without waiting
# for the result measures the asynchronous dispatch, not the computation.
import time

import jax.numpy as np
from jax import jit


def foo(x):
    for _ in range(5):
        x = np.tanh(x @ x)
    return x


foo_jit = jit(foo)

if __name__ == "__main__":
    x = np.ones((1000, 1000)) / 1000
    foo_jit(x).block_until_ready()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        foo_jit(x)
        times.append(time.perf_counter() - start)
    print(f"elapsed={min(times):f}")
