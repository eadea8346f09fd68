"""A module switch `DEBUG = False`, bound once at the top and never rebound, turns a branch off:
the in-place update under `if DEBUG:` never runs (and where it would, the same switch makes
`jnp` NumPy). v24 rows, tuning material: attract-jax test-1B7F-nb.py:201, test-1B7F-grid.py:250,
test-1B7F-nb-gridpadding.py:201, test-grid-energy.py:255 (JAX501 x4; analysis/module_flags.py,
silent for the behavioural families in `Rule.report`). The twins: the arm the switch keeps, an
`and` whose switch is true, and a parameter of the same name that shadows the switch."""

import jax.numpy as jnp
import numpy as np

DEBUG = False
VERBOSE = True

if DEBUG:
    jnp = np


def total(n, chunks):
    energies = jnp.zeros(n)
    for start, size, energy in chunks:
        if DEBUG:
            energies[start : start + size] += energy[:size]
        else:
            energies = energies.at[start : start + size].add(energy[:size])
    if not VERBOSE:
        energies[0] = 1.0
    if VERBOSE and n > 2:
        energies[1] = 2.0  # error: JAX501
    return energies


def shadowed(n, DEBUG=True):
    energies = jnp.zeros(n)
    if DEBUG:
        energies[0] = 1.0  # error: JAX501 (a parameter shadows the switch)
    return energies
