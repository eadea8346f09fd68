"""Minimal reproducible example for a JAX bug report.

Fill in `f` with the smallest code that still shows the problem, keep the
shapes and dtypes explicit, and paste the whole output (versions included).
"""

import jax
import jax.numpy as jnp
import numpy as np


def f(x: jax.Array, w: jax.Array) -> jax.Array:
    # Replace with the code that misbehaves.
    return jnp.tanh(x @ w).sum(axis=-1)


def main() -> None:
    jax.print_environment_info()  # jax, jaxlib, numpy, python, devices

    # Typed keys (jax.random.key), one split per draw: no reuse.
    key = jax.random.key(0)
    key_x, key_w = jax.random.split(key)
    x = jax.random.normal(key_x, (4, 8), dtype=jnp.float32)
    w = jax.random.normal(key_w, (8, 3), dtype=jnp.float32)

    expected = f(x, w)  # eager reference
    got = jax.jit(f)(x, w)  # the transformation under suspicion

    print("x:", x.shape, x.dtype, "w:", w.shape, w.dtype)
    print("expected:", expected)
    print("got:     ", got)
    # State what you expected; the assertion is the bug report.
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5, atol=1e-5)


if __name__ == "__main__":
    main()
