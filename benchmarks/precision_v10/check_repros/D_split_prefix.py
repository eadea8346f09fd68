"""jax_rtrl example_datasets.py:74-75: permutation(key) then split(key, 1); wirings.py:67/73 two bernoulli(key)."""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)
print(
    "split(k,1)[0] == split(k,2)[0]:",
    bool((jax.random.split(key, 1)[0] == jax.random.split(key, 2)[0]).all()),
)
a = jax.random.bernoulli(key, 0.7, shape=(3, 4))
b = jax.random.bernoulli(key, 0.7, shape=(6, 3))
print("bernoulli prefix equal:", bool((a.ravel() == b.ravel()[:12]).all()))
u1 = jax.random.uniform(key, (3, 4)).ravel()
u2 = jax.random.uniform(key, (6, 3)).ravel()[:12]
print("uniform prefix equal:", bool((u1 == u2).all()))
# genjax-chi adev_example.py:253/324 (split(k, 1000) then split(k)) and :506/746 (split(k, 3) then split(k)).
print(
    "split(k,2) == split(k,1000)[:2]:",
    bool((jax.random.split(key, 2) == jax.random.split(key, 1000)[:2]).all()),
)
print(
    "split(k,2) == split(k,3)[:2]:",
    bool((jax.random.split(key, 2) == jax.random.split(key, 3)[:2]).all()),
)
# jax_rtrl autoencoders.py:548/550 and jax-noprop concatsquash.py:101-103: normal(key, a) and normal(key, b).
n1 = jax.random.normal(key, (32, 32, 1)).ravel()[:3]
n2 = jax.random.normal(key, (3,))
print("normal prefix equal:", bool(jnp.allclose(n1, n2)))
