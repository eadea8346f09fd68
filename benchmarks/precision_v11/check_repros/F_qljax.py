"""Settle ql-jax rows: bsm.py:143 (JAX120), bates.py:96 (JAX110), accounting.py:125 (JAX101)."""

import sys

sys.path.insert(0, "/work/precision-v11/repos/judejinjin+ql-jax")
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


def attempt(name, fn):
    try:
        fn()
        print(name, "OK (no error)")
    except Exception as e:  # noqa: BLE001
        print(name, type(e).__name__, str(e).splitlines()[0][:160])


# bsm.py:143 -- jnp.arange(step + 1) with step = n - 1 - i inside fori_loop body
def bsm():
    from ql_jax.engines.lattice import bsm as m

    fn = [getattr(m, n) for n in dir(m) if "convert" in n.lower() and callable(getattr(m, n))]
    print("  candidates", [f.__name__ for f in fn])
    fn[0](100.0, 100.0, 1.0, 0.05, 0.0, 0.2, 100.0, 0.05, 1.0, n_steps=10)


attempt("bsm convertible", bsm)


# bates.py:96 -- calibrate_bates vmaps price_one over option_types
def bates():
    from ql_jax.models.equity.bates import bates_price

    jax.vmap(
        lambda K, ot: bates_price(
            100.0, K, 1.0, 0.05, 0.0, 0.04, 2.0, 0.04, 0.5, -0.5, 0.1, 0.0, 0.1, ot, n_points=4
        )
    )(jnp.array([90.0, 100.0]), jnp.array([1, 1], dtype=jnp.int32))


attempt("bates vmap", bates)


# accounting.py:125 -- float(jnp.mean(npvs)) under jax.grad(npv_fn)
def acc():
    def engine(r0):
        npvs = jnp.ones(4) * r0.sum()
        return float(jnp.mean(npvs))

    jax.grad(engine)(jnp.array([0.01, 0.02]))


attempt("accounting float under grad", acc)
