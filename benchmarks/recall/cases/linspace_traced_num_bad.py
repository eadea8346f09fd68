# source: https://github.com/jax-ml/jax/issues/5208
# family: shapes
# expect: JAX120
# check: error:ConcretizationTypeError
# The number of grid points is computed with jnp.maximum from local constants inside the
# jitted function: a jnp result is a tracer, so jnp.linspace has no concrete `num`.
import jax
import jax.numpy as jnp


@jax.jit
def grid2():
    t0, tf, dt = 0.0, 1.0, 1e-1
    num_steps = jnp.maximum(jnp.abs((tf - t0) / dt), 1)
    return jnp.linspace(t0, tf, num_steps + 1)


if __name__ == "__main__":
    print(grid2())
