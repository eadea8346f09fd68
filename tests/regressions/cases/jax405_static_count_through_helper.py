"""JAX405: a static step count that reaches a helper's `range(n)` through a static parameter
of the jitted caller (issue 24, "unrolled loops": "a static step count that flows through a
helper"). `simulate(x, 1000)` with `n_steps` static and `integrate(x, n_steps)` inside unrolls
1000 copies of the body (3000 jaxpr equations, checked with JAX 0.12; `lax.fori_loop`: 1).

Near misses (silent): the same chain with a small count (8 steps), a caller whose count is a
traced argument (not static: `range` of a tracer is a different error, not an unroll), and a
caller that rebinds the parameter before passing it (its value is not the call's).
"""

from functools import partial

import jax
import jax.numpy as jnp


def integrate(x, n_steps):
    for _ in range(n_steps):  # error: JAX405
        x = x + 0.01 * jnp.sin(x)
    return x


@partial(jax.jit, static_argnums=1)
def simulate(x, n_steps):
    return integrate(x, n_steps)


def relax(x, n_iter):
    for _ in range(n_iter):
        x = x - 0.1 * jnp.tanh(x)
    return x


@partial(jax.jit, static_argnums=1)
def settle(x, n_iter):
    return relax(x, n_iter)


def smooth(x, n_pass):
    for _ in range(n_pass):  # error: JAX120 (a traced count: the near miss of JAX405)
        x = 0.5 * (x + jnp.roll(x, 1))
    return x


@jax.jit
def filtered(x, n_pass):
    return smooth(x, n_pass)


def decay(x, n_decay):
    for _ in range(n_decay):
        x = x * 0.9 + jnp.cos(x)
    return x


@partial(jax.jit, static_argnums=1)
def decayed(x, n_decay):
    n_decay = min(n_decay, 4)
    return decay(x, n_decay)


simulate(jnp.ones(3), 1000)
settle(jnp.ones(3), 8)
filtered(jnp.ones(3), 1000)
decayed(jnp.ones(3), 1000)
