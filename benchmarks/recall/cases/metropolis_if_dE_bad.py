# source: https://github.com/jax-ml/jax/issues/575
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# A jitted Metropolis sampler accepts a spin flip with `if dE < 0:` / `if rand <
# np.exp(-dE):`: the energy difference is traced, so Python cannot branch on it.
import jax
import jax.numpy as jnp
from jax import random


def calc_e(factors, state):
    return jnp.sum(factors * state)


@jax.jit
def sample(factors, key):
    key, subkey = random.split(key)
    state = random.randint(subkey, minval=0, maxval=2, shape=(4,))
    for i in range(4):
        flipped = state.at[i].set(1 - state[i])
        dE = calc_e(factors, flipped) - calc_e(factors, state)
        if dE < 0:
            state = flipped
        else:
            key, subkey = random.split(key)
            if random.uniform(subkey) < jnp.exp(-dE):
                state = flipped
    return state


if __name__ == "__main__":
    print(sample(jnp.array([0.5, -1.0, 2.0, 0.1]), random.PRNGKey(0)))
