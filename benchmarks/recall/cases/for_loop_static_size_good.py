# source: https://github.com/jax-ml/jax/issues/27033
# family: recompilation
# The fix: lax.fori_loop keeps one copy of the body.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("size",))
def f_lax_fori(x, size):
    def body(ind, carry_on):
        return carry_on + ind * jnp.arange(size)

    return jax.lax.fori_loop(0, size, body, x + jnp.zeros(size))


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(partial(f_lax_fori.__wrapped__, size=100))(1.0)
    print("unrolled:", len(jaxpr.eqns) > 100)
    print(f_lax_fori(1.0, 100)[:3])
