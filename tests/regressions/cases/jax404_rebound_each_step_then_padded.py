"""JAX404: a name rebound at the top of every step and then updated from itself (`src =
jnp.pad(src, ...)`) is no counter: its value does not come from an earlier step, so what is
computed from it does not change with the step (analysis/loops.py `loop_varying_names` asks
the flow graph's reaching definitions, `_carried`).

Reduced from PabloAcuavivaTUM/uot-fm utils/metrics.py:109-146 (v36 check set, JAX404 FP, tuning
material): each evaluation batch comes from `next(loader)`, is padded to the batch size only
when it is the last, partial one, and the padding is sliced off again; `pad_size` is 0 on
every other step. The repository's row still fires for a second reason this case leaves out:
on its other branch the batch is drawn from a key split every step (`jr.normal(sample_key,
[batch_size, ...])`), a value that changes while its shape does not, and the loop facts do
not tell the two apart yet. The near miss: an array that grows from step to step (`x =
jnp.concatenate([x, ...])` reads the previous step's `x`), sliced by the loop index.
"""

import jax
import jax.numpy as jnp


@jax.jit
def rmse(a, b):
    return jnp.sqrt(jnp.mean((a - b) ** 2))


def evaluate(loader, batch_size, n):
    out = []
    for _ in range(n):
        src = next(loader)
        pad = batch_size - src.shape[0]
        if pad > 0:
            src = jnp.pad(src, ((0, pad), (0, 0)))
        if pad > 0:
            out.append(rmse(src[:-pad], src[:-pad]))
        else:
            out.append(rmse(src, src))
    return out


def grow(x, n):
    out = []
    for i in range(n):
        x = jnp.concatenate([x, x[:1]])
        out.append(rmse(x[: -(i + 1)], x[: -(i + 1)]))  # error: JAX404
    return out
