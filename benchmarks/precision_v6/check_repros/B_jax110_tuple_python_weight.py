"""jax3d generative/nerf */loss.py: `loss, weight = losses.reconstruction(...)` returns (jnp.mean(...), weight)
where `weight` is the function's Python-float default (gin-configured, losses.py:87, 115); `if weight != 0.0`
under jit/pmap is a Python bool, no TracerBoolConversionError."""

import jax
import jax.numpy as jnp


def reconstruction(ground_truth, predicted, mask=None, weight: float = 1.0):
    loss = jnp.mean((ground_truth - predicted) ** 2)
    return loss, weight


@jax.jit
def loss_fn(gt, pred):
    total = 0.0
    reconstruction_loss, reconstruction_loss_weight = reconstruction(gt, pred)
    if reconstruction_loss_weight != 0.0:
        total += reconstruction_loss * reconstruction_loss_weight
    return total


print("jit ok:", loss_fn(jnp.ones(3), jnp.zeros(3)))
print("pmap ok:", jax.pmap(loss_fn)(jnp.ones((1, 3)), jnp.zeros((1, 3))))
