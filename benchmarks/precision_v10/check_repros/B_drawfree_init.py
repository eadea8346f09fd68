"""Settle JAX201/JAX209 rows on mickyals/jax_research_template: which `init` calls draw from the key.

An init whose variables are the same for two different keys draws nothing from its key, so the
"key consumed twice" claim (input from `normal(key)`, then `init(key)`) is wrong for it.
Run: JAX_PLATFORMS=cpu /work/venv/bin/python B_drawfree_init.py
"""

import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, "/work/precision-v10/repos/mickyals+jax_research_template/src")

from core.embeddings import (  # noqa: E402
    LearnedPosEncoding,
    LearnedPosEncoding2D,
    SinusoidalPosEncoding,
    get_embedding,
)
from core.nets.mlp import SIREN, CombinedEmbedding, LatLonEmbeddingWrapper  # noqa: E402
from core.norms import get_norm  # noqa: E402


def same_for_two_keys(module, x, **kw) -> bool:
    """True when init gives identical variables for PRNGKey(0) and PRNGKey(1): no draw."""
    v0 = module.init(jax.random.PRNGKey(0), x, **kw)
    v1 = module.init(jax.random.PRNGKey(1), x, **kw)
    l0, l1 = jax.tree_util.tree_leaves(v0), jax.tree_util.tree_leaves(v1)
    return len(l0) == len(l1) and all(bool(jnp.array_equal(a, b)) for a, b in zip(l0, l1))


B = 16
x2 = jnp.ones((B, 2))
x3 = jnp.ones((B, 3))
x4 = jnp.ones((B, 4))
cases = {
    "test_mlp:513 LatLon(SPHERE_GRID)": (
        LatLonEmbeddingWrapper(embedding=get_embedding("SPHERE_GRID", scale=8, r_min=0.01)),
        x2,
    ),
    "test_mlp:530 Combined(SPHERE_GRID, GENERAL_POSITIONAL)": (
        CombinedEmbedding(
            spatial_dim=2,
            spatial_embedding=LatLonEmbeddingWrapper(
                embedding=get_embedding("SPHERE_GRID", scale=8, r_min=0.01)
            ),
            time_embedding=get_embedding(
                "GENERAL_POSITIONAL", input_dim=1, mapping_dim=16, scale=2.0
            ),
        ),
        x3,
    ),
    "test_mlp:545 Combined(SPHERE_GRID, raw)": (
        CombinedEmbedding(
            spatial_dim=2,
            spatial_embedding=LatLonEmbeddingWrapper(
                embedding=get_embedding("SPHERE_GRID", scale=8, r_min=0.01)
            ),
        ),
        x3,
    ),
    "test_mlp:554 Combined(raw, raw)": (CombinedEmbedding(spatial_dim=2), x4),
    "test_mlp:576 SIREN+GAUSSIAN_POSITIONAL": (
        SIREN(
            out_features=2,
            hidden_features=32,
            n_layers=3,
            embedding=get_embedding("GAUSSIAN_POSITIONAL", input_dim=4, mapping_dim=32, scale=10.0),
        ),
        x4,
    ),
    "test_embeddings:614 SinusoidalPosEncoding": (
        SinusoidalPosEncoding(d_model=32),
        jnp.ones((2, 8, 32)),
    ),
    "test_embeddings:738 LearnedPosEncoding": (
        LearnedPosEncoding(num_tokens=8, embed_dim=32),
        jnp.ones((2, 8, 32)),
    ),
    "test_embeddings:843 LearnedPosEncoding2D": (
        LearnedPosEncoding2D(height=4, width=4, embed_dim=32),
        jnp.ones((2, 4, 4, 32)),
    ),
}
for name, (mod, x) in cases.items():
    print(f"{name}: draws nothing = {same_for_two_keys(mod, x)}")
for nm, kw in [
    ("BATCH_NORM", {}),
    ("LAYER_NORM", {}),
    ("GROUP_NORM", {"num_groups": 8}),
    ("INSTANCE_NORM", {}),
    ("RMS_NORM", {}),
]:
    extra = {"train": True} if nm == "BATCH_NORM" else {}
    print(
        f"test_norms apply_norm {nm}: draws nothing = {same_for_two_keys(get_norm(nm, **kw), jnp.ones((8, 4, 4, 32)), **extra)}"
    )
try:
    CombinedEmbedding(spatial_dim=5).init(jax.random.PRNGKey(0), x3)
except ValueError as e:
    print("test_mlp:563 Combined(spatial_dim=5).init raises before any draw:", e)
