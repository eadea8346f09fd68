# source: https://github.com/quantumlib/OpenFermion/pull/1396
# family: host-conversion
# expect: JAX101
# check: error:ConcretizationTypeError
# A jitted objective casts its (traced) result with float() before returning it.
import jax
import jax.numpy as jnp


@jax.jit
def compute_objective_batched(chols, etaPp, penalty):
    residual = jnp.einsum("ij,jk->ik", chols, etaPp)
    loss = 0.5 * jnp.sum(residual**2) + penalty * jnp.sum(etaPp**2)
    return float(loss)


if __name__ == "__main__":
    print(compute_objective_batched(jnp.ones((4, 3)), jnp.ones((3, 2)), 0.1))
