"""An eager fixed-point solver wrapped in a `jax.custom_vjp` (tuning pool anulum/scpn-fusion-core
`src/scpn_fusion/core/jax_free_boundary_predictive.py:644-959`, JAX101 medium x2, read
false): a test module differentiates it (`grad_solver.py` here) with bare `jax.grad`, which runs the forward rule on
the concrete primals and never the function's body on tracers, so the solver's `float()` works
(the project seed of kind grad does not enter a custom_vjp function:
`differentiation.custom_vjp_function`). The near miss: `norm_loss`, a plain function, under the
same bare grad: `float()` of a JVP tracer raises."""

from functools import partial

import jax
import jax.numpy as jnp


def solve(x, n_iter, tol):
    for _ in range(n_iter):
        f = jnp.cos(x) - x
        if float(jnp.linalg.norm(f)) <= tol:
            break
        x = x + 0.5 * f
    return x


@partial(jax.custom_vjp, nondiff_argnums=(1, 2))
def solve_diff(x, n_iter, tol):
    return solve(x, n_iter, tol)


def solve_fwd(x, n_iter, tol):
    y = solve(x, n_iter, tol)
    return y, (y,)


def solve_bwd(n_iter, tol, res, g):
    (y,) = res
    return (g / (1.0 + jnp.sin(y)),)


solve_diff.defvjp(solve_fwd, solve_bwd)


def norm_loss(x):
    return float(jnp.linalg.norm(x))  # error: JAX101
