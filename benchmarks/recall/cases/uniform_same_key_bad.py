# source: https://github.com/jax-ml/jax/issues/2009
# family: prng
# expect: JAX201
# check: stdout:identical: True
# "Almost every single new user will incorrectly reuse the PRNG key in this way": two
# draws from one key give the same matrix twice.
import jax
import jax.numpy as jnp

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    a = jax.random.uniform(key, (10, 10))
    b = jax.random.uniform(key, (10, 10))
    print("identical:", bool(jnp.all(a == b)))
