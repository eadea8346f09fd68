"""JAX601 (preview) on jwave docs/notebooks/prerequisites.ipynb cell 11: `%timeit complex_fun(x)`
times the eager (un-jitted) function and never blocks on its result (cell 12 blocks for the jitted
one). Does the unblocked eager figure stop at dispatch? Compare timeit with and without a block."""

import timeit

import jax
import jax.numpy as jnp


def complex_fun(x):
    y = jnp.sqrt((x + 1) ** 2)
    z = jnp.sin(x * 3 + x**2 + 1)
    return jnp.sum(z * y + y)


x = jnp.ones((4000, 4000))
complex_fun(x).block_until_ready()  # warm the op caches
for label, fn in (
    ("unblocked", lambda: complex_fun(x)),
    ("blocked", lambda: complex_fun(x).block_until_ready()),
    ("unblocked", lambda: complex_fun(x)),
):
    t = min(timeit.repeat(fn, number=1, repeat=7))
    jax.block_until_ready(complex_fun(x))
    print(f"{label}: {t * 1e3:.1f} ms per call (best of 7)")
t0 = timeit.default_timer()
r = complex_fun(x)
t1 = timeit.default_timer()
r.block_until_ready()
t2 = timeit.default_timer()
print(
    f"single call: returned after {(t1 - t0) * 1e3:.1f} ms, result ready after {(t2 - t0) * 1e3:.1f} ms"
)
