# source: https://github.com/jax-ml/jax/issues/24740
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# Mandelbrot escape-time with a Python `if` on a traced value, vmapped over points.
import jax
from jax import numpy as jnp
from jax import vmap


def mandle_brot(c, max_iter):
    z = jnp.array([0.0 + 0.0j])
    for i in range(max_iter):
        z = z * z + c
        if jnp.abs(z) > 2.0:
            return jnp.array([i])
    return jnp.array([max_iter])


if __name__ == "__main__":
    Z = jnp.array([-0.75 + 0.1j, 0.3 + 0.5j, 1.0 + 1.0j])
    mandle_brot_vmap = vmap(mandle_brot, in_axes=(0, None))
    print(mandle_brot_vmap(Z, 10))
