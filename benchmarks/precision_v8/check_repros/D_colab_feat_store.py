"""ColabDesign model.py:75: `feat["prev"] = prev` inside a scan body under jit.

Checks that the caller's dict is not touched (jit rebuilds the pytree) and that
repeated calls compute fresh results (the store is consumed inside the trace).
"""

import jax
import jax.numpy as jnp


def apply_fn(feat):
    return {"prev": feat["prev"] + feat["x"]}


def apply(feat):
    prev = jnp.zeros(3)

    def loop(prev, _):
        feat["prev"] = prev
        res = apply_fn(feat)
        return res["prev"], res

    _, o = jax.lax.scan(loop, prev, jnp.arange(3))
    return o["prev"][-1]


f = jax.jit(apply)
caller = {"x": jnp.ones(3), "prev": jnp.zeros(3)}
print(f(caller))
caller2 = {"x": 2 * jnp.ones(3), "prev": jnp.zeros(3)}
print(f(caller2))
print("caller prev is a concrete array:", type(caller["prev"]).__name__)
