# source: https://github.com/jax-ml/jax/issues/10231
# family: shapes
# The fix: a static size (padding with a fill value that contributes nothing).
import jax
import jax.numpy as jnp


def model(age_idx, effects):
    ages_pred = jnp.unique(age_idx, size=effects.shape[0], fill_value=-1)
    return jnp.where(ages_pred >= 0, effects[ages_pred], 0.0).sum()


if __name__ == "__main__":
    print(jax.jit(model)(jnp.array([3, 1, 3, 2]), jnp.arange(5.0)))
