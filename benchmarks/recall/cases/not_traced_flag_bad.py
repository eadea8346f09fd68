# source: https://github.com/google/jaxopt/pull/350
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# `not` applied to a traced state flag inside the jitted update (the PR's
# `not self.stop_if_linesearch_fails | ~state.failed_linesearch`).
import jax
import jax.numpy as jnp


@jax.jit
def keep_going(failed_linesearch, error, tol):
    return jnp.logical_and(not failed_linesearch, error > tol)


if __name__ == "__main__":
    print(keep_going(jnp.array(False), 1.0, 1e-3))
