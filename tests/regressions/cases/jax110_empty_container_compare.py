"""aobled/jax_supervised_training trainer.py:259 and utils.py:130 (JAX110 high x2, precision
v11 check set, read by an untuned reader): `if state.batch_stats is not None and
state.batch_stats != {}:` under jit tests the pytree container (None, `{}`, a dict or a
FrozenDict of arrays): a comparison with an empty dict or set is decided by the keys and is a
Python bool, never a traced one (`kinds.never_array`; an array compared with `{}` raises
TypeError in JAX 0.12, not TracerBoolConversionError). Checked with JAX 0.12. The near miss, a
leaf compared with a number, still fires."""

import jax
import jax.numpy as jnp


@jax.jit
def apply_stats(x, batch_stats):
    if batch_stats is not None and batch_stats != {}:
        x = x * 2
    if batch_stats != dict():
        x = x + 1
    return x


@jax.jit
def apply_leaf(x, batch_stats):
    if batch_stats["mean"].sum() != 0:  # error: JAX110
        x = x - batch_stats["mean"]
    return x


print(apply_stats(jnp.ones(2), {"mean": jnp.ones(2)}), apply_stats(jnp.ones(2), {}))
