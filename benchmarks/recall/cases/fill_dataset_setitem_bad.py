# source: https://github.com/jax-ml/jax/issues/101
# family: mutation
# expect: JAX501
# check: error:TypeError
# Loading a dataset batch by batch into a jax.numpy array with slice assignment, as one
# would with NumPy: jnp arrays do not support item assignment.
import jax.numpy as np


def load_batch(i):
    return np.full((10, 2, 2, 1), float(i))


if __name__ == "__main__":
    x_train = np.zeros((30, 2, 2, 1))
    for i in range(1, 4):
        data = load_batch(i)
        x_train[(i - 1) * 10 : i * 10, :, :, :] = data
    print(x_train.sum())
