"""gpax tests: one key feeds several jax.random.normal calls of different shapes.

Checks whether the draws share values (identical when sizes match, shared leading stream
otherwise), for the shapes used in tests/test_*.py of ziatdinovmax/gpax.
"""

import jax
import numpy as np

key = jax.random.split(jax.random.PRNGKey(0))[0]  # gpax.utils.get_keys()[0]


def draw(shape):
    return np.asarray(jax.random.normal(key, shape=shape)).ravel()


def report(a_shape, b_shape):
    a, b = draw(a_shape), draw(b_shape)
    n = min(a.size, b.size)
    print(f"{a_shape} vs {b_shape}: leading {n} equal: {np.array_equal(a[:n], b[:n])}")


report((100, 1), (100,))  # test_gp / test_mngp / test_acq k_length vs k_scale
report((100,), (100,))  # k_scale vs noise; test_spm a/b/noise
report((1, 1), (1,))  # test_sparsegp / test_vigp
report((100, 3, 1), (100, 3))  # test_vgp
report((36, 64), (64, 32))  # test_dkl w0 vs w1
report((64, 32), (32, 2))  # test_dkl w1 vs w2
report((32, 2), (64,))  # test_dkl w2 vs b0
report((50, 1, 64), (50, 64, 32))  # test_bnn w0 vs w1
report(
    (
        50,
        1,
    ),
    (50,),
)  # test_bnn b2 vs noise
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
