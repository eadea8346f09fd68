"""jax-gpt scripts/eval_humaneval.py:607-610: does jax.effects_barrier() wait for a jitted
computation without side effects?"""

import time

import jax
import jax.numpy as jnp


@jax.jit
def g(x):
    for _ in range(20):
        x = jnp.tanh(x @ x)
    return x


x = jnp.ones((1500, 1500)) / 1500
g(x).block_until_ready()
t = time.perf_counter()
y = g(x)
jax.effects_barrier()
t1 = time.perf_counter()
y.block_until_ready()
t2 = time.perf_counter()
print(f"after effects_barrier {t1 - t:.4f}s  after block {t2 - t:.4f}s")
