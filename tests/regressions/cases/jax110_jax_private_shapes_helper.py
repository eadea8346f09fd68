"""JAX110: JAX's own `jax._src.scipy.sparse.linalg._shapes(pytree)` is
`map(np.shape, tree_leaves(pytree))` (0.10.2 and 0.12.1): a list of Python shapes, so comparing
two of them is a Python comparison under jit, whatever the leaves are.

Reduced from v41 (read after its measurement, tuning material): n-gao/pesnet
`pesnet/utils/optim.py:220`, a conjugate-gradient solve copied from JAX that checks
`jssl._shapes(x0) != jssl._shapes(b)`. The twin: the same comparison of the arrays
themselves.
"""

import jax
import jax._src.scipy.sparse.linalg as jssl
import jax.numpy as jnp


@jax.jit
def solve(b, x0):
    if jssl._shapes(x0) != jssl._shapes(b):
        raise ValueError("x0 and b must have matching shapes")
    return b - x0


@jax.jit
def solve_values(b, x0):
    if jnp.any(x0 != b):  # error: JAX110
        return b
    return x0
