"""deprecated/MLLM_JAX/language/gemma/sampler.py:127/295-296 in miniature.

`self._compiled = jax.jit(self._sample_fn)` is built but never called; `__call__` calls
`self._sample_fn` eagerly. The Python `while` on a jnp condition and the `print` then see
concrete arrays: no TracerBoolConversionError, and print shows values, not tracers.
"""

import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self) -> None:
        self._compiled_sample_fn = jax.jit(self._sample_fn)  # never called below

    def _sample_fn(self, state):
        def cond_fn(s):
            return (s["step"] < 3) & jnp.any(jnp.logical_not(s["done"]))

        while cond_fn(state):
            print(state["step"])
            state = {"step": state["step"] + 1, "done": state["done"]}
        return state

    def __call__(self):
        return self._sample_fn({"step": jnp.asarray(0), "done": jnp.zeros(2, bool)})


print(Sampler()())
try:
    Sampler()._compiled_sample_fn({"step": jnp.asarray(0), "done": jnp.zeros(2, bool)})
except jax.errors.TracerBoolConversionError:
    print("the jitted twin would raise TracerBoolConversionError (it is never called in the repo)")
