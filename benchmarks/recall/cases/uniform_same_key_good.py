# source: https://github.com/jax-ml/jax/issues/2009
# family: prng
# The fix: split the key and draw from each subkey once.
import jax
import jax.numpy as jnp

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    key_a, key_b = jax.random.split(key)
    a = jax.random.uniform(key_a, (10, 10))
    b = jax.random.uniform(key_b, (10, 10))
    print("identical:", bool(jnp.all(a == b)))
