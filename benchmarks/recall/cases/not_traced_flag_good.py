# source: https://github.com/google/jaxopt/pull/350
# family: control-flow
# The fix from the PR: jnp.logical_not / logical_or on arrays.
import jax
import jax.numpy as jnp


@jax.jit
def keep_going(failed_linesearch, error, tol):
    return jnp.logical_and(jnp.logical_not(failed_linesearch), error > tol)


if __name__ == "__main__":
    print(keep_going(jnp.array(False), 1.0, 1e-3))
