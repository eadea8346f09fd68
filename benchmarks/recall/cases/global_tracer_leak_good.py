# source: https://github.com/jax-ml/jax/issues/3086
# family: side-effects
# The fix: return the value instead of storing it.
import jax
import jax.numpy as jnp


@jax.jit
def f(y):
    return y + 2, y


if __name__ == "__main__":
    _, x = f(7)
    print(jnp.sin(x))
