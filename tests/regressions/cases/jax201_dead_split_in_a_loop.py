"""A split in a loop whose keys nothing reads repeats no numbers anyone sees: the key it
"consumes" each step correlates nothing (`KeyFlow._dead_draw`, now asked of a loop's repeat
too, not only of a key consumed twice).

From the v38 check set (tuning material, read in context): mo-rsa24/superdiff-ldm
`utils/viz.py:32` and `:129`: `_, *subkeys = random.split(key, 3)` in a plotting loop, the
parts never used (JAX201 on the split); the draw beside it, `random.normal(key, shape)` each
step, is the real repeat and stays reported (every step plots the same noise).
"""

from jax import random


def plot_steps(key, shape, n):
    out = []
    for i in range(n):
        _, *subkeys = random.split(key, 3)
        noise = random.normal(key, shape=shape)  # error: JAX201
        out.append(noise * i)
    return out


def plot_steps_used(key, shape, n):
    out = []
    for _ in range(n):
        _, *subkeys = random.split(key, 3)  # error: JAX201
        out.append(random.normal(subkeys[0], shape=shape))
    return out
