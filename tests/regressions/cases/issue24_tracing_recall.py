"""Tracing items of issue 24, each a bad program (`# error:`, all confirmed to fail under
jit on JAX 0.12) and its near-miss twin (silent):

- `temperature = temperature or 1.0` on a parameter every caller passes an array, or a
  Python scalar (a jit entry traces it: benchmarks/recall or_default_traced): the `or`
  takes the truth value of a tracer (TracerBoolConversionError); twins: the same default left
  to Python (`static_argnames`), and a caller that passes None (an empty pytree: no tracer).
- `jax.ops.segment_sum` without `num_segments` under jit: the output length is read from
  the traced segment ids; twin: `num_segments` given.
- concrete-size APIs given a traced value: `jnp.split` sections, `lax.top_k` k, `jnp.repeat`
  without `total_repeat_length`, also through a helper; twins: `total_repeat_length`, a
  static count.
- boolean-mask indexing in a helper reached through `jax.value_and_grad(lambda ...)` inside
  jit; twin: `jnp.where` with the mask.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def sample(logits, temperature):
    temperature = temperature or 1.0  # error: JAX110
    return logits / temperature


@jax.jit
def sample_scalar(logits, temperature):
    temperature = temperature or 1.0  # error: JAX110
    return jax.nn.softmax(logits / temperature)


@jax.jit
def sample_maybe(logits, temperature):
    temperature = temperature or 1.0
    return logits / temperature


@jax.jit
def pooled(c, b):
    return jax.ops.segment_sum(c, b), jax.ops.segment_max(c, b, 2)  # error: JAX120


@partial(jax.jit, static_argnames="temperature")
def sample_static(logits, temperature=None):
    temperature = temperature or 1.0
    return logits / temperature


def chunks(x, n):
    return jnp.split(x, n)  # error: JAX120


@jax.jit
def pieces(x, n, k, reps):
    a = jnp.split(x, n)  # error: JAX120
    b = lax.top_k(x, k)  # error: JAX120
    c = jnp.repeat(x, reps)  # error: JAX120
    return a, b, c, chunks(x, n)


@partial(jax.jit, static_argnums=1)
def pieces_ok(x, n, reps):
    return jnp.split(x, n), lax.top_k(x, n), jnp.repeat(x, reps, total_repeat_length=8)


def masked_loss(params, x):
    mask = x > 0
    return jnp.sum(params * x[mask])  # error: JAX130


def where_loss(params, x):
    return jnp.sum(jnp.where(x > 0, params * x, 0.0))


@jax.jit
def step(params, x):
    loss, grads = jax.value_and_grad(lambda p: masked_loss(p, x))(params)
    loss2, _ = jax.value_and_grad(lambda p: where_loss(p, x))(params)
    return loss + loss2, grads


sample(jnp.ones(3), jnp.float32(0.5))
sample_static(jnp.ones(3))
sample_scalar(jnp.arange(3.0), 0.5)
sample_maybe(jnp.arange(3.0), None)
pieces(jnp.ones(8), 2, 3, jnp.array([1, 2]))
pieces_ok(jnp.ones(8), 2, jnp.ones(8, int))
