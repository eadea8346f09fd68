"""slimpletic-jax figures/double_damped_pendulum.py: imports the package, which turns x64 on."""

import jax.numpy as jnp
import simlib

q0 = jnp.zeros(2, dtype=jnp.float64)
print(simlib)
