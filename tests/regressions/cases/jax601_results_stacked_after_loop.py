"""Results collected in lists during a timed loop and stacked with `jnp.array` after it: the
stacking converts results, it is not the timed work. The host reads one of the stacks before
the clock, which waits for the step that made every list's elements (one program's outputs
are ready together), so the region is honest (v21 rows, tuning material: jax-ldpm
benchmarks/free_vibration/example.py:486, `import jax.numpy as np`, JAX601;
`sync.stacks_results`). The twin reads nothing before the clock."""

import time

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return x * 2.0, jnp.sum(x)


def run(x, n):
    xs, sums = [], []
    t0 = time.perf_counter()
    for _ in range(n):
        x, s = step(x)
        xs.append(x)
        sums.append(s)
    sums = jnp.array(sums)
    xs = jnp.stack(xs)
    print(f"sums: {sums}")
    print(time.perf_counter() - t0)
    return xs


def run_unread(x, n):
    xs, sums = [], []
    t0 = time.perf_counter()
    for _ in range(n):
        x, s = step(x)  # error: JAX601
        xs.append(x)
        sums.append(s)
    sums = jnp.array(sums)
    xs = jnp.stack(xs)
    print(time.perf_counter() - t0)
    return xs, sums
