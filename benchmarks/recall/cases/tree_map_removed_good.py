# source: https://github.com/Naruki-Ichihara/feax/pull/3
# family: removed-api
# The fix (as in the PR): jax.tree.map.
import jax
import jax.numpy as jnp


def scale_multipliers(lams, factor):
    return jax.tree.map(lambda l: l * factor, lams)


if __name__ == "__main__":
    print(scale_multipliers({"a": jnp.ones(2), "b": jnp.zeros(1)}, 2.0))
