"""Does jnp.nan_to_num(x, copy=False) change x in place (ithaca train/experiment.py:256)?"""

import jax
import jax.numpy as jnp
import numpy as np

x = jnp.array([1.0, jnp.nan, jnp.inf])
jnp.nan_to_num(x, copy=False)
print("jax array after discarded call:", x)  # still has nan

h = np.array([1.0, np.nan, np.inf])
jnp.nan_to_num(h, copy=False)
print("numpy array after discarded jnp call:", h)  # still has nan


@jax.jit
def f(v):
    jnp.nan_to_num(v, copy=False)
    return jnp.mean(v)


print("under jit, mean:", f(x))  # nan: the call had no effect
print(jax.__version__)
