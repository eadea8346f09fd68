# source: https://github.com/jax-ml/jax/issues/817
# family: recompilation
# expect: JAX404
# check: compiles:calculate_approximate_likelihood>3
# Glicko updates: a jitted likelihood called with a different number of opponents each
# time, so it recompiles for every new shape.
import jax.numpy as jnp
import numpy as np
from jax import jit


@jit
def calculate_approximate_likelihood(mu, opponent_mus, outcomes):
    e = 1.0 / (1.0 + jnp.exp(-(mu - opponent_mus)))
    return jnp.sum(outcomes * jnp.log(e) + (1 - outcomes) * jnp.log(1 - e))


if __name__ == "__main__":
    for n_opponents in range(1, 7):
        opponent_mus = np.linspace(-1.0, 1.0, n_opponents)
        outcomes = (np.arange(n_opponents) % 2).astype(np.float32)
        print(calculate_approximate_likelihood(0.0, opponent_mus, outcomes))
