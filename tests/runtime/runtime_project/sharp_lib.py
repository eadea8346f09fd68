"""Sharp bits the static layer cannot see: each shows up only when the code runs."""

import functools

import jax
import jax.numpy as jnp

SEEN = []


def draw_pair(keys):
    """The same key, reached twice through a dict."""
    noise = jax.random.normal(keys["noise"], (3,))
    mask = jax.random.uniform(keys["noise"], (3,))  # expect: JAX201
    return noise * mask


@jax.jit
def total(x):
    return jnp.sum(x * 2.0)


def running_totals(start, stop):
    """One call per length: the input shape grows every call."""
    out = []
    for n in range(start, stop):
        out.append(total(jnp.ones(n)))  # expect: JAX404
    return out


def compiled(scale):
    return jax.jit(lambda v: v * scale)  # expect: JAX401


def scale_all(xs, scale):
    """A fresh jitted lambda per element (built by a helper, so no loop is in sight)."""
    return [compiled(scale)(x) for x in xs]


@jax.jit
def remember(x):
    SEEN.append(x)  # expect: JAX502
    return x + 1.0


@functools.partial(jax.jit, static_argnums=1)
def power(x, n):
    return x**n


def powers(x, top):
    """A static argument that takes a new value per call."""
    return [power(x, n) for n in range(top)]  # expect: JAX403


@jax.jit
def step(x):
    return jnp.tanh(x) * 0.5


def clean_run(key, x):
    key, sub = jax.random.split(key)
    noise = jax.random.normal(sub, x.shape)
    for _ in range(4):
        x = step(x + noise)
    return key, x
