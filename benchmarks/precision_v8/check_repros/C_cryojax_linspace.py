"""cryojax search_loop.py:114: `method.batch_size` is a Python int field of an eqx.Module
closed over by the fori_loop body; eqx.filter_jit keeps non-array leaves static, so
jnp.linspace gets a concrete `num`."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Method(eqx.Module):
    batch_size: int | None


@eqx.filter_jit
def run(method, n_iterations):
    def body(i, carry):
        idx = jnp.linspace(
            i * method.batch_size,
            (i + 1) * method.batch_size - 1,
            method.batch_size,
            dtype=jnp.int32,
        )
        return carry + idx.sum()

    return jax.lax.fori_loop(0, 3, body, jnp.int32(0))


print(run(Method(batch_size=4), 3))
