# source: https://github.com/jax-ml/jax/issues/817
# family: recompilation
# The fix: pad to one fixed size and mask the padding.
import jax.numpy as jnp
import numpy as np
from jax import jit

MAX_OPPONENTS = 8


@jit
def calculate_approximate_likelihood(mu, opponent_mus, outcomes, mask):
    e = 1.0 / (1.0 + jnp.exp(-(mu - opponent_mus)))
    return jnp.sum(mask * (outcomes * jnp.log(e) + (1 - outcomes) * jnp.log(1 - e)))


if __name__ == "__main__":
    for n_opponents in range(1, 7):
        opponent_mus = np.zeros(MAX_OPPONENTS, np.float32)
        opponent_mus[:n_opponents] = np.linspace(-1.0, 1.0, n_opponents)
        outcomes = np.zeros(MAX_OPPONENTS, np.float32)
        outcomes[:n_opponents] = np.arange(n_opponents) % 2
        mask = (np.arange(MAX_OPPONENTS) < n_opponents).astype(np.float32)
        print(calculate_approximate_likelihood(0.0, opponent_mus, outcomes, mask))
