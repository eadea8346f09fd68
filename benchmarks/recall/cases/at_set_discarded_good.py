# source: https://github.com/AhMedDa1/prob-epi
# family: mutation
# The fix: keep the returned array.
import jax.numpy as jnp


def reset_infected(state, idx):
    state = state.at[idx].set(0.0)
    return state


if __name__ == "__main__":
    s = reset_infected(jnp.ones(4), 2)
    print("updated:", bool(s[2] == 0.0))
