# source: https://github.com/probml/probml-notebooks/pull/70
# family: shapes
# The fix (as merged): jnp.where.
import jax
import jax.numpy as jnp


@jax.jit
def masked_scores(scores):
    scores = jnp.where(scores < 0, 0.0, scores)
    return jax.nn.softmax(scores, axis=-1)


if __name__ == "__main__":
    print(masked_scores(jnp.array([[1.0, -2.0], [0.5, 3.0]])))
