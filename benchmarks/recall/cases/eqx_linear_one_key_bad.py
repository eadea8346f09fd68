# source: https://github.com/patrick-kidger/equinox/pull/529
# family: prng
# expect: JAX201
# check: stdout:identical weights: True
# Two eqx.nn.Linear layers built from one key: the encoder and the decoder start with
# the same weights (equinox draws each layer's init from its key= argument).
import equinox as eqx
import jax
import jax.numpy as jnp

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    encoder = eqx.nn.Linear(4, 4, key=key)
    decoder = eqx.nn.Linear(4, 4, key=key)
    print("identical weights:", bool(jnp.all(encoder.weight == decoder.weight)))
