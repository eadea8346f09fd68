"""The caller (a test in the original): bare `jax.grad` through the custom_vjp solver
(works) and through `norm_loss` (raises ConcretizationTypeError)."""

import jax
import jax.numpy as jnp

from pkg.solver import norm_loss, solve_diff


def gradient():
    return jax.grad(lambda x: solve_diff(x, 50, 1e-8).sum())(jnp.ones(3))


def plain_gradient():
    return jax.grad(lambda x: norm_loss(x) * 2.0)(jnp.ones(3))
