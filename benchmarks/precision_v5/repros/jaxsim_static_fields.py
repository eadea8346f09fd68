"""jaxsim: model.dofs()/number_of_links() read Static fields (pytree aux data) -> concrete under jit.

jax_dataclasses.Static[...] fields are the pytree's metadata (not leaves), like
register_dataclass(meta_fields=...): under jit they are Python values, so jnp.zeros(n),
jnp.eye(n), jnp.arange(n) and `if n > 1` all work (JAX120/JAX110 findings are FPs).
"""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class JointModel:
    joint_dofs: tuple  # Static in jaxsim
    mass: jax.Array


jax.tree_util.register_dataclass(JointModel, data_fields=["mass"], meta_fields=["joint_dofs"])


@dataclasses.dataclass
class Model:
    joint_model: JointModel

    def dofs(self):
        return sum(self.joint_model.joint_dofs[1:])


jax.tree_util.register_dataclass(Model, data_fields=["joint_model"], meta_fields=[])


@jax.jit
def f(model):
    n = model.dofs()
    out = jnp.zeros((n, n)) + jnp.eye(n)
    return out if n > 1 else out * 0 + jnp.arange(n).sum()


print(f(Model(JointModel((6, 1, 1, 1), jnp.ones(3)))).shape)
