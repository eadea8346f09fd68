# source: https://github.com/GALVINLAI/lai_PSR_RCBCD
# family: prng
# expect: JAX201
# check: keyreuse
# The README's loop without its `key = new_key` line: every draw uses the same subkey.
from jax import random

key = random.PRNGKey(12)


def draws(key, n):
    vals = []
    new_key, subkey = random.split(key)
    for i in range(n):
        val = random.normal(subkey)
        vals.append(float(val))
    return vals


if __name__ == "__main__":
    print(draws(key, 3))
