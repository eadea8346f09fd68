# source: https://github.com/jax-ml/jax/pull/181
# family: prng
# multi-module: one subkey per consumer.
import jax
import jax.numpy as jnp
from model import dropout, init

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    init_key, drop_key = jax.random.split(key)
    w = init(init_key, 4)
    h = dropout(drop_key, jnp.ones((2, 4)) @ w)
    print(h.shape)
