"""jax_petsc_nonlinear_energies src/core/problem_data/hdf5.py: a loader that sets the flag in
its body before it builds its arrays."""

import jax
import numpy as np


def jaxify(data):
    jax.config.update("jax_enable_x64", True)
    return {k: jax.numpy.asarray(v) for k, v in data.items()}


def load(path):
    return {"nodes": np.zeros(3)}
