"""`map(jnp.shape, leaves)` (or JAX's own `safe_map`) of a function whose result is a Python
value gives Python values: comparing two of them in an `if` inside a traced function is a
Python comparison (v19 rows, tuning material: jax-fem-cfd utils/jax_iterative_solvers.py:170,
196, `_shapes(x0) != _shapes(b)` with `_shapes = lambda t: map(jnp.shape, tree_leaves(t))`,
JAX110; `jax_api.PYTHON_MAPS`). The twin maps an array function over the leaves."""

import jax
import jax.numpy as jnp
from jax._src.util import safe_map as map
from jax.tree_util import tree_leaves


def _shapes(pytree):
    return map(jnp.shape, tree_leaves(pytree))


def _sums(pytree):
    return map(jnp.sum, tree_leaves(pytree))


@jax.jit
def solve(x0, b):
    if _shapes(x0) != _shapes(b):
        raise ValueError("arrays in x0 and b must have matching shapes")
    return x0 + b


@jax.jit
def solve_twin(x0, b):
    if _sums(x0)[0] > _sums(b)[0]:  # error: JAX110
        return x0
    return b
