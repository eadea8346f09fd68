# source: https://github.com/danielward27/flowjax/issues/132
# family: shapes
# expect: JAX120
# check: error:ConcretizationTypeError
# flowjax's Concatenate bijection keeps its split points as an int array and splits with
# it; under jax.jit(jax.vmap(...)) the array is a traced module leaf.
import equinox as eqx
import jax
import jax.numpy as jnp


class Concatenate(eqx.Module):
    split_idxs: jax.Array

    def __init__(self, sizes):
        self.split_idxs = jnp.cumsum(jnp.array(sizes[:-1]))

    def transform(self, x):
        parts = jnp.array_split(x, self.split_idxs)
        return jnp.concatenate([p * 2.0 for p in parts])


if __name__ == "__main__":
    bijection = Concatenate([1, 1])
    print(jax.jit(jax.vmap(bijection.transform))(jnp.ones((1, 2))))
