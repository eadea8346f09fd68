# source: https://github.com/google/objax/issues/59
# family: mutation
# The fix: the functional update.
import jax.numpy as jn

if __name__ == "__main__":
    v = jn.arange(10)
    v = v.at[2:4].add(1)
    print(v)
