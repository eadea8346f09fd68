# source: https://github.com/jax-ml/jax/issues/24740
# family: control-flow
# The fix: carry an escape counter with jnp.where instead of returning early.
import jax
from jax import numpy as jnp
from jax import vmap


def mandle_brot(c, max_iter):
    z = jnp.array([0.0 + 0.0j])
    count = jnp.array([max_iter])
    for i in range(max_iter):
        z = z * z + c
        count = jnp.where((jnp.abs(z) > 2.0) & (count == max_iter), i, count)
    return count


if __name__ == "__main__":
    Z = jnp.array([-0.75 + 0.1j, 0.3 + 0.5j, 1.0 + 1.0j])
    mandle_brot_vmap = vmap(mandle_brot, in_axes=(0, None))
    print(mandle_brot_vmap(Z, 10))
