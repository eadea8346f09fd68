"""`np.array(x)` of a traced value never yields a tracer: under jit it raises (that line is the
finding), eagerly it returns a NumPy array; what a host helper and scipy compute from it is
NumPy and Python (bonsai models/sam2/model_sam2_transforms.py:31/32/41/42). The marked line is
the true positive.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from scipy.ndimage import label as cc_label


def postprocess_mask_numpy(mask, threshold, max_hole_area):
    filled = mask.copy()
    if max_hole_area > 0:
        labels, num = cc_label((mask <= threshold).astype(np.uint8))
        areas = np.zeros_like(labels, dtype=np.float32)
        for lab in range(1, num + 1):
            areas[labels == lab] = (labels == lab).sum()
        filled[(labels > 0) & (areas <= max_hole_area)] = threshold + 10.0
    return filled


class Transforms:
    def __init__(self, threshold: float, max_hole_area: float = 0.0):
        self.threshold = threshold
        self.max_hole_area = max_hole_area

    @partial(jax.jit, static_argnames=["self", "do_postprocess"])
    def postprocess(self, masks, *, do_postprocess: bool = False):
        if do_postprocess:
            masks_np = np.array(masks)  # error: JAX101
            for b in range(masks_np.shape[0]):
                masks_np[b] = postprocess_mask_numpy(
                    masks_np[b], self.threshold, self.max_hole_area
                )
            masks = jnp.array(masks_np)
        return masks * 2.0
