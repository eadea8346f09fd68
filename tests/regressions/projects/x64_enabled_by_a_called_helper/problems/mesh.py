"""jax_petsc_nonlinear_energies src/problems/ginzburg_landau/jax/mesh.py: the loader that
turns x64 on is imported in a parenthesised, multi-line `from ... import (...)` and called
before the float64 arrays are built."""

import jax.numpy as jnp
from simlib.io import (
    jaxify,
    load,
)


def mesh_data(path):
    params = jaxify(load(path))
    return jnp.asarray(params["nodes"], dtype=jnp.float64)
