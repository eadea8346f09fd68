# source: https://github.com/jax-ml/jax/issues/9085
# family: side-effects
# The fix: jax.debug.print prints the runtime value.
import jax
from jax import numpy as jnp


def func(mu):
    jax.debug.print("{mu}", mu=mu)
    return mu**2


if __name__ == "__main__":
    f = jax.grad(func)
    print(f(jnp.array(5.0)))
