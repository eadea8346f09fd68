"""Settle rows 33-37 (infodynamics-jax rejuvenation.py nuts_step, JAX110): Python while/if on
values that are batched under the vmap in nuts_rejuvenate (line 461)."""

import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, "/work/precision-v11/repos/cjrogerlo+infodynamics-jax")
import importlib.util  # noqa: E402

# load the module file alone (the package __init__ imports blackjax, not installed here)
_path = "/work/precision-v11/repos/cjrogerlo+infodynamics-jax/infodynamics_jax/inference/particle/rejuvenation.py"
_spec = importlib.util.spec_from_file_location("rejuvenation", _path)
_mod = importlib.util.module_from_spec(_spec)
if not hasattr(jax.random, "KeyArray"):
    jax.random.KeyArray = jax.Array  # annotation used in the signature
_spec.loader.exec_module(_mod)
nuts_rejuvenate = _mod.nuts_rejuvenate

for jit in (True, False):
    try:
        nuts_rejuvenate(jax.random.PRNGKey(0), jnp.zeros((4, 2)), lambda q: jnp.sum(q**2), jit=jit)
        print("jit", jit, "OK")
    except Exception as e:  # noqa: BLE001
        tb = e.__traceback__
        line = None
        while tb is not None:
            if "rejuvenation.py" in tb.tb_frame.f_code.co_filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        print("jit", jit, type(e).__name__, "at rejuvenation.py line", line)
