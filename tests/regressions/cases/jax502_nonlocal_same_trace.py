"""A `nonlocal` variable of the traced function itself, updated by a nested helper it calls
directly, lives and dies in the same trace: ordinary Python, not a side effect (v14 tuning
half, Object-Informed-Manipulation-MJX `oim/algs/c3_dynamic.py:247-254`: `ground()` updates
the enclosing `build_dynamic_lcs`'s `E, F, H, c` with `.at[...]`, 9 JAX502 rows).

The twin: a jitted function writing a `nonlocal` of the (untraced) factory that made it keeps
a tracer there; checked with JAX 0.12: reading it after the call raises UnexpectedTracerError.
"""

import jax
import jax.numpy as jnp


@jax.jit
def build(x):
    E = jnp.zeros(3)
    c = jnp.zeros(3)

    def ground(i, v):
        nonlocal E, c
        E = E.at[i].set(v)
        c = c.at[i].add(v * 2)

    ground(0, x)
    ground(1, x * 2)
    return E, c


def make():
    total = jnp.zeros(())

    @jax.jit
    def step(x):
        nonlocal total
        total = total + x  # error: JAX502
        return x

    def read():
        return total + 1

    return step, read
