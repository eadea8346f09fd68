# source: https://github.com/jax-ml/jax/pull/4312
# family: prng
# expect: JAX209 JAX502 JAX503
# check: stdout:repeated: True
# A module-level key advanced by `global` inside a function that is then jitted:
# the split runs once at trace time, so every call returns the same draw.
from jax import jit
from jax import random

key = random.PRNGKey(0)


def init():
    global key
    key, subkey = random.split(key)
    return random.normal(subkey, ())


if __name__ == "__main__":
    init = jit(init)
    a = init()
    b = init()
    print("repeated:", bool(a == b))
