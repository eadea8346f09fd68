"""aqt_flax.py:650-656 (AqtEinsum.__call__): `jax.make_jaxpr(einsum)(lhs, rhs)` returns a
ClosedJaxpr; its `eqns[0].invars` / `jaxpr.invars` are jaxpr Var objects, so `==`, `and`,
`assert`, `if` on them are plain Python bools even when the caller is jitted."""

import functools

import jax
import jax.numpy as jnp


def call(lhs, rhs, eqn="ij,jk->ik"):
    einsum = functools.partial(jnp.einsum, eqn)
    a = jax.make_jaxpr(einsum)(lhs, rhs)
    [lhs_g_id, rhs_g_id] = a.eqns[0].invars[:2]
    [lhs_l_id, rhs_l_id] = a.jaxpr.invars
    not_swap = lhs_g_id == lhs_l_id and rhs_g_id == rhs_l_id
    yes_swap = lhs_g_id == rhs_l_id and rhs_g_id == lhs_l_id
    assert not_swap != yes_swap
    print("types:", type(lhs_g_id).__name__, type(not_swap).__name__)
    if yes_swap:
        return rhs.sum()
    return (lhs @ rhs).sum()


if __name__ == "__main__":
    x = jnp.ones((2, 3))
    y = jnp.ones((3, 4))
    print(jax.jit(call)(x, y))  # traces fine: no TracerBoolConversionError
