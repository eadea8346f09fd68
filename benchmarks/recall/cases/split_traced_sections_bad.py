# source: https://github.com/jax-ml/jax/issues/2506
# family: shapes
# expect: JAX120
# check: error:Error
# The number of sections of jnp.split is a traced argument of a jitted function.
import jax
import jax.numpy as jnp


@jax.jit
def chunks(x, n):
    return jnp.split(x, n)


if __name__ == "__main__":
    print(chunks(jnp.zeros((6, 2)), 2))
