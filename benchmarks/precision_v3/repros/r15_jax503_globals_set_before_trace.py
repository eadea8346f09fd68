"""evojax examples/notebooks/LeniaEvoJAX.ipynb cell 9 (JAX503): the globals are set once, by
`load_pattern(pattern)` (cell 8), before the jitted reader is even defined; they never change
after it is traced."""
import jax
import jax.numpy as jnp

n_kernel, n_channel, n_params = 1, 1, 3


def load_pattern(pattern):
    global n_kernel, n_channel, n_params
    n_kernel = len(pattern["kernels"])
    n_channel = pattern["channels"]
    n_params = 3 * n_kernel
    return jnp.zeros(n_params + n_channel)


init_gene = load_pattern({"kernels": [1, 2], "channels": 3})


@jax.jit
def express_gene(gene):
    params = gene[:n_params].reshape((3, n_kernel))
    cells = gene[n_params:].reshape((n_channel,))
    return params.sum() + cells.sum()


print(express_gene(init_gene))
