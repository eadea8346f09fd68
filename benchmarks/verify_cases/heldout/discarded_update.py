"""Masking padded positions with .at[].set whose result is dropped."""

import jax.numpy as jnp


def mask_padding(x, n_valid):
    x.at[n_valid:].set(0.0)  # sharp: JAX504
    return x


if __name__ == "__main__":
    print(mask_padding(jnp.ones(6), 4))
