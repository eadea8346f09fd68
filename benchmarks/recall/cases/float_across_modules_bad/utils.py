import jax.numpy as jnp


def clip_norm(g, max_norm):
    norm = float(jnp.linalg.norm(g))
    scale = min(1.0, max_norm / (norm + 1e-6))
    return g * scale
