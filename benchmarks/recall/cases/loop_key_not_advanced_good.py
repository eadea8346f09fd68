# source: https://github.com/GALVINLAI/lai_PSR_RCBCD
# family: prng
# The README's loop: split every iteration and carry the new key.
from jax import random

key = random.PRNGKey(12)


def draws(key, n):
    vals = []
    for i in range(n):
        new_key, subkey = random.split(key)
        val = random.normal(subkey)
        vals.append(float(val))
        key = new_key
    return vals


if __name__ == "__main__":
    print(draws(key, 3))
