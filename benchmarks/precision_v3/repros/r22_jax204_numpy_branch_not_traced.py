"""learned_optimization summary.py:205 (JAX204): `onp.random.randint` sits in the
`use_jnp=False` branch; the only traced caller passes `use_jnp=True`, which takes the
`jax.random.randint(key, ...)` branch."""
import jax
import jax.numpy as jnp
import numpy as onp


def aggregate_metric(vs, use_jnp=False, key=None):
    xnp = jnp if use_jnp else onp
    vs = xnp.concatenate([xnp.asarray(v).ravel() for v in vs], axis=0)
    if use_jnp:
        i = jax.random.randint(key, [], 0, len(vs))
    else:
        i = onp.random.randint(0, len(vs), dtype=onp.int32)
    return vs[i]


@jax.jit
def next_state(x, key):
    return aggregate_metric([x, x * 2], use_jnp=True, key=key)


print(next_state(jnp.ones(3), jax.random.key(0)), aggregate_metric([onp.ones(2)]))
