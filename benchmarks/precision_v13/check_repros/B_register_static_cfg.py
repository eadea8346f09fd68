"""Review B (jax-llm-examples): what is static under jit in these models.

Config is ``@jax.tree_util.register_static @dataclasses.dataclass``; passed as a plain (non-static)
jit argument it is pytree metadata with no leaves, so ``cfg.field`` is a Python value under jit
(top_k k, reshape dims, ``if``, ``range``). Dataclass fields marked ``metadata=dict(static=True)``
under ``register_dataclass`` (KVCache.time_axis, QuantArray.out_scaling) are likewise Python values.
The one TP (smallthinker model.py:637) is ``if jnp.any(mask)`` on a mask computed from activations.
"""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_static
@dataclasses.dataclass
class Config:
    k: int = 2
    n: int = 3


def static_field(val=dataclasses.MISSING):
    return dataclasses.field(default=val, metadata=dict(static=True))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Cache:
    buf: jax.Array
    time_axis: int = static_field(2)


@jax.jit
def f(x, cfg: Config, cache: Cache):
    assert cache.time_axis > 0
    if cfg.n > 1:
        x = x + 1
    for _ in range(cfg.n):
        x = x * 2
    v, _ = jax.lax.top_k(x, cfg.k)
    return v, jnp.arange(cfg.n), x.reshape((cfg.n, -1))


@jax.jit
def g(x, cfg: Config):
    _, sel = jax.lax.top_k(x, cfg.k)
    out = jnp.zeros_like(x)
    for i in range(cfg.n):
        mask = sel == i
        if jnp.any(mask):  # smallthinker model.py:637 pattern
            out = out + 1
    return out


print(f(jnp.arange(6.0), Config(), Cache(jnp.zeros(3))))
print(f(jnp.arange(6.0), Config(), Cache(jnp.zeros(3))))
try:
    g(jnp.arange(6.0), Config())
    print("g: no error")
except jax.errors.TracerBoolConversionError:
    print("g: TracerBoolConversionError (TP)")
