# source: https://github.com/jax-ml/jax/pull/4312
# family: prng
# The fix: thread the key through arguments and results.
from jax import jit
from jax import random


@jit
def init(key):
    key, subkey = random.split(key)
    return key, random.normal(subkey, ())


if __name__ == "__main__":
    key = random.PRNGKey(0)
    key, a = init(key)
    key, b = init(key)
    print("repeated:", bool(a == b))
