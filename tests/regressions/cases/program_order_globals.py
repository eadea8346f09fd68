"""JAX503 and program order (issue 13, "program order").

Reduced from jax-md examples/equivariant_neural_networks.py:331/415: `params` is rebound by a
training loop (calling another jitted function), then the jitted reader is defined: it can
never see a stale value. A rebinding after the reader is defined and called is the hazard.
"""

import jax
import jax.numpy as jnp


@jax.jit
def update(p):
    return p - 0.1 * p


params = jnp.ones(3)
for _ in range(3):
    params = update(params)


@jax.jit
def eval_energy_fn(x):
    return jnp.dot(params, x)


scale = 2.0


@jax.jit
def scaled(x):
    return x * scale  # error: JAX503


print(eval_energy_fn(jnp.ones(3)), scaled(1.0))
scale = 3.0
print(scaled(1.0))
