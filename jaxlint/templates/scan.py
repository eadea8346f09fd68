"""Carry-state loops: `lax.scan` (per-step outputs) and `lax.fori_loop` (final state only).

A Python `for` loop inside jit is unrolled: trace and compile time grow with the trip count.
`scan`/`fori_loop` trace the body once. The body is a pure function of (carry, x) and the
carry keeps the same shapes and dtypes on every step.
"""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def ema_scan(xs: jax.Array, decay: jax.Array) -> tuple[jax.Array, jax.Array]:
    def body(avg, x):
        avg = decay * avg + (1.0 - decay) * x
        return avg, avg  # (new carry, output stacked along axis 0)

    return jax.lax.scan(body, jnp.zeros_like(xs[0]), xs)


@jax.jit
def ema_fori(xs: jax.Array, decay: jax.Array) -> jax.Array:
    def body(i, avg):
        return decay * avg + (1.0 - decay) * xs[i]

    return jax.lax.fori_loop(0, xs.shape[0], body, jnp.zeros_like(xs[0]))


@jax.jit
def random_walk(key: jax.Array, start: jax.Array) -> jax.Array:
    # One key per step, split up front and scanned over: never reuse a key in the body.
    keys = jax.random.split(key, 100)

    def body(pos, step_key):
        pos = pos + jax.random.normal(step_key, pos.shape, pos.dtype)
        return pos, pos

    _, path = jax.lax.scan(body, start, keys)
    return path


def main() -> None:
    key = jax.random.key(0)
    key_xs, key_walk = jax.random.split(key)
    xs = jax.random.normal(key_xs, (500, 3), jnp.float32)
    decay = jnp.float32(0.9)

    final, history = ema_scan(xs, decay)
    final_fori = ema_fori(xs, decay)

    # Host reference, outside any transformation.
    ref = np.zeros(3, np.float32)
    for x in np.asarray(xs):
        ref = np.float32(0.9) * ref + np.float32(0.1) * x
    np.testing.assert_allclose(np.asarray(final), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(final_fori), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(history[-1]), np.asarray(final))
    assert history.shape == xs.shape

    path = random_walk(key_walk, jnp.zeros((2,), jnp.float32))
    assert path.shape == (100, 2)
    steps = np.diff(np.asarray(path), axis=0)
    assert len(np.unique(steps[:, 0])) == steps.shape[0]  # every step drew fresh noise
    print("scan == fori_loop == reference:", np.asarray(final))


if __name__ == "__main__":
    main()
