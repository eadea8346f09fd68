"""A flax linen/nnx `__call__` is not itself a transform: keyword arguments with a default
carry Python configuration and are not traced without evidence.

Reduced from google-research/big_vision models/proj/flexi/vit.py:73-99 (`seqhw` is an int
chosen by the caller, a static argument of the jitted step; `seqhw or self.seqhw` would fail
on a tracer), where the "safe" `np.array` -> `jnp.array` fix broke the pooling window.
Required parameters the body uses where only a concrete value works are Python values too
(google/jax-resnet resnet.py:56 `x.shape != out_shape`; whisper-jax layers.py:689
`np.arange(qlen)`). The required array inputs (`image`, `x`) stay traced (the `# error:`
lines). Also: the ahead-of-time API (`f.lower(...).compile().cost_analysis()`, maxtext
kernels/ragged_attention.py:317) returns host objects. A Module that another Module of the
file applies gets what its callers pass (maxtext layers/attentions.py: `model_mode`, a str
parameter of `Attention.__call__`, handed to `AttentionOp.__call__`).
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx


def resample(old, new_hw):
    mat = np.ones((int(np.prod(new_hw)), old.shape[0] * old.shape[1]))

    def resample_kernel(kernel):
        return (mat @ kernel.reshape(-1)).reshape(new_hw)

    return jax.vmap(resample_kernel, 2, 2)(old)


class Patchify(nn.Module):
    seqhw: int = 4

    @nn.compact
    def __call__(self, image, seqhw=None, *, train=None, **kwargs):
        _, h, w, _ = image.shape
        seqhw = seqhw or self.seqhw
        patch = tuple(np.array((h, w)) // np.array((seqhw, seqhw)))
        kernel = self.param("kernel", nn.initializers.ones, (4, 4, image.shape[-1]))
        kernel = resample(kernel, patch)
        if train:
            image = image * 2
        pooled = nn.avg_pool(image, patch, strides=patch)
        return np.asarray(pooled)  # error: JAX101


class Head(nnx.Module):
    def __call__(self, x, temperature=None):
        if temperature is not None and temperature > 1:
            x = x / temperature
        if x.sum() > 0:  # error: JAX110
            x = -x
        return x


class Skip(nn.Module):
    @nn.compact
    def __call__(self, x, out_shape):
        if x.shape != out_shape:
            x = nn.Conv(out_shape[-1], (1, 1))(x)
        if x.shape[-1] != out_shape[-1]:
            x = x[..., : out_shape[-1]]
        return x


class RelativePosition(nn.Module):
    @nn.compact
    def __call__(self, qlen, klen, x):
        context = np.arange(qlen)[:, None]
        memory = np.arange(klen)[None, :]
        bucket = np.abs(memory - context)
        return x + np.minimum(bucket, 8) + np.tanh(x)  # error: JAX101


class Modes:
    TRAIN = "train"
    DECODE = "decode"


class AttentionCore(nn.Module):
    def __call__(self, q, k, mode):
        if mode == Modes.DECODE:
            q = q * 2
        if q.sum() > 0:  # error: JAX110
            q = -q
        return q @ k.T


class Attention(nn.Module):
    def setup(self):
        self.core = AttentionCore()

    def __call__(self, x, mode: str = Modes.TRAIN):
        op = AttentionCore()
        y = op(x, x, mode)
        return self.core(y, x, mode)


@jax.jit
def reference(q):
    return q * 2


@jax.jit
def kernel(q):
    cost = reference.lower(q).compile().cost_analysis()
    flops = int(cost["flops"])
    return q + flops


m = Patchify()
variables = m.init(jax.random.key(0), jnp.ones((1, 16, 16, 3)), seqhw=4)
out = jax.jit(m.apply, static_argnames="seqhw")(variables, jnp.ones((1, 16, 16, 3)), seqhw=2)
