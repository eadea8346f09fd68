# source: https://github.com/asantini29/phentax/pull/28
# family: control-flow
# expect: JAX111
# check: error:TracerBoolConversionError
# An `assert jnp.all(...)` on traced spins inside a jitted function.
import jax
import jax.numpy as jnp


@jax.jit
def initial_processing(chi1, chi2):
    assert jnp.all(jnp.abs(chi1) <= 1.0) and jnp.all(jnp.abs(chi2) <= 1.0)
    return 0.5 * (chi1 + chi2)


if __name__ == "__main__":
    print(initial_processing(jnp.array(0.3), jnp.array(-0.2)))
