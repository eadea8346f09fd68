"""aqt examples/cnn/model_utils.py:133,164 and examples/flax_e2e_model.py:218,305 (preview JAX403):
`_apply_model(..., state.train_model.apply)` with `apply_fn` static, in a loop where `state` is
rebuilt by a jitted update each step. The module is a non-pytree field of a struct.PyTreeNode, so
every step passes a bound method of an equal (the same) Module: `m.apply == m.apply` and the
hashes agree, so the jit cache hits after the first call. Counts the traces.
Run: JAX_PLATFORMS=cpu python A_aqt_static_bound_apply.py
"""

import functools
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import struct

TRACES = []


class CNN(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class TrainState(struct.PyTreeNode):
    train_model: nn.Module = struct.field(pytree_node=False)
    eval_model: nn.Module = struct.field(pytree_node=False)
    model_vars: Any = struct.field(pytree_node=True)


@functools.partial(jax.jit, static_argnums=(2,))
def apply_model(model_vars, x, apply_fn):
    TRACES.append(1)
    return jax.grad(lambda v: apply_fn(v, x).sum())(model_vars)


@jax.jit
def update(state, grads):
    new = jax.tree.map(lambda p, g: p - 0.1 * g, state.model_vars, grads)
    return state.replace(model_vars=new)


if __name__ == "__main__":
    x = jnp.ones((4, 5))
    m = CNN()
    state = TrainState(m, CNN(), m.init(jax.random.key(0), x))
    for _ in range(20):
        grads = apply_model(state.model_vars, x, state.train_model.apply)
        state = update(state, grads)
    print("traces for train_model.apply over 20 steps:", len(TRACES))
    for _ in range(5):
        apply_model(state.model_vars, x, state.eval_model.apply)
    print("traces after 5 eval calls too:", len(TRACES))
    assert len(TRACES) == 2
