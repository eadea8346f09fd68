# ruff: noqa: B023 (the closures over the loop variable are the subject)
"""JAX401: a jit built per step that reads the loop value is one program per step only when
that value picks the program (issue 24, "JAX401 regression").

A loop value that is data (an index from `range()`, a batch, a scalar in arithmetic) compiles
once when passed as an argument, so a jit built per step around it is the sharp bit (reported);
a loop value that is a callable, or a shape / slice bound, needs its own program every step
(silent). Near misses reduced from jax-md examples/npt_csvr.py:55 (a simulation rebuilt per
written-out setting, read through a callable) and from the issue's own example; the marked
lines are the true positives.
"""

import jax
import jax.numpy as jnp


def make_sim(kT):
    return lambda s: s * 0.9 + kT


def data_index(x):
    for i in range(4):
        f = jax.jit(lambda v: v * i)  # error: JAX401
        x = f(x)
    return x


def data_batch(params, batches):
    for batch in batches:
        loss = jax.jit(lambda p: jnp.mean((batch @ p) ** 2))(params)  # error: JAX401
    return loss


def callable_per_step(state, temperatures):
    for kT in temperatures:
        apply_fn = make_sim(kT)
        state = jax.jit(lambda s: apply_fn(s))(state)
    return state


def function_list(x, activations):
    outs = []
    for act in activations:
        outs.append(jax.jit(lambda v: act(v) * 2)(x))
    return outs


def shape_per_step(x, sizes):
    outs = []
    for n in sizes:
        outs.append(jax.jit(lambda v: jnp.zeros(n) + v[:n])(x))
    return outs


def per_dtype(key):
    # google/neural-tangents tests/predict_test.py:1169: one program per written-out dtype
    dtypes = [jnp.float16, jnp.float32]
    outs = []
    for dtype in dtypes:

        def draw():
            return jax.random.normal(key, (2, 3), dtype)

        outs.append(jax.jit(draw)())
    return outs
