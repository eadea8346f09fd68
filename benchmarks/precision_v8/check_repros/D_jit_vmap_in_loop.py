"""exojax modit.py:340/343/412/415 and mbirjax lax_map demos: `jit(vmap(f))`
built inside a function that is called once per loop step.  Count traces and
compiles per call."""

import logging

import jax
import jax.numpy as jnp

traces = 0


def line_strength(t, x):
    global traces
    traces += 1
    return t * x


def exomol(tarr, x):
    return jax.jit(jax.vmap(line_strength, (0, None)))(tarr, x)


compiles = []


class H(logging.Handler):
    def emit(self, record):
        if "Finished XLA compilation of jit(line_strength)" in record.getMessage():
            compiles.append(record.getMessage()[:80])


jax.config.update("jax_log_compiles", True)
logging.getLogger("jax").addHandler(H())
for _ in range(3):
    exomol(jnp.ones(4), jnp.ones(2))
print("traces", traces, "compiles of jit(line_strength)", len(compiles))
