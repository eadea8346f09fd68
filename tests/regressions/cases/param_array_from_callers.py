"""Facts crossing a call: a parameter every caller passes a jnp array is a JAX array (issue 13).

Reduced from the "JAX arrays are immutable" question in xyyeh/learning (recall case
benchmarks/recall/cases/item_assignment_bad.py): a helper assigns into its parameter, and the
only call passes `jnp.arange(...)`, so the assignment raises TypeError. Before, parameters
had no kind. Near misses: a helper also called with a NumPy array (`fill`), one whose name
escapes as a value (`clear`, passed to `map`), and a method stay silent.
"""

import jax.numpy as jnp
import numpy as np


def set_last(array):
    array[4] = 10  # error: JAX501
    return array


def fill(buf):
    buf[0] = 1.0
    return buf


def clear(buf):
    buf[0] = 0.0
    return buf


class Buffer:
    def put(self, data):
        data[0] = 1.0
        return data


print(set_last(jnp.arange(5)))
fill(jnp.zeros(3))
fill(np.zeros(3))
clear(jnp.zeros(3))
list(map(clear, [np.zeros(2)]))
Buffer().put(jnp.zeros(2))
