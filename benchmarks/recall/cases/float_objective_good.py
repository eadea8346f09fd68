# source: https://github.com/quantumlib/OpenFermion/pull/1396
# family: host-conversion
# The fix: return the array; convert on the host, outside jit.
import jax
import jax.numpy as jnp


@jax.jit
def compute_objective_batched(chols, etaPp, penalty):
    residual = jnp.einsum("ij,jk->ik", chols, etaPp)
    loss = 0.5 * jnp.sum(residual**2) + penalty * jnp.sum(etaPp**2)
    return loss


if __name__ == "__main__":
    print(float(compute_objective_batched(jnp.ones((4, 3)), jnp.ones((3, 2)), 0.1)))
