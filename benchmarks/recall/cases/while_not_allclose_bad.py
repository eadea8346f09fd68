# source: https://github.com/jax-ml/jax/issues/2708
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# `not` on a traced value in a while_loop condition function.
from jax import numpy as jnp
from jax.lax import while_loop


def bf(x):
    return x + 1.0


def cf_ac(x):
    return not jnp.allclose(x, 10.0)


if __name__ == "__main__":
    print(while_loop(cf_ac, bf, 0.0))
