"""jax_learning value_loss.py:23: `rets = np.zeros(...)`; `rets.at[step].set(...)`.
A NumPy array has no `.at`, so the line raises instead of returning a discarded copy."""

import numpy as np

rets = np.zeros(4)
try:
    rets.at[0].set(1.0)
    print("no error")
except AttributeError as e:
    print("AttributeError:", e)
