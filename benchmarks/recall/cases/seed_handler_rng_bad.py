# source: https://github.com/pyro-ppl/numpyro/pull/263
# family: prng
# expect: JAX201
# check: keyreuse
# numpyro's early `seed` handler gave its own `self.rng` to the sample site and then made
# the next key with `self.rng, = random.split(self.rng, 1)`: a sampler that splits the
# key it is given (StudentT) and the handler split the same key.
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
        value = fn(*args, random_state=self.rng)
        (self.rng,) = random.split(self.rng, 1)
        return value


if __name__ == "__main__":
    handler = Seed(random.PRNGKey(0))
    print([float(handler.sample(student_t, 3.0)) for _ in range(3)])
