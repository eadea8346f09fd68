# source: https://github.com/jax-ml/jax/issues/1832
# family: recompilation
# expect: JAX401
# check: compiles:func_jax>1
# `%timeit jit(grad(func_jax))(x)`: jit of a fresh grad() function on every timed call,
# so "you're paying the recompilation cost each time" (mattjj's reply).
import time

import jax.numpy as np
from jax import grad, jit, lax


def func_jax(x):
    def body(f_prev, x_i):
        return f_prev + x_i, f_prev + x_i

    _, f = lax.scan(body, 0.0, x)
    return np.sum(f)


if __name__ == "__main__":
    x = np.arange(1000.0)
    start = time.perf_counter()
    for _ in range(4):
        jit(grad(func_jax))(x).block_until_ready()
    print(f"elapsed={(time.perf_counter() - start):f}")
