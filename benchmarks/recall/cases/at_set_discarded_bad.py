# source: https://github.com/AhMedDa1/prob-epi
# family: mutation
# expect: JAX504
# check: stdout:updated: False
# `.at[...].set(...)` written as if it updated the array in place; the result is dropped.
import jax.numpy as jnp


def reset_infected(state, idx):
    state.at[idx].set(0.0)
    return state


if __name__ == "__main__":
    s = reset_infected(jnp.ones(4), 2)
    print("updated:", bool(s[2] == 0.0))
