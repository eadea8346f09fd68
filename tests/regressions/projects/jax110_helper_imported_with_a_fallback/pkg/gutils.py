"""A helper that pads a sequence and returns its original length, `x.shape[axis]`, a Python
int (v41 leonalav/valkyrie `codebase/src/model/gryphon/gryphon_utils.py:13-39`)."""

import jax.numpy as jnp


def pad_to_block_size(x, block_size, axis=1):
    seq_len = x.shape[axis]
    if seq_len % block_size == 0:
        return x, seq_len
    pad_spec = [(0, 0)] * x.ndim
    pad_spec[axis] = (0, block_size - seq_len % block_size)
    return jnp.pad(x, pad_spec), seq_len


def scaled(x, k):
    return x * k, jnp.sum(x)
