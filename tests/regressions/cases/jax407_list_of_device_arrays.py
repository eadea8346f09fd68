"""`jnp.asarray` of a Python list whose elements are JAX arrays stacks them on the device: no
host-to-device copy (dm_pix `_src/augment.py:247`, `jnp.asarray(meshgrid)` with `meshgrid =
list(jnp.meshgrid(...))`; checked under `jax.transfer_guard("disallow")`). The twin: a list
of Python numbers in the same loop is host data and still fires.
"""

import jax.numpy as jnp


def warp(image, shift):
    meshgrid = list(jnp.meshgrid(jnp.arange(8), jnp.arange(8), indexing="ij"))
    meshgrid[0] += shift
    return jnp.concatenate(
        [image[..., c] + jnp.asarray(meshgrid).sum(0) for c in range(image.shape[-1])]
    )


def stacked(image):
    parts = [jnp.zeros(8), jnp.ones(8)]
    return [image[..., c] + jnp.asarray(parts) for c in range(image.shape[-1])]


def host_list(image):
    rows = [[1.0, 2.0], [3.0, 4.0]]
    return [image[..., c] + jnp.asarray(rows) for c in range(image.shape[-1])]  # error: JAX407
