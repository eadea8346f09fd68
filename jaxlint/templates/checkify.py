"""Runtime checks that survive jit: `jax.experimental.checkify`.

A Python `assert` (or `if ...: raise`) on a traced value fails at trace time; `checkify.check`
becomes part of the compiled program, and `checkify.checkify` turns the failures into an
error value that is returned next to the result and raised (`.throw()`) outside jit.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify


def safe_log(x: jax.Array) -> jax.Array:
    checkify.check(jnp.all(x > 0), "safe_log needs positive inputs, min was {m}", m=jnp.min(x))
    return jnp.log(x)


# checkify outside, jit inside: one compiled program that returns (error, result).
checked_log = checkify.checkify(jax.jit(safe_log))

# Automatic checks too: NaNs produced, division by zero, out-of-bounds indexing.
all_checks = (
    checkify.user_checks | checkify.nan_checks | checkify.div_checks | checkify.index_checks
)


@jax.jit
def normalize(x: jax.Array, i: jax.Array) -> jax.Array:
    return x / x[i]


checked_normalize = checkify.checkify(normalize, errors=all_checks)


def main() -> None:
    x = jnp.array([1.0, 2.0, 4.0], dtype=jnp.float32)

    err, y = checked_log(x)
    err.throw()  # no error: does nothing
    np.testing.assert_allclose(np.asarray(y), np.log(np.asarray(x)), rtol=1e-6)

    err, _ = checked_log(-x)
    message = err.get()  # None when no check failed
    print("caught:", message)
    assert message is not None and "positive" in message
    try:
        err.throw()
    except checkify.JaxRuntimeError as exc:
        print("throw() raised:", type(exc).__name__)
    else:
        raise AssertionError("expected a JaxRuntimeError")

    err, _ = checked_normalize(x, jnp.int32(5))  # index 5 is out of bounds for 3 elements
    print("caught:", err.get())
    assert err.get() is not None

    err, z = checked_normalize(x, jnp.int32(0))
    assert err.get() is None
    np.testing.assert_allclose(np.asarray(z), np.asarray(x))


if __name__ == "__main__":
    main()
