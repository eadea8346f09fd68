"""A field annotated `jdc.Static[int]` (jax_dataclasses) is static: its value lives in the
treedef, so inside a traced function it is a Python int (jaxls _problem.py:792, `if
cost.residual_flat_dim != val_subset._get_tangent_dim()` with `residual_flat_dim:
jdc.Static[int]`). The twin's field is a plain `int`: a leaf, traced when the object is a
jit argument."""

import jax
import jax.numpy as jnp
import jax_dataclasses as jdc


@jdc.pytree_dataclass
class Cost:
    weights: jax.Array
    residual_dim: jdc.Static[int]


@jdc.pytree_dataclass
class Counted:
    weights: jax.Array
    count: int


@jax.jit
def residual(cost: Cost, x):
    if cost.residual_dim != x.shape[-1]:
        return jnp.zeros(cost.residual_dim)
    return cost.weights * x


@jax.jit
def counted(c: Counted, x):
    if c.count > 0:  # error: JAX110
        return c.weights * x
    return x
