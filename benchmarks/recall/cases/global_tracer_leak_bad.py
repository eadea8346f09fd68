# source: https://github.com/jax-ml/jax/issues/3086
# family: side-effects
# expect: JAX502 JAX503
# check: error:UnexpectedTracerError
# A jitted function stores its traced argument in a global; later use of it fails.
import jax
import jax.numpy as jnp

x = None


@jax.jit
def f(y):
    global x
    x = y
    return y + 2


if __name__ == "__main__":
    f(7)
    print(jnp.sin(x))
