"""Good tests of equinox-style internals: notes at most, never failures."""

import good_prims as lib
import jax
import jax.numpy as jnp


def test_wrapper_per_function():
    x = jnp.ones(3)
    lib.add_one(x), lib.add_two(x), lib.add_three(x)
    for scale in range(3):  # a test defining its own decorated `f` per case

        @lib.my_jit
        def f(v, scale=scale):
            return v * scale

        f(x)


def test_lowering_rule():
    # four jitted functions of one shape use the primitive: its lowering rule is traced for each
    x = jnp.ones(3)
    jax.jit(lambda v: lib.double(v) + 1)(x)
    jax.jit(lambda v: lib.double(v) + 2)(x)
    jax.jit(lambda v: lib.double(v) * 3)(x)
    jax.jit(lambda v: lib.double(v) * 4)(x)


def test_checker_breaks():
    assert lib.tag(jnp.ones(3)).shape == (3,)
