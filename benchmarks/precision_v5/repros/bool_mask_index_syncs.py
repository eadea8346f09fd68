"""DiffeRT advanced_path_tracing cell 37: `%%time` over an eager scan whose result is then
indexed with a boolean mask (`paths[masks[..., order], :order, :]`). Boolean-mask indexing
needs the mask's values to know the output shape, so the host waits for the scan: the time
includes the compute (JAX601 FP)."""

import time

import jax
import jax.numpy as jnp


def body(c, _):
    c = jnp.tanh(c @ c) * 0.5
    return c, c[:, 0] > 0


x = jnp.ones((1500, 1500)) / 1500
jax.lax.scan(body, x, (), length=2)  # warm up
for _ in range(2):
    t = time.time()
    out, masks = jax.lax.scan(body, x, (), length=20)
    t_ret = time.time() - t
    sel = out[-1][masks[-1]]  # boolean-mask indexing, eager
    t_idx = time.time() - t
    out.block_until_ready()
    print(
        f"scan returned {t_ret:.3f}s, after mask indexing {t_idx:.3f}s, ready {time.time() - t:.3f}s"
    )
