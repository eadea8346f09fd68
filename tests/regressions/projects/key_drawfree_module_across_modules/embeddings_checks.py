"""mickyals/jax_research_template src_test/core/test_embeddings.py:612-622, reduced: the test
draws its input from KEY and hands KEY to `init` of an encoding of another module; the fixed
encoding draws nothing there (its module's summary: `drawfree_modules`), so KEY feeds one
draw only. The learned one draws its table from KEY: a real reuse."""

import jax
from core.embeddings import LearnedPosEncoding, SinusoidalPosEncoding

KEY = jax.random.PRNGKey(0)


def test_deterministic_across_calls():
    x = jax.random.normal(KEY, (2, 16, 8))
    enc = SinusoidalPosEncoding(d_model=8)
    variables = enc.init(KEY, x)
    return enc.apply(variables, x)


def test_learned():
    x = jax.random.normal(KEY, (2, 16, 8))
    enc = LearnedPosEncoding(d_model=8)
    variables = enc.init(KEY, x)  # error: JAX201
    return enc.apply(variables, x)
