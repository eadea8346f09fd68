"""A check written for concrete values only, behind a tracer test in the same `and`:
`not contains_tracer(t) and bool(jnp.any(t < 0))` never evaluates its second operand under
jit (inside jit `jnp.asarray(t)` is a tracer, so the first operand is False). v15 rows,
tuning material: honglu2875/jaxml src/jaxml/_generate.py:107 and :311, JAX101, which the
staging fact (a jnp call inside jit is a tracer) would otherwise report. The twin has no
guard."""

import jax
import jax.numpy as jnp


def contains_tracer(x):
    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(x))


@jax.jit
def validate(tokens):
    tokens = jnp.asarray(tokens)
    if not contains_tracer(tokens) and bool(jnp.any(tokens < 0)):
        raise ValueError("negative token id")
    return tokens


@jax.jit
def validate_unguarded(tokens):
    tokens = jnp.asarray(tokens)
    if bool(jnp.any(tokens < 0)):  # error: JAX101
        raise ValueError("negative token id")
    return tokens
