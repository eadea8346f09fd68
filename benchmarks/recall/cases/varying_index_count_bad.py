# source: https://github.com/jax-ml/jax/issues/15761
# family: recompilation
# expect: JAX404
# check: compiles:some_func>1
# "Jax jit-compile functions many times": the jitted function is called with index arrays
# of a different length each time (5, 8, 10), and every new length compiles again.
import jax
import jax.numpy as jnp


@jax.jit
def some_func(vec, indices):
    out = jnp.zeros(len(indices))
    for idx, j in enumerate(indices):
        out = out.at[idx].set(vec[j])
    return out


if __name__ == "__main__":
    x = jnp.ones(20)
    for n_indices in [5, 8, 10, 10, 10]:
        li = jnp.arange(n_indices)
        some_func(x, li).block_until_ready()
