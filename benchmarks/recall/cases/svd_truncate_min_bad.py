# source: https://github.com/google/TensorNetwork/issues/953
# family: shapes
# expect: JAX120 JAX110
# check: error:Error
# The number of singular values to keep is computed from the singular values (traced)
# and then used as a slice bound under jit.
import jax
import jax.numpy as jnp


@jax.jit
def truncated(a, max_truncation_err):
    u, s, vh = jnp.linalg.svd(a)
    num_sing_vals_err = jnp.sum(s > max_truncation_err)
    keep = min(a.shape[0], num_sing_vals_err)
    return u[:, :keep] * s[:keep]


if __name__ == "__main__":
    print(truncated(jnp.eye(4) * jnp.arange(1.0, 5.0), 2.5))
