"""Settles nucleotide_transformer_v3/model.py:1031 (JAX111, TP).

`assert species_tokens.min() >= k` in an nnx Module's __call__ runs eagerly but raises
TracerBoolConversionError as soon as the module is applied under nnx.jit.
Run: JAX_PLATFORMS=cpu python tp_jax111_nnx_assert.py
"""

import jax.numpy as jnp
from flax import nnx


class M(nnx.Module):
    def __call__(self, tokens, species_tokens):
        assert species_tokens.min() >= 2, "no special tokens"
        return tokens * 2


m = M()
print("eager:", m(jnp.ones(3), jnp.array([3, 4])))
try:
    nnx.jit(lambda m, t, s: m(t, s))(m, jnp.ones(3), jnp.array([3, 4]))
    print("under nnx.jit: no error")
except Exception as e:  # noqa: BLE001
    print("under nnx.jit:", type(e).__name__)
