"""From jax-llm-examples (v13 JAX110/JAX111/JAX120):
- a class decorated `@jax.tree_util.register_static` (directly, or through a decorator of the
  module that applies it, `jax_static = lambda cls: tree_util.register_static(...)`) is a
  pytree with no leaves: its fields are Python values under jit (`cfg.moe_num_experts`).
The twin: a config registered as a pytree dataclass (`register_dataclass`) passed to jit: its
fields are leaves, traced. (A plain `dataclasses.dataclass` is no pytree at all: jit raises
TypeError on it, so its fields are of unknown kind and stay silent.)"""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
from jax import tree_util

jax_static = lambda cls: tree_util.register_static(dataclasses.dataclass(cls))  # noqa: E731
static_field = lambda val=dataclasses.MISSING: dataclasses.field(  # noqa: E731
    default=val, metadata=dict(static=True)
)


@jax_static
class Config:
    num_experts: int
    top_k: int


@jax.tree_util.register_static
@dataclasses.dataclass
class Sizes:
    embed: int


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class QuantArray:
    quant: jax.Array
    scale: jax.Array
    out_scaling: bool = static_field(False)


def einsum(lhs: jax.Array, rhs: jax.Array | QuantArray):
    if isinstance(rhs, QuantArray):
        if rhs.out_scaling:
            return lhs * rhs.quant * rhs.scale
        return lhs * rhs.quant
    return lhs * rhs


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Layer:
    w: jax.Array | QuantArray


@jax.jit
def ffn(x, cfg: Config, sizes: Sizes, layer: Layer):
    _, chosen = jax.lax.top_k(x, k=cfg.top_k)
    out = jnp.zeros(sizes.embed)
    for i in range(cfg.num_experts):
        out = out + einsum(x, layer.w)[i]
    return out, chosen


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class PlainConfig:
    top_k: int


@partial(jax.jit, static_argnames=("unused",))
def plain(x, cfg: PlainConfig, block, unused=None):
    _, chosen = jax.lax.top_k(x, k=cfg.top_k)  # error: JAX120
    return jnp.zeros(block), chosen  # error: JAX120
