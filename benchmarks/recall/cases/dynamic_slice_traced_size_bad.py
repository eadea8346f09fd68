# source: https://github.com/jax-ml/jax/issues/1007
# family: shapes
# expect: JAX120
# check: error:TypeError
# lax.dynamic_slice with a slice size `k` that is an argument of the jitted function: the
# start may be traced, the size may not.
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sum_first_k(a, k):
    return jnp.sum(lax.dynamic_slice(a, (0,), (k,)))


if __name__ == "__main__":
    print(sum_first_k(jnp.arange(3.0), 2))
