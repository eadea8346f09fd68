# source: https://github.com/pyro-ppl/numpyro/pull/479
# family: prng
# The fix: store the advanced key.
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, seed):
        self.rng_key = jax.random.PRNGKey(seed)

    def run(self, n):
        self.rng_key, sub = jax.random.split(self.rng_key)
        return jax.random.normal(sub, (n,))


if __name__ == "__main__":
    sampler = Sampler(0)
    first, second = sampler.run(5), sampler.run(5)
    print("same result:", bool(jnp.all(first == second)))
