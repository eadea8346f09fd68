"""JAX201: a helper that splits its key and maps a lambda that ignores the parts draws
nothing, so the caller's later `split` of the same key reuses no randomness
(analysis/deadness.py: an argument handed through `jax.vmap(f)(x)` to a parameter `f` never
reads is dead; flow/keys.py: a dead `split` consumes no parameter).

Reduced from wukangmh2022-cmyk/qqt-gpu-sim jax_bomb/jax_env.py:76-78 and its callers
(probe_jax_profile.py:47-48, scripts/quick_check_*.py; v37 check set, FP: JAX201 x7, tuning
material). The marked line is a near miss: a helper whose mapped function reads its key
draws from it, and the caller's `split` then repeats those streams.
"""

import jax
import jax.numpy as jnp


def fresh():
    return jnp.zeros((2,))


def init_batch(key, n):
    keys = jax.random.split(key, n)
    return jax.vmap(lambda _k: fresh())(keys)


def noisy_batch(key, n):
    keys = jax.random.split(key, n)
    return jax.vmap(lambda k: jax.random.normal(k, (2,)))(keys)


def main(n):
    key = jax.random.key(0)
    states = init_batch(key, n)
    key, net_key = jax.random.split(key)
    other = jax.random.key(1)
    noise = noisy_batch(other, n)
    other, sub = jax.random.split(other)  # error: JAX201
    return states, noise, net_key, sub
