"""Settles model_jit.py rows: traced linear_key_head_dim (argnum 3 not static) and array static args."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(2, 4))
def f(x, kh, nk, conv_state=None, idx=None):
    key_dim = nk * kh
    return x[:, :key_dim].reshape(x.shape[0], nk, kh)


x = jnp.ones((2, 8))
try:
    f(x, 4, 2, None, 0)
    print("traced head dim: ok")
except Exception as e:
    print("traced head dim:", type(e).__name__)


@partial(jax.jit, static_argnums=(1,))
def g(x, conv_state):
    return x


try:
    g(x, jnp.ones(3))
    print("array static: ok")
except Exception as e:
    print("array static:", type(e).__name__, str(e)[:120])
