"""Is jnp.stack of device arrays on CPU (x64) dispatched asynchronously? (bench_setup_breakdown.py:458)."""

import time

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

for n in (10**5, 10**6, 10**7):
    xs = [jnp.array(np.random.rand(n)) for _ in range(8)]
    for trial in range(2):
        t = time.perf_counter()
        s = jnp.stack(xs)
        t1 = time.perf_counter() - t
        ready = s.is_ready()
        s.block_until_ready()
        t2 = time.perf_counter() - t
        print(n, trial, "ready at return:", ready, f"return {t1:.4f}s, block {t2:.4f}s")
