"""init2winit test_core.py:221-222: normal(key, [20, 2]) and normal(key, [20, 1]) with one key share numbers."""

import jax
import numpy as np

key = jax.random.PRNGKey(33)
x = jax.random.normal(key, [20, 2])
y = jax.random.normal(key, [20, 1])
print("y equals x.ravel()[:20]:", np.allclose(np.asarray(y).ravel(), np.asarray(x).ravel()[:20]))
print("corr(y, x[:,0]):", np.corrcoef(np.asarray(y).ravel(), np.asarray(x)[:, 0])[0, 1])
