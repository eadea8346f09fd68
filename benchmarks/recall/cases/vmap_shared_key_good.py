# source: https://github.com/google/flax/issues/4195
# family: prng
# The fix: split one key per batch element and map over the keys.
import jax
import jax.numpy as jnp


def inference_fn(key, x):
    noise = jax.random.normal(key, x.shape)
    return x + noise


if __name__ == "__main__":
    key = jax.random.key(0)
    xs = jnp.zeros((4, 3))
    keys = jax.random.split(key, xs.shape[0])
    ys = jax.vmap(inference_fn, in_axes=(0, 0))(keys, xs)
    print("rows identical:", bool((ys == ys[0]).all()))
