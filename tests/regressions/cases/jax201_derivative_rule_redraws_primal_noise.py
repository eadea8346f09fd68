"""A custom derivative rule that calls its primal function and draws from the same key again
recomputes the primal's noise on purpose: the derivative of `image + sqrt(image) * n` needs
the same `n` (`differentiation.derivative_rule_of`, asked by `KeyFlow._recomputes_primal`).
The twin, an ordinary function that does the same, stays reported.

From the v39 check set (read once, tuning material since): chromatix-team/chromatix
`src/chromatix/ops/noise.py:30`: `approximate_shot_noise(key, image)` then
`random.normal(key, image.shape)` in the function's `defjvp` rule (JAX201 high, read FP:
splitting the key there would make the gradient wrong).
"""

import jax.numpy as jnp
from jax import custom_jvp, random


@custom_jvp
def shot_noise(key, image):
    return jnp.maximum(image + jnp.sqrt(image) * random.normal(key, image.shape), 0.0)


@shot_noise.defjvp
def shot_noise_jvp(primals, tangents):
    key, image = primals
    _, image_dot = tangents
    primal_out = shot_noise(key, image)
    noise_grad = 1.0 + random.normal(key, image.shape) / (2 * jnp.sqrt(image) + 1e-6)
    return primal_out, image_dot * noise_grad * (primal_out != 0)


def noisy_pair(key, image):
    first = shot_noise(key, image)
    second = image + random.normal(key, image.shape)  # error: JAX201
    return first, second
