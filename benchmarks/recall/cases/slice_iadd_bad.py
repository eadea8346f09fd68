# source: https://github.com/google/objax/issues/59
# family: mutation
# expect: JAX501
# check: error:TypeError
# NumPy's in-place slice update on a JAX array.
import jax.numpy as jn

if __name__ == "__main__":
    v = jn.arange(10)
    v[2:4] += 1
    print(v)
