# source: https://github.com/jax-ml/jax/issues/691
# family: benchmarking
# expect: JAX602
# check: elapsed>good*3
# Timing the first call of a jitted sampler: the time is mostly tracing and compilation
# (the 0.12 s on the first line).
import time

import jax
from jax import random


@jax.jit
def draw(key):
    return random.normal(key, shape=(1000,)).sum()


if __name__ == "__main__":
    key = random.PRNGKey(0)
    t = time.time()
    draw(key).block_until_ready()
    print("elapsed=%f" % (time.time() - t))
