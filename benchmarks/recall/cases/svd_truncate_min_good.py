# source: https://github.com/google/TensorNetwork/issues/953
# family: shapes
# The fix: keep the shape fixed and zero the dropped singular values.
import jax
import jax.numpy as jnp


@jax.jit
def truncated(a, max_truncation_err):
    u, s, vh = jnp.linalg.svd(a)
    s = jnp.where(s > max_truncation_err, s, 0.0)
    return u * s


if __name__ == "__main__":
    print(truncated(jnp.eye(4) * jnp.arange(1.0, 5.0), 2.5))
