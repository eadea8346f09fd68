# source: https://github.com/jax-ml/jax/issues/691
# family: benchmarking
# The fix: a warm-up call before the clock starts.
import time

import jax
from jax import random


@jax.jit
def draw(key):
    return random.normal(key, shape=(1000,)).sum()


if __name__ == "__main__":
    key = random.PRNGKey(0)
    draw(key).block_until_ready()
    t = time.time()
    draw(key).block_until_ready()
    print("elapsed=%f" % (time.time() - t))
