import jax.numpy as jnp
from lo.common import split_tree, unroll
print(split_tree({"w": jnp.ones((4, 3))})[0]["w"].shape, unroll(jnp.ones((4, 1)), jnp.ones((8,))).shape)
