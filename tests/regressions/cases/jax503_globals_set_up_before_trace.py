"""JAX503: globals rebound by a set-up function that only runs before the jitted reader exists.

Reduced from google/evojax examples/notebooks/LeniaEvoJAX.ipynb (cell 8 calls
`load_pattern(pattern)`, whose `global n_kernel, n_channel, n_params` rebinds the sizes; the
jitted `express_gene` that reads them is defined in cell 9 and traced after): the trace bakes
in the current values and nothing changes them later. The marked line is the true positive
kept next to the near miss: `set_scale` runs again after `scaled` is defined and called.
"""

import jax
import jax.numpy as jnp

n_kernel, n_channel, n_params = 1, 1, 3
scale = 1.0


def load_pattern(pattern):
    global n_kernel, n_channel, n_params
    n_kernel = len(pattern["kernels"])
    n_channel = pattern["channels"]
    n_params = 3 * n_kernel
    return jnp.zeros(n_params + n_channel)


def set_scale(v):
    global scale
    scale = v


init_gene = load_pattern({"kernels": [1, 2], "channels": 3})
set_scale(2.0)


@jax.jit
def express_gene(gene):
    params = gene[:n_params].reshape((3, n_kernel))
    cells = gene[n_params:].reshape((n_channel,))
    return params.sum() + cells.sum()


@jax.jit
def scaled(x):
    return x * scale  # error: JAX503


print(express_gene(init_gene), scaled(1.0))
set_scale(3.0)
print(scaled(1.0))
