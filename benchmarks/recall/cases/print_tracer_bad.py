# source: https://github.com/jax-ml/jax/issues/9085
# family: side-effects
# expect: JAX103
# check: stdout:Tracer(
# print() of a value inside grad shows a tracer, not the number.
import jax
from jax import numpy as jnp


def func(mu):
    print(mu)
    return mu**2


if __name__ == "__main__":
    f = jax.grad(func)
    print(f(jnp.array(5.0)))
