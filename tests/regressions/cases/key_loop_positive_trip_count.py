"""A loop with a proven positive trip count runs at least once (genjax-chi
docs/cookbook/inactive/differentiation/adev_example.py:382): `for _ in range(EPOCHS)` with
`EPOCHS = 400` rebinds `key` on every step, so the key after the loop is the last step's,
not the one consumed before it; only the path that skips the loop would pair them. The near
miss loops `range(n)` with an unknown `n`, which may be 0: the key drawn from before the loop
is then drawn from again after it."""

import jax

EPOCHS = 400


def train(key):
    noise = jax.random.normal(key, (3,))
    for step in range(EPOCHS):
        key = jax.random.key(step)
    return noise + jax.random.normal(key, (3,))


def literal(key):
    noise = jax.random.normal(key, (3,))
    for step in [1, 2]:
        key = jax.random.key(step)
    return noise + jax.random.normal(key, (3,))


def maybe_empty(key, n):
    noise = jax.random.normal(key, (3,))
    for step in range(n):
        key = jax.random.key(step)
    return noise + jax.random.normal(key, (3,))  # error: JAX201
