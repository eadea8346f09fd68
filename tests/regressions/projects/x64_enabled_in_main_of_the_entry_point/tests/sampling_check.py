import jax.numpy as jnp
from simpkg import sampling


def test_run():
    target = jnp.eye(2, dtype=jnp.float64)  # error: JAX701
    assert sampling.run(target).shape == (2,)
