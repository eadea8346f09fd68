"""tinker495/JAxtar cli/evaluation_runner.py:609-615 (JAX407, precision v8 check set, read by
an untuned reader): the conversion sits under `if batched_actual is None and
batched_payloads:`, whose body sets `batched_actual`, so it runs on one step at most and each
later step only indexes the converted result. Code under `if NAME is None:` whose body binds
NAME (before any `continue`), with nothing else in the loop binding NAME, is a lazy
initialiser, not per-step work (`loops.runs_once_in`). The near miss resets NAME every step,
so the conversion does repeat."""

import jax.numpy as jnp
import numpy as np


def finalize(payloads, rows):
    costs = np.zeros((len(rows), 4), dtype=np.float32)
    batched = None
    out = []
    for p in payloads:
        if batched is None:
            batched = np.asarray(jnp.asarray(costs) * 2)
        out.append(batched[p])
    return out


def finalize_reset(payloads, rows):
    costs = np.zeros((len(rows), 4), dtype=np.float32)
    batched = None
    out = []
    for p in payloads:
        if batched is None:
            batched = np.asarray(jnp.asarray(costs) * 2)  # error: JAX407
        out.append(batched[p])
        batched = None
    return out
