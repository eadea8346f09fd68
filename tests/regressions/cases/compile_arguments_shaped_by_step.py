# ruff: noqa: B023 (the closures over the loop variable are the subject)
"""JAX401: a jit built per step is no extra compile when the step's value already picks the
program: the jitted function's arguments get their shape from the step (a benchmark loop
over sizes), or a parameter's default is the step's value used as structure.

Reduced from the tuning pool (v36-v38 candidates never linted by a check set):
- jackmcarthur/lorrax tests/bench/bench_w_ladder_integration.py:265-276: `for nb in widths`,
  `shp = (2, nb, ...)`, `x = ... rng.standard_normal(shp)`, a nested `@jax.jit def _rep` warmed
  up on `x`, then timed: each width compiles whether or not `_rep` is hoisted;
- lorrax tests/bench/bench_conv_kminor.py:392-397: `T, W5, W3 = operands(mesh, nb, ...)`, whose
  `_c(nb, ...)` is `rng.standard_normal(shape)` (two calls down);
- lorrax tests/bench/bench_w_ladder_shifts.py:520-524: `G = np.eye(n)[:width]`;
- maraxen/prolix tests/test_chunked_gb_benchmark.py:73-155: `pos_real = positions[:n_real]`
  per padding bucket;
- derivon-ai/omnibias benchmarks/polylaplacian_order.py:154-158: `def _dense_k(kk=k)` nests
  `kk` hessians (`for _ in range(k)` in the helper).
The marked lines are the true positives kept next to each near miss: step data of one shape.
"""

import jax
import jax.numpy as jnp
import numpy as np


def matvec(y):
    return y * 2.0


def bench_widths(widths, n):
    rng = np.random.default_rng(0)
    for nb in widths:
        shp = (2, nb, n)
        x = jnp.asarray(rng.standard_normal(shp))

        @jax.jit
        def _rep(x0):
            return jax.lax.fori_loop(0, 10, lambda i, y: matvec(y), x0)

        jax.block_until_ready(_rep(x))


def operands(nb, n, seed=3):
    rng = np.random.default_rng(seed)

    def _c(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    return _c(nb, n), _c(n, n)


def bench_operands(batches, n):
    for nb in batches:
        t, w = operands(nb, n)
        f = jax.jit(lambda a, b: a @ b)
        jax.block_until_ready(f(t, w))


def bench_prefix(widths, n):
    for width in widths:
        g = np.eye(n)[:width, :]
        jax.block_until_ready(jax.jit(lambda a: a.sum())(g))


def nested_lap(f, x, k):
    g = f
    for _ in range(k):
        g = jax.grad(g)
    return g(x)


def orders(ks, x):
    out = []
    for k in ks:

        def _dense_k(kk=k):
            return nested_lap(jnp.sin, x, kk)

        out.append(jax.jit(_dense_k)())
    return out


def batches_of_one_shape(data, n):
    for i in range(n):
        batch = data[i * 8 : (i + 1) * 8]  # a moving window: one shape every step
        jax.block_until_ready(jax.jit(lambda a: a.sum())(batch))  # error: JAX401


def step_data(xs, n):
    for i in range(n):
        x = xs[i]  # an element: one shape every step
        f = jax.jit(lambda a: a * 2)  # error: JAX401
        jax.block_until_ready(f(x))
