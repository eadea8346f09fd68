# source: https://github.com/asantini29/phentax/pull/28
# family: control-flow
# The fix: validate concrete inputs before entering jit.
import jax
import jax.numpy as jnp


@jax.jit
def _initial_processing(chi1, chi2):
    return 0.5 * (chi1 + chi2)


def initial_processing(chi1, chi2):
    if abs(chi1) > 1.0 or abs(chi2) > 1.0:
        raise ValueError("spins must be in [-1, 1]")
    return _initial_processing(jnp.asarray(chi1), jnp.asarray(chi2))


if __name__ == "__main__":
    print(initial_processing(0.3, -0.2))
