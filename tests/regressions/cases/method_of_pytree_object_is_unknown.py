"""A method that `jax.Array` does not have, called on a traced argument, shows that the argument
is an object (a dataclass, a Module, a state), and what the method returns is unknown: here a
Python int summed from static metadata, concrete under jit (jaxsim `model.dofs()` and
`number_of_links()` over `jax_dataclasses.Static[...]` fields: 29 JAX120/JAX110 false positives
of corpus v5; this reduction ran with JAX 0.12: `f` and `g` compile and run). The twins: an
array method of an array field (`model.mass.sum()`) is traced, and still fires.
"""

import flax.struct
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Model:
    mass: jax.Array
    dof_list: tuple[int, ...] = flax.struct.field(pytree_node=False, default=(1, 2))

    def dofs(self) -> int:
        return sum(self.dof_list)


@jax.jit
def f(model, x):
    n = model.dofs()
    if n > 1:
        x = x + 1
    return jnp.eye(model.dofs()) @ x


@jax.jit
def g(model, x):
    return jnp.zeros(model.dofs()) + x


@jax.jit
def twin(model, x):
    if model.mass.sum() > 0:  # error: JAX110
        x = -x
    return x
