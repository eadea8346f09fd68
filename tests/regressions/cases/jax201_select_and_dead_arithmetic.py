"""Two draws from one key whose values reach only the two operands of one `jnp.where`, through
names and arithmetic, give every element from one draw only; a draw scaled and then
overwritten before any read is dead (v18 rows, tuning material: seqjax
model/stochastic_vol/jump_vol.py:179-182, flowMC resource/kernel/HMC.py:130-136, JAX201;
`KeyFlow._select_operand`, `_through_pure_calls` through arithmetic). The twins: a draw also
used outside the selection, and a scaled draw that is read."""

import jax
import jax.numpy as jnp


def log_return(key, is_jump, scale):
    t_draw = jax.random.t(key, df=3.0) * scale
    jump_draw = jax.random.normal(key) * scale * 4.0
    return jnp.where(is_jump, jump_draw, t_draw)


def log_return_twin(key, is_jump, scale):
    t_draw = jax.random.t(key, df=3.0) * scale
    jump_draw = jax.random.normal(key) * scale * 4.0  # error: JAX201
    return jnp.where(is_jump, jump_draw, t_draw) + t_draw


def momentum(key, shape, cond):
    p: jax.Array = jax.random.normal(key, shape=shape) * cond**-0.5
    p = jnp.dot(jax.random.normal(key, shape=shape), jnp.linalg.cholesky(cond).T)
    return p


def momentum_twin(key, shape, cond):
    p = jax.random.normal(key, shape=shape) * cond**-0.5
    q = jnp.dot(jax.random.normal(key, shape=shape), jnp.linalg.cholesky(cond).T)  # error: JAX201
    return p + q
