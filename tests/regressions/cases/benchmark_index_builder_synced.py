"""Arrays built with `jnp.c_[...]` / `jnp.r_[...]` are made from their operands: when the
result flows into a call whose output is waited for, the operands are computed too (v18 rows,
tuning material: vbjax examples/01_sweep.py:118-132 and examples/parsweep.py, `pars =
np.c_[np.exp(log_ks.ravel()), np.ones(log_ks.size) * sig_i, etas.ravel()].T.copy()` then
`run_batches(pars).block_until_ready()`, JAX601 x2; `jax_api.ARRAY_INDEX_BUILDERS`). The
twin: the result is appended but nothing waits for it before the clock is read."""

import time

import jax
import jax.numpy as jnp

run_batches = jax.vmap(lambda p: p.sum(), in_axes=1)


def sweep(sigmas, n):
    tic = time.time()
    results = []
    for sig in sigmas:
        grid = jnp.linspace(-9.0, -2.0, n)
        pars = jnp.c_[jnp.exp(grid), jnp.ones(grid.size) * sig].T.copy()
        results.append(run_batches(pars).block_until_ready())
    print(time.time() - tic)
    return results


def sweep_twin(sigmas, n):
    tic = time.time()
    results = []
    for sig in sigmas:
        grid = jnp.linspace(-9.0, -2.0, n)
        pars = jnp.r_[jnp.exp(grid), jnp.ones(grid.size) * sig]  # error: JAX601
        results.append(pars)
    print(time.time() - tic)
    return results
