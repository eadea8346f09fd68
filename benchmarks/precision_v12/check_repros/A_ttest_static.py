"""interp_t_test.ipynb cell 5: jax.jit(vmap(vmap(sim_and_compute, (0, None, None, 0)),
(0, None, 0, None)), static_argnums=(1,)) keeps `nsims` a Python int, so
jax.random.normal(key, shape=(nsims, n)) gets a concrete shape."""

import jax
import jax.numpy as jnp
import numpy as np

n = 20


def simulate_jax(key, nsims, mu, sig):
    print("type of nsims:", type(nsims))
    key1, key2 = jax.random.split(key, 2)
    arm1 = jax.random.normal(key1, shape=(nsims, n))
    arm2 = jax.random.normal(key2, shape=(nsims, n)) * sig + mu
    return arm1, arm2


def sim_and_compute(key, nsims, mu2, sig2):
    a1, a2 = simulate_jax(key, nsims, mu2, sig2)
    return jnp.sum(a1 - a2 > 0)


f = jax.jit(
    jax.vmap(jax.vmap(sim_and_compute, in_axes=(0, None, None, 0)), in_axes=(0, None, 0, None)),
    static_argnums=(1,),
)
mus = np.linspace(-1, 2, 3)
sigs = np.linspace(0.1, 3, 2)
keys = jax.random.split(jax.random.PRNGKey(0), 6).reshape((3, 2, 2))
print(f(keys, 100, mus, sigs).shape)
