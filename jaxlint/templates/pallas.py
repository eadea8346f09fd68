"""A minimal Pallas kernel: a blocked, fused `x * scale + y` over a 1-D grid.

Each grid step sees one block of every operand as a Ref, reads with `ref[...]` and writes
its output block in place. `interpret=True` runs the kernel through the interpreter, so it
works on CPU for development and tests; drop it to compile for GPU/TPU.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

BLOCK = 128


def scale_add_kernel(x_ref, y_ref, o_ref, *, scale: float) -> None:
    o_ref[...] = x_ref[...] * scale + y_ref[...]


@partial(jax.jit, static_argnames=("scale", "interpret"))
def scale_add(x: jax.Array, y: jax.Array, scale: float, interpret: bool = True) -> jax.Array:
    assert x.shape == y.shape and x.shape[0] % BLOCK == 0, "pad to a multiple of BLOCK"
    block = pl.BlockSpec((BLOCK,), lambda i: (i,))  # grid index -> block index
    return pl.pallas_call(
        partial(scale_add_kernel, scale=scale),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // BLOCK,),
        in_specs=[block, block],
        out_specs=block,
        interpret=interpret,
    )(x, y)


def main() -> None:
    key_x, key_y = jax.random.split(jax.random.key(0))
    x = jax.random.normal(key_x, (4 * BLOCK,), jnp.float32)
    y = jax.random.normal(key_y, (4 * BLOCK,), jnp.float32)

    out = scale_add(x, y, scale=2.0)
    np.testing.assert_allclose(np.asarray(out), np.asarray(x * 2.0 + y), rtol=1e-6)
    print("pallas kernel matches jnp:", out.shape, out.dtype)


if __name__ == "__main__":
    main()
