# source: https://github.com/jax-ml/jax/issues/27033
# family: recompilation
# expect: JAX405
# check: stdout:unrolled: True
# "fori_loop slower than sum(list)?": the Python `for i in range(size)` version, with
# `size` static, puts `size` copies of the body in the compiled program.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("size",))
def f_for_loop(x, size):
    out = x + jnp.zeros(size)
    for i in range(size):
        out = out + i * jnp.arange(size)
    return out


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(partial(f_for_loop.__wrapped__, size=100))(1.0)
    print("unrolled:", len(jaxpr.eqns) > 100)
    print(f_for_loop(1.0, 100)[:3])
