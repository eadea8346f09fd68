"""After `randint(key, ...)`, is `split(key)[0]` the subkey randint drew its high bits from?

flaxmodels training_utils.sample_z draws `idcs = randint(key)`, then `key, _ = split(key)`
and `normal(key)`. JAX's `_randint` starts with `k1, k2 = _split(key)` and draws its high
bits as `bits(k1, shape)`; the re-split key is that same `k1`, so under the default
threefry-partitionable mode the noise's raw bits begin with randint's high bits.
"""

import inspect

import jax
import numpy as np
from jax._src.random import core

src = inspect.getsource(core._randint)
print("_randint splits its key into k1, k2:", "k1, k2 = _split(key)" in src)
key = jax.random.PRNGKey(0)
k1, k2 = jax.random.split(key)
new_key, _ = jax.random.split(key)  # what sample_z does after randint
print("re-split key == randint's k1:", np.array_equal(new_key, k1))
hi = jax.random.bits(k1, (4, 8))  # randint's high bits for shape (4, 8)
noise_bits = jax.random.bits(new_key, (4, 8, 16))  # bits behind normal(key, (4, 8, 16))
print(
    "noise bits start with randint's high bits:",
    np.array_equal(hi.ravel(), noise_bits.ravel()[:32]),
)
