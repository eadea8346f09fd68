"""Checks behind the tuning-half verdicts of precision v4 (run: /work/venv/bin/python benchmarks/precision_v4/tools/verify.py)."""

import jax
import jax.numpy as jnp

k = jax.random.PRNGKey(0)
# exponax notebook: scalar then (2,) from one key
a = jax.random.uniform(k, (), minval=-1.0, maxval=1.0)
b = jax.random.uniform(k, (2,), minval=-1.0, maxval=1.0)
print("exponax scalar vs (2,)[0]:", float(a), b.tolist())
# test_viz: (64,) vs (1,64,64)
x1 = jax.random.normal(k, (64,))
x3 = jax.random.normal(k, (1, 64, 64))
print(
    "test_viz leading equal:", bool((x3.reshape(-1)[:64] == x1).all()), bool((x3[0, 0] == x1).all())
)
# swin: bernoulli with different shapes
m1 = jax.random.bernoulli(k, 0.9, (4, 8))
m2 = jax.random.bernoulli(k, 0.9, (2, 8))
print("swin bernoulli prefix equal:", bool((m1.reshape(-1)[:16] == m2.reshape(-1)).all()))
# dopamine randint same key different ranges
t = jax.random.randint(k, (8,), 0, 1000)
bb = jax.random.randint(k, (8,), 0, 4)
print("dopamine randint:", t.tolist(), bb.tolist(), (t % 4).tolist())


# umt5 fp16_clamp under jit
def fp16_clamp(x):
    if x.dtype == jnp.float16 and jnp.isinf(x).any():
        clamp = jnp.finfo(x.dtype).max - 1000
        x = jax.lax.clamp(x=x, min=-clamp, max=clamp)
    return x


print("umt5 f32 jit ok:", jax.jit(fp16_clamp)(jnp.ones(2)).dtype)
try:
    jax.jit(fp16_clamp)(jnp.ones(2, jnp.float16))
    print("umt5 f16 jit: no error")
except Exception as e:
    print("umt5 f16 jit:", type(e).__name__)
# dopamine b_indices item assignment on a jax array
bi = jax.random.randint(k, (4,), 0, 3)
try:
    bi[0] = 1
except TypeError:
    print("dopamine b_indices[i] = ...: TypeError")
# probdiffeq: split(k, n)[1] == split(k, 2)[1]
print(
    "probdiffeq split child equal:",
    bool((jax.random.split(k, 7)[1] == jax.random.split(k, 2)[1]).all()),
)
# probdiffeq E1: normal(key,(2,)) then split(key)
print("E1 bits vs split:", jax.random.bits(k, (2,)).tolist(), jax.random.split(k)[0].tolist())
# x64
print("jnp.float64(3.14):", repr(jnp.float64(3.14)), jnp.float64(3.14).dtype)
print("int64 iota:", jax.lax.broadcasted_iota(jnp.int64, (2, 3), 1).dtype)
