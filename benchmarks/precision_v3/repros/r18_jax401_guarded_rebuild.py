"""tapnet robotap/tapir_clustering.py:731 (JAX401): the jitted partial is rebuilt only when
`need_compile` is set, i.e. when the number of categories (and so every parameter shape) changed."""
import functools

import jax
import jax.numpy as jnp


def update(state, num_cats):
    return state[:num_cats] + 1


num_cats, need_compile, state = 2, True, jnp.zeros(8)
for step in range(100):
    if step % 25 == 24:
        num_cats += 1
        need_compile = True
    if need_compile:
        update_jit = jax.jit(functools.partial(update, num_cats=num_cats))
        need_compile = False
    out = update_jit(state)
print(out)
