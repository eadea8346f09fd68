"""jax-llm-examples: a @jax.tree_util.register_static Config passed to jax.jit (positional, not in
static_argnums) is static: its fields are Python values inside the trace; and a
register_dataclass field with metadata static=True (static_field()) is a Python value too."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


def static_field(val=dataclasses.MISSING):
    return dataclasses.field(default=val, metadata=dict(static=True))


@jax.tree_util.register_static
@dataclasses.dataclass
class Config:
    k: int = 2
    n: int = 8
    prop: float | None = None
    num_layers: int = 4
    shared: int = 1


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class QuantArray:
    quant: jax.Array
    scale: jax.Array
    out_scaling: bool = static_field(False)


@partial(jax.jit, static_argnames=("flag",))
def route(x, flag: bool, cfg: Config):
    w, i = jax.lax.top_k(x, cfg.k)
    ar = jnp.arange(cfg.n)
    return w, i, ar


def forward(x, q: QuantArray, cfg: Config):
    r = cfg.prop or 1.0
    a = int(r * cfg.n // 2)  # int() on a Python float
    z = jnp.zeros(cfg.n // 2 - a) if cfg.n // 2 - a > 0 else jnp.zeros(1)
    assert cfg.n % cfg.k == 0
    y = x[: -cfg.shared]
    if q.out_scaling:
        y = y * 2
    for idx in range(cfg.num_layers):
        if idx < (cfg.num_layers - cfg.shared):
            y = y + 1
    return y.reshape((cfg.k, -1)), z, route(x, False, cfg)


cfg = Config(prop=0.5)
x = jnp.arange(9.0)
q = QuantArray(jnp.ones(3), jnp.ones(3), out_scaling=True)
out = jax.jit(forward, donate_argnums=())(x, q, cfg)
print("ok, no tracer error:", out[0].shape, out[1].shape, out[2][0].shape)
