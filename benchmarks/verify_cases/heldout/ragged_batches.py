"""Sequence model fed ragged batches: every new length compiles again."""

import jax
import jax.numpy as jnp


@jax.jit
def encode(tokens):
    emb = jnp.sin(tokens[:, None] * jnp.arange(8.0))
    return emb.mean(0)


def encode_all(lengths):
    outs = []
    for n in lengths:
        tokens = jnp.arange(n, dtype=jnp.float32)
        outs.append(encode(tokens))  # sharp: JAX404
    return outs


if __name__ == "__main__":
    encode_all([5, 7, 9, 11, 13])
