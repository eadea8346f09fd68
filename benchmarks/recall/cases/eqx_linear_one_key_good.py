# source: https://github.com/patrick-kidger/equinox/pull/529
# family: prng
# The fix: one subkey per layer.
import equinox as eqx
import jax
import jax.numpy as jnp

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    enc_key, dec_key = jax.random.split(key)
    encoder = eqx.nn.Linear(4, 4, key=enc_key)
    decoder = eqx.nn.Linear(4, 4, key=dec_key)
    print("identical weights:", bool(jnp.all(encoder.weight == decoder.weight)))
