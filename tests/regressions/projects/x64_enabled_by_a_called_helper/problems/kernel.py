"""SewoongLab/ntk-backdoor kernel_reverse.py:36 and :710 (v32 check set, FP, tuning
material, JAX701): the script calls the imported enabler at module level, so x64 is on when
its functions run (analysis/x64.py `project_enables_x64`: a file that enables at import is on
for itself, not only for the files it imports or that import it)."""

import jax.numpy as jnp

from problems.x64util import enable_x64

enable_x64()


def load_checkpoint(values):
    return jnp.asarray(values).astype(jnp.float64)
