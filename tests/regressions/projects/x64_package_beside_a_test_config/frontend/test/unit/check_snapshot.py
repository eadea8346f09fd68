"""catalyst frontend/test/pytest/test_snapshot.py:146: a test beside a `pytest.ini` (which
made frontend/test the project root and cut it off from the package) imports the package,
so x64 is on."""

import jax.numpy as jnp
from qlib import qjit


@qjit
def state():
    return jnp.array([0.0 + 0.0j, 1.0 + 0.0j], dtype=jnp.complex128)
