"""SewoongLab/ntk-backdoor jax_utils.py:89-99 (copied from numpyro): an enabler whose value is
its parameter, `True` by default."""

import os

import jax


def enable_x64(use_x64=True):
    if not use_x64:
        use_x64 = os.getenv("JAX_ENABLE_X64", 0)
    jax.config.update("jax_enable_x64", use_x64)
