# source: https://github.com/jax-ml/jax/issues/9635
# family: mutation
# The fix (mattjj in the thread): pass a copy where the same array is needed twice.
import jax
import jax.numpy as jnp


def add(x, y):
    return x + y


f = jax.jit(add, donate_argnums=(0,))

if __name__ == "__main__":
    x = jnp.zeros((10,), jnp.float32)
    print(f(x, x.copy()))
