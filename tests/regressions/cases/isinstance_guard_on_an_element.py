"""`isinstance(xs[0], np.ndarray)` guards a NumPy-only branch that a tracer never enters: under
jit every leaf of an argument is a tracer, so an element that is a NumPy array shows the whole
container is host data (levanter `analysis/visualization.py` `_concatenate`: JAX101 at high
confidence, a false positive of corpus v5; this reduction ran with JAX 0.12: `cat` compiles and
takes the `jnp` branch). The twin: the same call outside the guard still fires.
"""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def cat(xs):
    if isinstance(xs[0], np.ndarray):
        return np.concatenate(xs)
    return jnp.concatenate(xs)


@jax.jit
def cat_not_tracer(xs):
    if not isinstance(xs[0][0], jax.Array):
        return np.stack(xs)
    return jnp.stack(xs)


@jax.jit
def twin(xs):
    if isinstance(xs[0], jax.Array):
        return np.concatenate(xs)  # error: JAX101
    return jnp.concatenate(xs)
