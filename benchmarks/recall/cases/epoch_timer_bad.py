# source: https://github.com/jax-ml/jax/issues/1797
# family: benchmarking
# expect: JAX601
# check: elapsed<good/3
# Per-epoch wall time of a jitted training step, read before the step has finished.
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_epoch(w, x):
    for _ in range(4):
        w = w - 1e-3 * (x.T @ (x @ w))
    return w


if __name__ == "__main__":
    x = jnp.ones((2000, 2000)) * 0.01
    w = jnp.ones((2000, 2000))
    w = train_epoch(w, x)
    epoch_times = []
    for epoch in range(3):
        t0 = time.perf_counter()
        w = train_epoch(w, x)
        epoch_times.append(time.perf_counter() - t0)
    w.block_until_ready()
    print("elapsed=%f" % min(epoch_times))
