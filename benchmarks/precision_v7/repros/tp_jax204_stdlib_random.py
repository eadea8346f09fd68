# near-miss twin (JAX204 should still fire): stdlib random imported, a real stdlib function.
import random

import jax


def f(rng, x):
    return x * random.random()


g = jax.jit(f)
