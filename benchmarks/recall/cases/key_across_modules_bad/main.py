# source: https://github.com/jax-ml/jax/pull/181
# family: prng
# expect: JAX201
# check: keyreuse
# multi-module: the key goes to init() in model.py and then to dropout() in model.py.
import jax
import jax.numpy as jnp
from model import dropout, init

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    w = init(key, 4)
    h = dropout(key, jnp.ones((2, 4)) @ w)
    print(h.shape)
