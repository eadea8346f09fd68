# source: https://github.com/jax-ml/jax/issues/5208
# family: shapes
# The fix (the maintainers' advice): compute static sizes with Python or NumPy, not jnp.
import jax
import jax.numpy as jnp


@jax.jit
def grid2():
    t0, tf, dt = 0.0, 1.0, 1e-1
    num_steps = max(round(abs((tf - t0) / dt)), 1)
    return jnp.linspace(t0, tf, num_steps + 1)


if __name__ == "__main__":
    print(grid2())
