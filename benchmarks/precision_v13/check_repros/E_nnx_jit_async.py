"""Rows 39-46 (jimma2-del/learning-rl-jax examples): is a call of `nnx.jit(f, donate_argnames=...)`
with an `nnx.Rngs` argument asynchronous, i.e. does `perf_counter()` right after the call measure
only dispatch? Compares the time to return from the call with the time until the result is ready.
"""

import time

import jax
import jax.numpy as jnp
from flax import nnx


def work(rngs: nnx.Rngs, state: jax.Array, steps: int) -> tuple[jax.Array, jax.Array]:
    noise = jax.random.normal(rngs(), state.shape)

    def body(_: int, s: jax.Array) -> jax.Array:
        return jnp.tanh(s @ s.T @ s * 1e-3 + noise)

    s = jax.lax.fori_loop(0, steps, body, state)
    return s, s.sum()


train = nnx.jit(work, static_argnames=("steps",), donate_argnames=("state",))
rngs = nnx.Rngs(0)
state = jnp.ones((600, 600))
state, m = train(rngs, state, 40)  # compile
jax.block_until_ready((state, m))
for _ in range(3):
    t0 = time.perf_counter()
    state, m = train(rngs, state, 40)
    t_dispatch = time.perf_counter() - t0
    jax.block_until_ready((state, m))
    t_ready = time.perf_counter() - t0
    print(f"return after {t_dispatch * 1e3:.2f} ms, ready after {t_ready * 1e3:.2f} ms")
