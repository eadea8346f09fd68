"""ott geometry/regularizers.py:503/506 (JAX120): `A.out_size()` of a lineax linear operator
is a Python int (operator metadata), not a traced value."""
import functools

import jax
import jax.numpy as jnp
import lineax as lx


def _invert(A: lx.AbstractLinearOperator) -> lx.MatrixLinearOperator:
    d = A.out_size()
    b = jnp.zeros(d)
    inv = jax.vmap(lambda ix: lx.linear_solve(A, b.at[ix].set(1.0)).value)(jnp.arange(d))
    return lx.MatrixLinearOperator(inv)


@functools.partial(jax.jit, static_argnums=1)
def complement(A, k: int):
    return _invert(A).as_matrix()[:k]


print(complement(lx.MatrixLinearOperator(2 * jnp.eye(3)), 2))
