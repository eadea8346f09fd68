"""demon2036/MLLM-JAX deprecated/MLLM_JAX/language/gemma/sampler.py:127 and :295-296 (JAX103,
JAX110, precision v9 check set, read by an untuned reader): `self._compiled_sample_fn =
jax.jit(self._sample_fn)` is built in `__init__` and never called (its calls are commented
out), so `_sample_fn` only runs eagerly and its `while`/`print` see concrete values. A jit
application whose result nothing can read (a dead value, or a private attribute no code of the
module loads: `deadness.result_never_read`) traces nothing. Checked with JAX 0.12. The near
miss, a wrapper that is called, still fires."""

import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, params):
        self.params = params
        self._compiled_sample_fn = jax.jit(self._sample_fn)
        self._compiled_run = jax.jit(self._run)

    def _step(self, params, state):
        return {"cache": state["cache"] + params, "step": state["step"] + 1}

    def _sample_fn(self, params, state):
        while jnp.any(state["step"] < 4):
            print(state["cache"])
            state = self._step(params, state)
        return state

    def _run(self, params, state):
        print(state["cache"])  # error: JAX103
        return self._step(params, state)

    def __call__(self, state):
        out = state
        return self._compiled_run(self.params, out)
