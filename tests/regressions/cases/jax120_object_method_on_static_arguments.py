"""JAX120/JAX110: a method of a traced object that is not a `jax.Array` method, called with
static arguments only (`m._compute_padding(x.shape[-3:])`), returns whatever the method
returns: unknown, so neither it nor what is built from it (`pad[0]`, a tuple of
`max(0, pad[d] // 2)`) is a tracer (analysis/flow/taint.py `_method`: FIELD; a comprehension or
`tuple(...)` of unknown parts stays unknown, not a container of tracers).

Reduced from RIMcKinley/IrrepUNet irrepunet/models_jax/train.py:506-583 (v31 check set, FP x5,
tuning material): the padding an nnx UNet computes from the input's static shape, inside the
loss that `nnx.value_and_grad` differentiates in a jitted step. The near misses: a method given a
traced argument (`m.encode(x)`) returns what it computes from it, a container of tracers; and
`acc.at[1].set(-1.0)`, an update of a traced array by a constant, is traced (v30 cbfkit's
JAX502, which the first version of this fact lost).
"""

import jax
import jax.numpy as jnp
from flax import nnx


@jax.jit
def step(graphdef, state, x):
    model = nnx.merge(graphdef, state)

    def loss_fn(m):
        pad = m._compute_padding(x.shape[-3:])
        sp = tuple(max(0, pad[d] // 2) for d in range(3))
        h = m(jnp.pad(x, ((0, 0), (pad[0], 0), (pad[1], 0), (pad[2], 0))))
        h = h[..., pad[0] :, sp[1] :, sp[2] :]
        codes = m.encode(x)
        if codes[0].sum() > 0:  # error: JAX110
            h = h * 2
        return h.sum()

    return nnx.grad(loss_fn)(model)


def make(n):
    acc = jnp.zeros(n)

    @jax.jit
    def accumulate(x):
        nonlocal acc
        acc = acc.at[0].set(x)  # error: JAX502
        acc = acc.at[1].set(-1.0)  # error: JAX502
        return x

    return accumulate
