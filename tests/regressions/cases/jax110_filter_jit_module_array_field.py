"""JAX110 under `eqx.filter_jit`: a parameter annotated with an equinox Module of this module
that declares an array field (`w: jax.Array`) holds a pytree whose array leaves are traced,
so `if m.w.sum() > 0:` raises TracerBoolConversionError (analysis/kinds.py
`_annotated_array_module`, analysis/pytrees.py `array_field`; a new user's report, stop 51,
missed before). The near misses stay silent: a field annotated `int` or marked static, an
unannotated field (filter transforms keep what is not an array static: it may be a Python
value), and an unannotated parameter (nothing says what it holds).
"""

import equinox as eqx
import jax
import jax.numpy as jnp


class Scale(eqx.Module):
    w: jax.Array
    n: int
    depth: int = eqx.field(static=True)
    extra: object = None

    def __call__(self, x):
        return x * self.w


@eqx.filter_jit
def run(m: Scale, x):
    if m.w.sum() > 0:  # error: JAX110
        return x
    if m.n > 1 and m.depth > 2:
        return -x
    if m.extra:
        return 2 * x
    return m(x)


@eqx.filter_jit
def run_unannotated(m, x):
    if m.w.sum() > 0:
        return x
    return -x


def main():
    m = Scale(jnp.ones(3), 2, 3)
    return run(m, jnp.ones(3)), run_unannotated(m, jnp.ones(3))
