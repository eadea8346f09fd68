"""Mutation rules fire on the kinds they are about (issue 13, "values, not names").

Reduced from kvfrans/jax-diffusion-transformer train_diffusion.py (a dict from `lax.pmean` and
from a `grad(has_aux=True)` aux), google/brax sac/train.py (`buf = replay_buffer.insert(buf, x)`)
and jax-md examples (`l_nbrs = nbrs.update(x)` on a global): pure values, not mutation.
The marked lines are the true positives kept next to each near miss.
"""

from functools import partial

import jax
import jax.numpy as jnp
import optax
from jax import lax

history = []
nbrs_global = None


class Buffer:
    def insert(self, state, x):
        return state.at[0].set(x)


replay_buffer = Buffer()


@partial(jax.vmap, axis_name="data")
def update(w):
    grads, info = jax.grad(lambda w: (jnp.sum(w**2), {"loss": jnp.sum(w)}), has_aux=True)(w)
    info = lax.pmean(info, axis_name="data")
    info["grad_norm"] = jnp.linalg.norm(grads)  # a dict: fine
    (loss, aux), g = jax.value_and_grad(lambda w: (jnp.sum(w), {"a": w}), has_aux=True)(w)
    aux["loss"] = loss  # a dict: fine
    g = lax.psum(g * 0.5, axis_name="data")
    g[0] = 0.0  # error: JAX501
    stats = jax.tree.map(lambda a: a * 2, {"g": g})
    stats["x"] = g  # a dict: fine
    total = lax.pmean(jnp.sum(w), axis_name="data")
    total[()] = 1.0  # error: JAX501
    return w - 0.1 * grads, info, aux, stats


@jax.jit
def step(buffer_state, x):
    buffer_state = replay_buffer.insert(buffer_state, x)  # functional: result kept
    history.append(x)  # error: JAX502
    replay_buffer.insert(buffer_state, x)  # an instance of a class of this module: no list
    return buffer_state


@jax.jit
def use_global(x):
    l_nbrs = nbrs_global.update(x)  # a functional update method: result assigned
    return x + l_nbrs


def discarded_updates(layers):
    x = jnp.zeros(3)
    x.at[0].set(1.0)  # error: JAX504
    for w in [jnp.zeros(2), jnp.ones(2)]:
        w.at[0].set(1.0)  # error: JAX504
    y = {"a": 1}
    y.update(b=2)  # a dict: fine
    "a".replace("a", "b")  # str.replace: positional
    return x, y


def optimizer_step(grads, opt_state, params, f):
    # equinox _serialisation.py:104: jnp.save is NumPy's I/O re-exported: an effect
    jnp.save(f, params)
    tx = optax.sgd(0.1)
    tx.update(grads, opt_state, params)  # error: JAX504
    jnp.clip(params, 0.0, 1.0)  # error: JAX504
    return opt_state
