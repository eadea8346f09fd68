"""Reduction of F2 (bonsai sam2 model_sam2_transforms.py:31): here jaxlint at 330b186 even offers
a SAFE fix (`[*]`, np.zeros_like -> jnp.zeros_like) on `m`, a host NumPy array: `np.array(tracer)`
never returns a tracer (under jit it raises; eagerly it returns an ndarray).

Expected after the fix: no finding in `helper`; the JAX101 on `np.array(masks)` stays."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def helper(mask):
    m = mask + 1
    return np.zeros_like(m)


@partial(jax.jit, static_argnames=["flag"])
def post(masks, *, flag=False):
    if flag:
        masks_np = np.array(masks)
        return helper(masks_np[0])
    return masks


if __name__ == "__main__":
    print(post(jnp.ones((2, 3))).shape)
    print(helper(np.array(jnp.ones((2, 3)))[0]).shape)
