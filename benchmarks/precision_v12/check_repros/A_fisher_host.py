"""imprint/tutorials/fisher_exact.ipynb cell 6: BoschlooExact.sim_batch -> _sim_scipy
(imprint/imprint/models/fisher_exact.py:45-61) builds the result on the host with NumPy and a
per-table scipy call, so `sim_direct` is a NumPy array: nothing asynchronous is left at the
clock read. Copy of _sim_scipy with a cheap f in place of scipy.stats.boschloo_exact."""

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special


def _sim_scipy(samples, theta, null_truth, f):
    p = scipy.special.expit(theta)
    successes = np.sum(samples[None, :] < p[:, None, None], axis=2)
    tbl2by2 = np.concatenate(
        (successes[:, :, None, :], samples.shape[1] - successes[:, :, None, :]),
        axis=2,
    )
    stats = np.array(
        [[f(tbl2by2[i, j]) for j in range(tbl2by2.shape[1])] for i in range(tbl2by2.shape[0])]
    )
    return stats


samples = jax.random.uniform(jax.random.PRNGKey(0), shape=(8, 10, 2), dtype=jnp.float32)
out = _sim_scipy(
    samples[0:8], jnp.array([[0.0, 0.0]]), jnp.array([[True, True]]), f=lambda t: float(t.sum())
)
print(type(out), out.shape)
