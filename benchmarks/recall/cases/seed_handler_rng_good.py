# source: https://github.com/pyro-ppl/numpyro/pull/263
# family: prng
# The fix (the PR's): split first, keep one half, give the other to the sample site.
import jax
from jax import random


def student_t(df, random_state):
    key_chi2, key_normal = random.split(random_state)
    chi2 = 2.0 * random.gamma(key_chi2, df / 2.0)
    return random.normal(key_normal) * jax.numpy.sqrt(df / chi2)


class Seed:
    def __init__(self, rng):
        self.rng = rng

    def sample(self, fn, *args):
        self.rng, rng_sample = random.split(self.rng)
        return fn(*args, random_state=rng_sample)


if __name__ == "__main__":
    handler = Seed(random.PRNGKey(0))
    print([float(handler.sample(student_t, 3.0)) for _ in range(3)])
