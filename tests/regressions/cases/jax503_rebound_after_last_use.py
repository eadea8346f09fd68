"""JAX503: a module-level rebinding is a hazard only if the jitted reader can run again after it.

Reduced from jax-md notebooks/talk_demo.ipynb (cells 48-52: `elastic_moduli` reads the global
`particle_count`, is called, and a later cell sets `particle_count = 128000` for another
experiment without calling it again) and examples/symmetric_md.py:133-177 (`step_fn` rebound
for the NVT run after the jitted `minimize_step` that read it is done). The marked line is the
true positive kept next to the near miss: `scaled` is called again after `scale` changes.
"""

import jax
import jax.numpy as jnp

particle_count = 128
scale = 2.0


@jax.jit
def total(x):
    return jnp.sum(x[:particle_count])


@jax.jit
def scaled(x):
    return x * scale  # error: JAX503


print(total(jnp.ones(256)), scaled(1.0))

# a later "cell": another experiment
particle_count = 128000
scale = 3.0
print(jnp.zeros(particle_count).shape, scaled(1.0))
