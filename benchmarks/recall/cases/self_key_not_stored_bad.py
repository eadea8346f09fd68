# source: https://github.com/pyro-ppl/numpyro/pull/479
# family: prng
# expect: JAX201
# check: stdout:same result: True
# The sampler keeps its key on self and splits it in run(), but never stores the new
# key back: every run returns the previous run's draws (the "same result as the
# previous run" bug fixed in the PR).
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, seed):
        self.rng_key = jax.random.PRNGKey(seed)

    def run(self, n):
        rng_key, sub = jax.random.split(self.rng_key)
        return jax.random.normal(sub, (n,))


if __name__ == "__main__":
    sampler = Sampler(0)
    first, second = sampler.run(5), sampler.run(5)
    print("same result:", bool(jnp.all(first == second)))
