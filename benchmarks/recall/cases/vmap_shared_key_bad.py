# source: https://github.com/google/flax/issues/4195
# family: prng
# expect: JAX207
# check: stdout:rows identical: True
# A noisy inference function vmapped over inputs with the key broadcast (in_axes None):
# every batch element gets the same noise.
import jax
import jax.numpy as jnp


def inference_fn(key, x):
    noise = jax.random.normal(key, x.shape)
    return x + noise


if __name__ == "__main__":
    key = jax.random.key(0)
    xs = jnp.zeros((4, 3))
    ys = jax.vmap(inference_fn, in_axes=(None, 0))(key, xs)
    print("rows identical:", bool((ys == ys[0]).all()))
