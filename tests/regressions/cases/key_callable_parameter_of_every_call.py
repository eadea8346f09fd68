"""A callable parameter whose every visible call passes one def of this module
(`calls.callable_argument`; recall case seed_handler_rng, numpyro#263): `fn(*args,
random_state=self.rng)` runs that def, so a def that draws from `random_state` consumes the key,
and splitting it again afterwards reuses it. Silent when the def never draws from the key, or
when the calls pass different defs (which one runs is the caller's data)."""

from jax import random


def student_t(df, random_state):
    key_chi2, key_normal = random.split(random_state)
    chi2 = 2.0 * random.gamma(key_chi2, df / 2.0)
    return random.normal(key_normal) * (df / chi2) ** 0.5


def constant(df, random_state):
    return df


class Seed:
    def __init__(self, rng):
        self.rng = rng

    def sample(self, fn, *args):
        value = fn(*args, random_state=self.rng)
        (self.rng,) = random.split(self.rng, 1)  # error: JAX201
        return value


class Fixed:
    def __init__(self, rng):
        self.rng = rng

    def sample(self, fn, *args):
        value = fn(*args, random_state=self.rng)
        (self.rng,) = random.split(self.rng, 1)
        return value


class Mixed:
    def __init__(self, rng):
        self.rng = rng

    def sample(self, fn, *args):
        value = fn(*args, random_state=self.rng)
        (self.rng,) = random.split(self.rng, 1)
        return value


def main():
    handler = Seed(random.PRNGKey(0))
    fixed = Fixed(random.PRNGKey(1))
    mixed = Mixed(random.PRNGKey(2))
    return (
        [handler.sample(student_t, 3.0) for _ in range(3)],
        [fixed.sample(constant, 3.0) for _ in range(3)],
        [mixed.sample(student_t, 3.0), mixed.sample(constant, 3.0)],
    )
