# source: https://github.com/jax-ml/jax/issues/5798
# family: numerics
# expect: JAX704
# check: stdout:nan gradient: True
# A piecewise function: identity below 1, sqrt above. At 0 the sqrt branch is not taken,
# but its infinite derivative times the where's zero cotangent makes the gradient NaN.
import jax
import jax.numpy as jnp

f = lambda x: jnp.where(x < 1.0, x, jnp.sqrt(x))  # noqa: E731
df = jax.grad(f)

if __name__ == "__main__":
    g = df(0.0)
    print("nan gradient:", bool(jnp.isnan(g)))
