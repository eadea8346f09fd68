"""jax-llm-examples: Config is @register_static @dataclass; passed as a plain jit argument it is
static metadata (no leaves), so cfg.field is a Python value under jit (top_k k, reshape, if, range)."""

import dataclasses
from functools import partial
import jax, jax.numpy as jnp


@jax.tree_util.register_static
@dataclasses.dataclass
class Config:
    k: int = 2
    n: int = 3


static_field = lambda val=dataclasses.MISSING: dataclasses.field(
    default=val, metadata=dict(static=True)
)


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
    for i in range(cfg.n):
        x = x * 2
    v, i = jax.lax.top_k(x, cfg.k)
    return v, jnp.arange(cfg.n), x.reshape((cfg.n, -1))


print(f(jnp.arange(6.0), Config(), Cache(jnp.zeros(3))))
print(
    f(jnp.arange(6.0), Config(), Cache(jnp.zeros(3)))
)  # second call: cache hit despite unhashable?
