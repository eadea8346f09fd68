"""QDax notebooks time an eager `jax.lax.scan(...)` (outside jit) with time.time() and no block.

Is the eager scan's result ready when it returns? Compare the time to return with the time
to ready on a compute-heavy body (CPU, JAX 0.12).
"""

import time

import jax
import jax.numpy as jnp


def body(c, _):
    return jnp.tanh(c @ c) * 0.5, ()


x = jnp.ones((1500, 1500)) / 1500
jax.lax.scan(body, x, (), length=2)[0].block_until_ready()  # warm up
for _ in range(3):
    t = time.time()
    out, _ = jax.lax.scan(body, x, (), length=20)
    t_ret = time.time() - t
    out.block_until_ready()
    t_ready = time.time() - t
    print(f"returned after {t_ret:.3f}s, ready after {t_ready:.3f}s")
