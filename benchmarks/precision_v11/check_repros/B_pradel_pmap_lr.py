"""pradel-jax large_scale.py:660,687: `@pmap def distributed_update(params, grads, lr)` called with a
Python float `lr` (learning_rate). Does pmap reject the rank-0 argument before tracing/compiling?
"""

import jax
import jax.numpy as jnp

traced = []


@jax.pmap
def distributed_update(params, grads, lr):
    traced.append(True)
    return params - lr * grads


devs = jax.devices()
# jax.device_put_replicated is gone in JAX 0.12; a stacked array has the same leading device axis
p = jnp.stack([jnp.ones(3)] * len(devs))
g = jnp.stack([jnp.ones(3)] * len(devs))
try:
    distributed_update(p, g, 0.01)
    print("OK")
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, str(e).splitlines()[0][:160])
print("body traced:", bool(traced))
