# source: https://github.com/jax-ml/jax/issues/101
# family: mutation
# The fix (mattjj's reply): build the dataset with original NumPy, then hand it to JAX.
import jax.numpy as np
import numpy as onp


def load_batch(i):
    return onp.full((10, 2, 2, 1), float(i))


if __name__ == "__main__":
    x_train = onp.zeros((30, 2, 2, 1))
    for i in range(1, 4):
        data = load_batch(i)
        x_train[(i - 1) * 10 : i * 10, :, :, :] = data
    print(np.asarray(x_train).sum())
