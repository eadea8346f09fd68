# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/issues/4
# family: prng
# expect: JAX201
# check: keyreuse
# The vmap/pmap tutorial splits the key but draws the rotations from `key`, not
# `subkey`; the next batch splits that same `key` again, so the draw and the next split
# share a key (the subkey is never used).
import jax
from jax import random


def augment(key, batch, batch_size):
    key, subkey = random.split(key)
    rotate = random.randint(key, shape=[batch_size], minval=0, maxval=2)
    return key, jax.numpy.where(rotate[:, None] == 1, batch[:, ::-1], batch)


if __name__ == "__main__":
    key = random.PRNGKey(0)
    batch = jax.numpy.arange(12.0).reshape(4, 3)
    for _ in range(3):
        key, batch = augment(key, batch, 4)
    print(batch)
