"""Under bare `grad` (and `value_and_grad`, `jacrev`: concrete primals, nothing staged) an
operation whose derivative is zero (`jnp.round`, `jnp.sign`, `jnp.isnan`, `argmax`, a
comparison) gives a plain array, not a tracer: it prints its number, converts with `float`
and branches like any array (checked with JAX 0.6.2, 0.10.2 and 0.12.1;
`jax_api.NO_DERIVATIVE`, the taint analysis's `_concrete`).

Reduced from romanodev/deltapv deltapv/util.py:252 (v29 check set, FP, tuning material):
`vprint = jnp.round(v, 2)` printed with `"{:.2f}".format(vprint)` inside a function given to
`jax.value_and_grad` prints the voltage on every call. The marked lines are near misses:
`jnp.abs` and arithmetic keep the tangent (a tracer: `"{:.2f}"` raises, `print` shows
`GradTracer(...)`), and under `jit` every result is a tracer.
"""

import jax
import jax.numpy as jnp


def efficiency(params, scale):
    v = params[-1]
    vprint = jnp.round(v, 2)
    print("evaluating for V = {:.2f}".format(vprint))  # noqa: UP032 (as in the source)
    print("saturated:", jnp.any(jnp.isnan(params)), jnp.argmax(params) > 1)
    level = float(jnp.floor(v))
    print("magnitude", jnp.abs(v))  # error: JAX103
    return jnp.sum(params * scale) * level


df = jax.value_and_grad(efficiency)


@jax.jit
def jitted(params):
    v = params[-1]
    print("rounded", jnp.round(v, 2))  # error: JAX103
    return jnp.sum(params)
