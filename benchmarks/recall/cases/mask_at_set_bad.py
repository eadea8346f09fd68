# source: https://github.com/probml/probml-notebooks/pull/70
# family: shapes
# expect: JAX130
# check: error:NonConcreteBooleanIndexError
# Boolean-mask update x.at[x < 0].set(0) inside a jitted attention helper.
import jax
import jax.numpy as jnp


@jax.jit
def masked_scores(scores):
    scores = scores.at[scores < 0].set(0.0)
    return jax.nn.softmax(scores, axis=-1)


if __name__ == "__main__":
    print(masked_scores(jnp.array([[1.0, -2.0], [0.5, 3.0]])))
