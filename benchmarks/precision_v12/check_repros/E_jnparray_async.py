"""Is jnp.array(numpy float64 array) on CPU (x64) ready when it returns? (bench_setup_breakdown.py:166)."""

import time

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

for n in (10**5, 10**7, 5 * 10**7):
    a = np.random.rand(n)
    t = time.perf_counter()
    x = jnp.array(a)
    t1 = time.perf_counter() - t
    ready = x.is_ready()
    x.block_until_ready()
    t2 = time.perf_counter() - t
    print(n, "ready at return:", ready, f"return {t1:.4f}s, block {t2:.4f}s")
