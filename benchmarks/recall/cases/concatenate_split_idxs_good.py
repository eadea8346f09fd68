# source: https://github.com/danielward27/flowjax/issues/132
# family: shapes
# The fix (the issue's): keep the split points as a tuple of Python ints.
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Concatenate(eqx.Module):
    split_idxs: tuple[int, ...]

    def __init__(self, sizes):
        self.split_idxs = tuple(int(i) for i in np.cumsum(sizes[:-1]))

    def transform(self, x):
        parts = jnp.array_split(x, self.split_idxs)
        return jnp.concatenate([p * 2.0 for p in parts])


if __name__ == "__main__":
    bijection = Concatenate([1, 1])
    print(jax.jit(jax.vmap(bijection.transform))(jnp.ones((1, 2))))
