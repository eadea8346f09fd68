"""eightmm/FoldJAX src/foldjax/models/esmfold2/models/model.py:810-812 and :826-828 (JAX110
medium, precision v8 check set, read by an untuned reader): `for name, value in (("single",
x), ("pair", z)):` binds `name` to a str on every step, so `name in return_representations`
is a Python test; the loop target took the level of the whole row. A loop over a literal of
rows now binds each position to that position's elements. The near miss, a test on the
traced position, still fires."""

import jax
import jax.numpy as jnp


@jax.jit
def predict(x, z):
    out = {}
    for name, value in (("single", x), ("pair", z)):
        if name in ("single",):
            out[name] = value * 2
        if value.sum() > 0:  # error: JAX110
            out[name + "_pos"] = value
    return out


predict(jnp.ones(3), jnp.ones(3))
