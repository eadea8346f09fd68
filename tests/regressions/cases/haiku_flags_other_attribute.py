"""dm-haiku examples/imagenet/train.py:139 (JAX503): `FLAGS.alsologtostderr = True` in `main`
does not change the `FLAGS.train_smoothing` that the jitted loss reads. A write to the same
attribute would (kept below as a true positive)."""

import jax
import jax.numpy as jnp
from absl import flags

FLAGS = flags.FLAGS


def loss_fn(params, labels):
    if FLAGS.train_smoothing:
        labels = labels * 0.9
    return jnp.sum(params * labels) * FLAGS.weight_decay  # error: JAX503


@jax.jit
def train_step(params, labels):
    return jax.grad(loss_fn)(params, labels)


def main(argv):
    FLAGS.alsologtostderr = True
    FLAGS.weight_decay = 0.0
    return train_step(1.0, 2.0)
