# source: https://openillumi.com/en/en-jax-rngkey-iteration-best-practice
# family: prng
# The fix (the article's recommendation): split per iteration.
import jax
import jax.numpy as jnp

N = 5


def simulate():
    rng = jax.random.PRNGKey(0)
    draws = []
    for i in range(N):
        rng, subkey = jax.random.split(rng)
        draws.append(jax.random.normal(subkey, ()))
    return jnp.stack(draws)


if __name__ == "__main__":
    d = simulate()
    print("identical draws:", bool((d == d[0]).all()))
