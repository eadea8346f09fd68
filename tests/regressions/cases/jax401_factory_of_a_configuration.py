"""A jitted function built per step from a factory whose argument the step varies and the
factory's closure uses as structure is a different program every step: nothing to hoist
(mbirjax_plans vmap_lax_map_demo.py:374, `for offsets in [[0], [-1], [1], [-1, 0, 1]]:
jax.jit(jax.vmap(_make_fwd(offsets)))(angles)`, with `for no in offsets:` in the closure).
The twin's factory argument is the same every step: the jit could be built once."""

import jax
import jax.numpy as jnp


def _make_fwd(offsets):
    def fwd(angle):
        out = jnp.zeros(4)
        for no in offsets:
            out = out + jnp.roll(jnp.full(4, angle), no)
        return out

    return fwd


def compare(angles):
    for offsets in [[0], [-1], [1], [-1, 0, 1]]:
        out = jax.jit(jax.vmap(_make_fwd(offsets)))(angles)
        print(float(jnp.abs(out).max()))


def repeat(angles, offsets):
    for _ in range(10):
        out = jax.jit(jax.vmap(_make_fwd(offsets)))(angles)  # error: JAX401
        print(float(jnp.abs(out).max()))
