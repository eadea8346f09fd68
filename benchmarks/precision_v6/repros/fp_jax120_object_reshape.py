"""FP (preview JAX120), ucl-dark/pax pax/runners/runner_evo_scanned.py:504.

`param_reshaper.reshape(x)` is evosax's ParameterReshaper.reshape (flat vector -> param pytree,
jnp ops only, jittable), not ndarray.reshape(shape): the object is a constructor argument of the
runner (experiment.py builds `ParameterReshaper(...)`). A method named `reshape` on an object of
unknown class was read as the array method whose argument must be concrete. Twin: an array's
`.reshape(traced)` does need a concrete shape.
Run: JAX_PLATFORMS=cpu python fp_jax120_object_reshape.py
"""

import jax
import jax.numpy as jnp


class ParameterReshaper:
    def reshape(self, x):
        return {"w": x[:2] * 1.0, "b": x[2:]}


def run(state, n, param_reshaper):
    def es_step(carry, _):
        x = carry * 2.0
        return carry, param_reshaper.reshape(x)

    return jax.lax.scan(es_step, state, None, length=n)


print(
    "object .reshape under scan:",
    jax.tree.map(jnp.shape, run(jnp.ones(3), 2, ParameterReshaper())[1]),
)
try:
    jax.lax.scan(lambda c, _: (c, c.reshape(c.astype(int))), jnp.ones(2), None, length=1)
    print("twin: no error")
except Exception as e:  # noqa: BLE001
    print("twin (array.reshape(traced)):", type(e).__name__)
