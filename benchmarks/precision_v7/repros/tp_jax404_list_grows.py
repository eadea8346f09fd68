# near-miss twin (JAX404 should still fire): the list is never cut back, it grows every step.
import jax
import jax.numpy as jnp


@jax.jit
def bulk(obs):
    return jnp.asarray(obs)


obs = []
for _update in range(10):
    obs.append(jnp.zeros(3))
    b = bulk(obs)
print("compiles:", bulk._cache_size())
