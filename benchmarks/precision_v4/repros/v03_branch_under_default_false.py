"""bonsai bonsai/models/sam2/tests/SAM2_image_predictor_example.ipynb cell 9 lines 6 and 7
(JAX209, JAX407): the key use and the list conversion sit under `if random_color:`; the
parameter defaults to False and the only caller (a loop) never passes it, so neither runs there.

Expected after the fix: no JAX209 and no JAX407 on `jnp.array([0.6])`; the JAX407 on the constant
color of the `else` branch (converted once per mask in the loop) stays: it is a true positive."""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(3)


def show_mask(mask, *, random_color=False):
    if random_color:
        rgb = jax.random.uniform(key, (3,))
        color = jnp.concatenate([rgb, jnp.array([0.6])])
    else:
        color = jnp.array([30 / 255, 144 / 255, 1.0, 0.6])
    return mask[..., None] * color


def show_masks(masks):
    for mask in masks:
        show_mask(mask)


show_masks([jnp.ones((2, 2)), jnp.zeros((2, 2))])
