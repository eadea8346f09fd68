"""optax tests (JAX502, 25 findings): `opt.update(grads, state)` inside a jitted step is a pure
optax call that returns new values; only known lists/dicts/sets mutated in place are side
effects."""

import jax
import optax

opt = optax.sgd(0.1)
history = {}


@jax.jit
def step(params, state, grads):
    updates, state = opt.update(grads, state)
    history.update({"n": 1})
    return optax.apply_updates(params, updates), state
