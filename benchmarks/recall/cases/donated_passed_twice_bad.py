# source: https://github.com/jax-ml/jax/issues/9635
# family: mutation
# expect: JAX506
# check: error:previously donated
# "jitted function hangs when a donated argument is passed twice": `f(x, x)` with
# `donate_argnums=(0,)`; JAX now raises "Attempt to use a buffer that was previously
# donated in the same call".
import jax
import jax.numpy as jnp


def add(x, y):
    return x + y


f = jax.jit(add, donate_argnums=(0,))

if __name__ == "__main__":
    x = jnp.zeros((10,), jnp.float32)
    print(f(x, x))
