# source: https://openillumi.com/en/en-jax-rngkey-iteration-best-practice
# family: prng
# expect: JAX202
# check: stdout:identical draws: True
# A fresh PRNGKey from the same seed on every iteration of a Monte Carlo loop.
import jax
import jax.numpy as jnp

N = 5


def simulate():
    draws = []
    for i in range(N):
        rng = jax.random.PRNGKey(0)
        draws.append(jax.random.normal(rng, ()))
    return jnp.stack(draws)


if __name__ == "__main__":
    d = simulate()
    print("identical draws:", bool((d == d[0]).all()))
