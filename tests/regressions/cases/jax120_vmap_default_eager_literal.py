"""A helper with a defaulted size parameter is applied under `jax.vmap` with only its key,
and called eagerly elsewhere with a literal size: under the vmap the size keeps its Python
default, and the eager call's literal is no tracer either, so the shape is concrete (v20 row,
tuning material: RNN-JAX rnn_jax/tests/test_transformers.py:33, `jax.vmap(_make_input)(keys)`
next to `_make_input(KEY, seq_len=1)`, JAX120; analysis/kinds.py `_plain_static_call`; run
with JAX 0.10.2: (1, 4) and (3, 10, 4)). The twins: the size passed through the vmap as a
mapped array (TypeError: shapes must be concrete), and a decorated `@jax.jit` helper whose
direct call passes a literal (jit traces it)."""

import jax
import jax.numpy as jnp
import jax.random as jr

SEQ_LEN = 10


def _make_input(key, seq_len=SEQ_LEN, d_model=4):
    return jr.normal(key, (seq_len, d_model))


def test_shapes():
    k1, k2 = jr.split(jr.PRNGKey(0))
    x = _make_input(k1, seq_len=1)
    xs = jax.vmap(_make_input)(jr.split(k2, 3))
    assert x.shape == (1, 4) and xs.shape == (3, SEQ_LEN, 4)


def _make_input_mapped(key, seq_len=SEQ_LEN, d_model=4):
    return jr.normal(key, (seq_len, d_model))  # error: JAX120


def mapped_twin(key):
    return jax.vmap(_make_input_mapped)(jr.split(key, 3), jnp.array([5, 5, 5]))


@jax.jit
def _make_input_jit(key, seq_len=SEQ_LEN):
    return jr.normal(key, (seq_len, 4))  # error: JAX120


def jit_twin(key):
    return _make_input_jit(key, seq_len=3)
