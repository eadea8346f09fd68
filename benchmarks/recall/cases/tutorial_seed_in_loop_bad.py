# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/issues/4
# family: prng
# expect: JAX202
# check: stdout:identical draws: True
# The tutorial's cell 24 re-creates `key = random.PRNGKey(0)` inside the loop: every
# iteration draws the same number.
from jax import random

if __name__ == "__main__":
    draws = []
    for _ in range(3):
        key = random.PRNGKey(0)
        a = random.normal(key=key)
        draws.append(float(a))
    print("identical draws:", len(set(draws)) == 1)
