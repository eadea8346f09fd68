# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/issues/4
# family: prng
# The fix (the issue's): draw from the subkey, carry the key.
import jax
from jax import random


def augment(key, batch, batch_size):
    key, subkey = random.split(key)
    rotate = random.randint(subkey, shape=[batch_size], minval=0, maxval=2)
    return key, jax.numpy.where(rotate[:, None] == 1, batch[:, ::-1], batch)


if __name__ == "__main__":
    key = random.PRNGKey(0)
    batch = jax.numpy.arange(12.0).reshape(4, 3)
    for _ in range(3):
        key, batch = augment(key, batch, 4)
    print(batch)
