"""anulum/scpn-fusion-core `src/scpn_fusion/core/jax_free_boundary_predictive.py:644-698`
(tuning pool, JAX101 medium x2, read false): a test differentiates a `jax.custom_vjp` solver
with bare `jax.grad`. JAX then runs the forward rule on the concrete primal values and never
runs the function's body on tracers, so the eager solver's `float(jnp.linalg.norm(f))` works
(run with JAX 0.10.2 and 0.12.1; `differentiation.custom_vjp_function`). The near misses: the
same solver differentiated under `jax.jit` (every value is abstract there: it raises
ConcretizationTypeError), and a plain function under bare `grad`."""

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


def solve_traced(x, n_iter, tol):
    for _ in range(n_iter):
        f = jnp.cos(x) - x
        if float(jnp.linalg.norm(f)) <= tol:  # error: JAX101
            break
        x = x + 0.5 * f
    return x


@partial(jax.custom_vjp, nondiff_argnums=(1, 2))
def solve_traced_diff(x, n_iter, tol):
    return solve_traced(x, n_iter, tol)


def solve_traced_fwd(x, n_iter, tol):
    y = solve_traced(x, n_iter, tol)
    return y, (y,)


solve_traced_diff.defvjp(solve_traced_fwd, lambda n_iter, tol, res, g: (g,))


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


def test_gradient():
    return jax.grad(lambda x: solve_diff(x, 50, 1e-8).sum())(jnp.ones(3))


def test_gradient_jitted():
    return jax.jit(jax.grad(lambda x: solve_traced_diff(x, 50, 1e-8).sum()))(jnp.ones(3))


def norm_loss(x):
    return float(jnp.linalg.norm(x))  # error: JAX101


def test_plain_gradient():
    return jax.grad(norm_loss)(jnp.ones(3))
