"""Code under `if flag:` where `flag` defaults to False and no call of the function passes
it never runs from those calls: no per-step key use, no per-step conversion there (bonsai
models/sam2/tests/SAM2_image_predictor_example.ipynb cell 9, `show_mask(mask, ax, *,
random_color=False)`). The `else` arm runs every step (true positive); the twin's caller
turns the flag on.
"""

import jax
import jax.numpy as jnp

key = jax.random.key(3)


def show_mask(mask, *, random_color=False):
    if random_color:
        rgb = jax.random.uniform(key, (3,))
        color = jnp.concatenate([rgb, jnp.array([0.6])])
    else:
        color = jnp.array([30 / 255, 144 / 255, 1.0, 0.6])  # error: JAX407
    return mask[..., None] * color


def show_masks(masks):
    for mask in masks:
        show_mask(mask)


def show_mask_twin(mask, *, random_color=False):
    if random_color:
        rgb = jax.random.uniform(key, (3,))  # error: JAX209
        return mask[..., None] * rgb
    return mask


def show_masks_twin(masks):
    for mask in masks:
        show_mask_twin(mask, random_color=True)


def show_mask_rebound(mask, *, random_color=False, cfg=None):
    random_color = random_color or cfg.random_color
    if random_color:
        rgb = jax.random.uniform(key, (3,))  # error: JAX209
        return mask[..., None] * rgb
    return mask


def show_masks_rebound(masks, cfg):
    for mask in masks:
        show_mask_rebound(mask, cfg=cfg)
