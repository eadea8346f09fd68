"""jax/experimental/pallas/ops/tpu/flash_attention.py:901 (JAX502): Pallas kernels write into
mutable refs (`dv_scratch_ref[:] = ...`) from `fori_loop` bodies; that is the kernel idiom,
not a leaked tracer."""

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref, dv_scratch_ref):
    def body(i, carry):
        dv = carry + x_ref[i]
        dv_scratch_ref[:] = dv
        return dv

    o_ref[...] = jax.lax.fori_loop(0, 4, body, jnp.zeros(8))


def run(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8,), x.dtype))(x)
