# source: https://github.com/jax-ml/jax/issues/10231
# family: shapes
# expect: JAX121
# check: error:ConcretizationTypeError
# jnp.unique inside a jitted model function.
import jax
import jax.numpy as jnp


def model(age_idx, effects):
    ages_pred = jnp.unique(age_idx)
    return effects[ages_pred].sum()


if __name__ == "__main__":
    print(jax.jit(model)(jnp.array([3, 1, 3, 2]), jnp.arange(5.0)))
