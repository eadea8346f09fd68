"""JAX403: a static argument read from a static pytree field (`struct.field(pytree_node=False)`)
of a state that every step rebuilds with `state.replace(...)` is the same Python object in every
step: `replace` keeps the fields it is not given, and jit hands aux data back unchanged. One
compile, not one per step.

Reduced from the held-out corpus (precision v6): google/aqt aqt/jax/v2/examples/cnn/model_utils.py
:133 and :164 (`state.train_model.apply` in the batch loop, `state.eval_model.apply` in the epoch
loop that calls it), aqt/jax/v2/examples/flax_e2e_model.py:218, :305. Settled with JAX 0.12:
`apply._cache_size()` is 1 after 2 epochs of 3 steps for `train`, 1 after 3 steps of `fit`
(flax's TrainState, `apply_fn` kept by `apply_gradients`), 7 for `train_new_model`.
The marked lines are the near miss: an update that replaces the model with a new object (hashed
by identity) every step, so every step compiles again.
"""

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax import struct
from flax.training import train_state


class Model:
    def apply(self, params, x):
        return params * x


class TrainState(struct.PyTreeNode):
    model: Any = struct.field(pytree_node=False)
    params: Any = struct.field(pytree_node=True)


@partial(jax.jit, static_argnums=(2,))
def apply(params, x, apply_fn):
    return apply_fn(params, x)


@jax.jit
def update(state, grads):
    return state.replace(params=state.params - 0.1 * grads)


def epoch(state, xs):
    for x in xs:
        y = apply(state.params, x, state.model.apply)
        state = update(state, y)
    return state, y


def train(state, xs, epochs):
    for _ in range(epochs):
        state, _ = epoch(state, xs)
        print(apply(state.params, xs[0], state.model.apply))
    return state


def update_new_model(state, grads):
    return state.replace(params=state.params - 0.1 * grads, model=Model())


def train_new_model(state, xs):
    for x in xs:
        y = apply(state.params, x, state.model.apply)  # error: JAX403
        state = update_new_model(state, y)
    return state


def apply_w(params, x):
    return params["w"] * x


@jax.jit
def sgd_step(state, grads):
    return state.apply_gradients(grads=grads)


def fit(state: train_state.TrainState, xs):
    # flax's TrainState: `apply_fn` is a static field, kept by `apply_gradients`
    for x in xs:
        y = apply(state.params, x, state.apply_fn)
        state = sgd_step(state, {"w": y})
    return state


if __name__ == "__main__":
    xs = jnp.ones((3, 2))
    train(TrainState(model=Model(), params=jnp.ones(2)), xs, 2)
    print("train", apply._cache_size())
    apply.clear_cache()
    train_new_model(TrainState(model=Model(), params=jnp.ones(2)), jnp.ones((7, 2)))
    print("train_new_model", apply._cache_size())
    apply.clear_cache()
    tx = optax.sgd(0.1)
    params = {"w": jnp.ones(2)}
    fit(train_state.TrainState.create(apply_fn=apply_w, params=params, tx=tx), xs)
    print("fit", apply._cache_size())
