import jax

from pkg import losses
from . import scale
from .losses import clip, warmup


@jax.jit
def train_step(params, batch):
    loss = losses.loss_fn(params, batch)
    y = scale(batch, 2)
    return clip(loss, 1.0) + y


def schedule(n):
    return [warmup(i, n) for i in range(n)]
