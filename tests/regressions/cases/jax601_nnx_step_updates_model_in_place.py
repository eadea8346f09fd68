"""JAX601: an `nnx.jit` step updates the Modules and Optimizers it is given in place, so
after the call they hold the step's outputs; a host wait on the model (a block on its
state, a float of a forward pass of it) waits for every step that updated it.

Reduced from kmheckel/spyx research/new/raven_sparse_memory_recall/run.py:234,
ssm_to_spiking_transfer/run.py:312 and parallel_spiking_neurons/run_study.py:139 (v29 check
set, FP x3, tuning material): the timed loop drops each step's loss, then blocks on
`nnx.state(model, nnx.Param)` or prints `test_acc(model)` (a `float` of the updated model's
accuracy) before the clock read (analysis/pending.py, `_Walk._updated_in_place`). The marked
lines are near misses: a sync on an array the step was given (`x`, a batch) waits for
nothing the step made, and a plain `jax.jit` step returns new arrays, updating nothing.
"""

import time

import jax
import jax.numpy as jnp
import optax
from flax import nnx


def train_model(model, data, epochs):
    opt = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)

    @nnx.jit
    def step(m, o, u, t):
        loss, g = nnx.value_and_grad(lambda mm: ((mm(u) - t) ** 2).mean())(m)
        o.update(m, g)
        return loss

    def test_acc(m):
        return float(jnp.mean(m(data[0])))

    t0 = time.perf_counter()
    for _ in range(epochs):
        for u, t in data:
            step(model, opt, u, t)
    jax.block_until_ready(jax.tree.leaves(nnx.state(model, nnx.Param)))
    train_s = time.perf_counter() - t0

    t1 = time.perf_counter()
    for ep in range(1, epochs + 1):
        for u, t in data:
            step(model, opt, u, t)
        if ep % 10 == 0 or ep == epochs:
            print(f"epoch {ep} acc={test_acc(model):.2f}")
    return train_s, time.perf_counter() - t1


def input_is_not_output(model, x, y, epochs):
    opt = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)

    @nnx.jit
    def step(m, o, u, t):
        loss, g = nnx.value_and_grad(lambda mm: ((mm(u) - t) ** 2).mean())(m)
        o.update(m, g)
        return loss

    x = jnp.asarray(x)
    t0 = time.perf_counter()
    for _ in range(epochs):
        step(model, opt, x, y)  # error: JAX601, JAX602
    print(float(x.sum()))
    return time.perf_counter() - t0


@jax.jit
def functional_step(params, u):
    return params - 0.1 * u


def functional(params, data):
    t0 = time.perf_counter()
    for u in data:
        functional_step(params, u)  # error: JAX601, JAX602
    jax.block_until_ready(params)
    return time.perf_counter() - t0
