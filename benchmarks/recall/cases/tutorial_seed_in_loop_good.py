# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/issues/4
# family: prng
# The fix (the issue's): seed once, split in every iteration.
from jax import random

if __name__ == "__main__":
    key = random.PRNGKey(42)
    draws = []
    for _ in range(3):
        key, subkey = random.split(key)
        a = random.normal(key=subkey)
        draws.append(float(a))
    print("identical draws:", len(set(draws)) == 1)
