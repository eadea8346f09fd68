"""Serialise a jitted function with `jax.export` and call it after deserialising.

The artifact is StableHLO plus calling-convention metadata: it can be stored, loaded by a
later JAX version or another process, and called without the Python source. Shapes can be
symbolic, so one artifact serves every batch size. Serialisation needs the `flatbuffers`
package (`pip install flatbuffers`).
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import export


@jax.jit
def predict(w: jax.Array, x: jax.Array) -> jax.Array:
    return jax.nn.softmax(x @ w, axis=-1)


def main() -> None:
    key_w, key_x = jax.random.split(jax.random.key(0))
    w = jax.random.normal(key_w, (8, 4), jnp.float32)
    x = jax.random.normal(key_x, (5, 8), jnp.float32)

    # Export for abstract inputs; "b" is a symbolic batch dimension.
    (batch,) = export.symbolic_shape("b")
    exported = export.export(predict)(
        jax.ShapeDtypeStruct(w.shape, w.dtype),
        jax.ShapeDtypeStruct((batch, 8), jnp.float32),
    )
    blob: bytearray = exported.serialize()
    print(f"serialised {len(blob)} bytes for platforms {exported.platforms}")
    print("input shapes:", [str(a.shape) for a in exported.in_avals])

    # ... write `blob` to disk, ship it, read it back ...
    restored = export.deserialize(blob)
    for rows in (5, 3):
        got = restored.call(w, x[:rows])
        np.testing.assert_allclose(np.asarray(got), np.asarray(predict(w, x[:rows])), rtol=1e-6)
    print("round trip: ok")

    # For a quick look at the program (what `jax.xla_computation` used to give): lower it.
    stablehlo = predict.lower(w, x).as_text()
    assert "stablehlo" in stablehlo


if __name__ == "__main__":
    main()
