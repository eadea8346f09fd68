# source: https://github.com/jax-ml/jax/issues/16906
# family: mutation
# The fix: read the outputs of the call; the donated input is the output's buffer now.
import jax
import jax.numpy as jnp


def fn(x, y):
    return x, y


fn = jax.jit(fn, donate_argnums=1)

if __name__ == "__main__":
    x = {"A": jnp.float32(1.0), "B": jnp.float32(2.0)}
    y = jnp.float32(3.0)
    x, y = fn(x, y)
    print(x)
    print(y)
