"""flaxmodels training.py:287/318: does jax.pmap(lambda ...) in the epoch loop recompile every epoch?"""

import logging

import jax
import jax.numpy as jnp

compiles = []


class H(logging.Handler):
    def emit(self, record):
        if "Compiling" in record.getMessage() or "compil" in record.getMessage().lower():
            compiles.append(record.getMessage()[:80])


jax.config.update("jax_log_compiles", True)
logging.getLogger("jax").addHandler(H())
logging.getLogger("jax").setLevel(logging.WARNING)

pl_mean = jnp.zeros((jax.local_device_count(),))
for epoch in range(3):
    before = len(compiles)
    pl_mean = jax.pmap(lambda x: jax.lax.pmean(x, axis_name="batch"), axis_name="batch")(pl_mean)
    print("epoch", epoch, "new compile log lines:", len(compiles) - before)
