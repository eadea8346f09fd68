"""hypernerf notebooks/figures/hypernerf_optim_latent.ipynb cell 1 (JAX204, precision v7 tuning
half): the notebook never binds `random` (its session had `from jax import random`), and the
import resolution gave the unbound name the stdlib module's qualified name. An unbound name
that is not a builtin is unknown now (`imports.BUILTIN_NAMES`); the stdlib module has no
`split` anyway. The near miss, the stdlib `random` imported under another name, still fires."""

import random as pyrandom

import jax


def f(rng, x):
    a, b = random.split(rng, 2)  # noqa: F821
    k = random.choice(a, 3)  # noqa: F821
    return x + a[0] + k


def g(x):
    return x * pyrandom.random()  # error: JAX204


step = jax.jit(f)
jitter = jax.jit(g)
