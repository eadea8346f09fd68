"""mickyals/jax_research_template src_test/core/test_embeddings.py:612-622, reduced: the test
draws its input from KEY and hands KEY to `init` of an encoding of another module; the fixed
encoding draws nothing there (its module's summary: `drawfree_modules`), so KEY feeds one
draw only. The learned one draws its table from a key flax folds the module's path into (its
module's summary: `linen_modules`; checked with JAX 0.12 and flax: correlation -0.015 and no
KeyReuseError under `jax_debug_key_reuse`), so it is silent too (v22 rows, tuning material:
jax_nbody_emulator, JAX201 medium x309). The near miss: `init`s of two learned modules on KEY
fold in the same path and give the same table."""

import jax
import jax.numpy as jnp
from core.embeddings import LearnedBias, LearnedPosEncoding, SinusoidalPosEncoding

KEY = jax.random.PRNGKey(0)


def test_deterministic_across_calls():
    x = jax.random.normal(KEY, (2, 16, 8))
    enc = SinusoidalPosEncoding(d_model=8)
    variables = enc.init(KEY, x)
    return enc.apply(variables, x)


def test_learned():
    x = jax.random.normal(KEY, (2, 16, 8))
    enc = LearnedPosEncoding(d_model=8)
    variables = enc.init(KEY, x)
    return enc.apply(variables, x)


def build_learned_pair():
    key = jax.random.PRNGKey(1)
    x = jnp.ones((2, 16, 8))
    first = LearnedPosEncoding(d_model=8).init(key, x)
    second = LearnedBias(d_model=8).init(key, x)  # error: JAX201
    return first, second
