"""NumPy functions that hand the call to the argument's own method (`_wrapfunc`): on a tracer
`np.repeat(a, 3, axis=0)` is `a.repeat(3, axis=0)` and works under jit (t5x
contrib/moe/checkpoints.py:310; checked on JAX 0.12). `np.take` has no such path (twin).
"""

import jax
import numpy as np


@jax.jit
def upcycle(arr, idx):
    a = np.repeat(arr[None], 3, axis=0)
    b = np.swapaxes(a, 0, 1)
    c = np.searchsorted(arr[0], 0.5)
    return a, b, c, np.take(arr, idx)  # error: JAX101
