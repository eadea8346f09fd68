"""Do warm-up calls like EnergyDerivator.compile_derivatives (jax_diff.py:44-58) finish before
they return on CPU? (solve_topopt_jax.py:205-323 setup timing).

An energy of the same shape (gather by element, weighted sum), its jitted grad and a jvp of the
grad, on a large mesh; is_ready() right after the call says whether dispatch was asynchronous.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

n_nodes, n_el = 2_000_000, 4_000_000
rng = np.random.default_rng(0)
elems = jnp.asarray(rng.integers(0, n_nodes, (n_el, 3)), dtype=jnp.int32)
dvx = jnp.asarray(rng.random((n_el, 3)))
vol = jnp.asarray(rng.random(n_el))


def energy(u, elems, dvx, vol):
    ue = u[elems]
    return jnp.sum(jnp.sum(ue * dvx, axis=1) ** 2 * vol)


u = jnp.asarray(rng.random(n_nodes))
f = jax.jit(energy)
df = jax.jit(jax.grad(energy))
ddf = jax.jit(lambda x, t: jax.jvp(lambda y: df(y, elems, dvx, vol), (x,), (t,))[1])
for name, call in (
    ("f", lambda: f(u, elems, dvx, vol)),
    ("df", lambda: df(u, elems, dvx, vol)),
    ("ddf", lambda: ddf(u, u)),
):
    for trial in range(2):
        t = time.perf_counter()
        r = call()
        t1 = time.perf_counter() - t
        ready = r.is_ready()
        r.block_until_ready()
        t2 = time.perf_counter() - t
        print(name, trial, "ready at return:", ready, f"return {t1:.4f}s block {t2:.4f}s")
