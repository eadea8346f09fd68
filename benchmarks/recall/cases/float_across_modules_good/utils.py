import jax.numpy as jnp


def clip_norm(g, max_norm):
    norm = jnp.linalg.norm(g)
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return g * scale
