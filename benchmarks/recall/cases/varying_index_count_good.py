# source: https://github.com/jax-ml/jax/issues/15761
# family: recompilation
# The fix: pad the indices to one fixed length and cut the result outside jit.
import jax
import jax.numpy as jnp

MAX_INDICES = 10


@jax.jit
def some_func(vec, indices):
    return vec[indices]


if __name__ == "__main__":
    x = jnp.ones(20)
    for n_indices in [5, 8, 10, 10, 10]:
        li = jnp.pad(jnp.arange(n_indices), (0, MAX_INDICES - n_indices))
        some_func(x, li)[:n_indices].block_until_ready()
