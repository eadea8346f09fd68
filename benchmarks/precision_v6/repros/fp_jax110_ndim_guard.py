"""FP (preview JAX110), kauldron contrib/metrics/segmentation_tracking.py:170.

`j = 1 if jnp.isclose(union, 0) else j` sits under `if j.ndim == 0:`. The only call maps
db_eval_iou over the class axis of (T, H, W, C) masks, so per element j has shape (T,) and the
branch is dead: the program runs under vmap. Twin: (H, W, C) masks make j 0-d and the branch
raises TracerBoolConversionError, which is what the rule describes.
Run: JAX_PLATFORMS=cpu python fp_jax110_ndim_guard.py
"""

import jax
import jax.numpy as jnp


def iou(a, b):
    inter = jnp.sum(a & b, axis=(-2, -1))
    union = jnp.sum(a | b, axis=(-2, -1))
    j = inter / union
    if j.ndim == 0:
        j = 1 if jnp.isclose(union, 0) else j
    else:
        j = jnp.where(jnp.isclose(union, 0), 1, j)
    return j


m = jnp.ones((3, 4, 5, 2), bool)
print("corpus shapes (T,H,W,C):", jax.vmap(iou, in_axes=(-1, -1))(m, m).shape)
try:
    jax.vmap(iou, in_axes=(-1, -1))(m[0], m[0])
    print("twin: no error")
except jax.errors.TracerBoolConversionError:
    print("twin (H,W,C): TracerBoolConversionError, as the rule says")
