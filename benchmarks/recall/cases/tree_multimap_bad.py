# source: https://github.com/google/trajax/issues/9
# family: removed-api
# expect: JAX801
# check: error:AttributeError
# jax.tree_multimap, long removed.
import jax
import jax.numpy as jnp


def project(x, lower, upper):
    return jax.tree_multimap(lambda v, lo, hi: jnp.clip(v, lo, hi), x, lower, upper)


if __name__ == "__main__":
    print(project({"u": jnp.array(3.0)}, {"u": 0.0}, {"u": 1.0}))
