# source: https://github.com/jax-ml/jax/issues/1219
# family: benchmarking
# expect: JAX602
# check: elapsed>good*3
# The first timed call includes tracing and XLA compilation (the 0.0077 s first line of
# the output).
import time

import jax
import jax.numpy as jnp


def loss(w, x):
    h = jnp.tanh(x @ w)
    for _ in range(10):
        h = jnp.tanh(h @ w)
    return jnp.sum(h**2)


if __name__ == "__main__":
    step = jax.jit(jax.grad(loss))
    w = jnp.ones((64, 64)) * 0.01
    x = jnp.ones((8, 64))
    start = time.perf_counter()
    step(w, x).block_until_ready()
    print("elapsed=%f" % (time.perf_counter() - start))
