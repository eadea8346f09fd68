# source: https://github.com/sandialabs/WecOptTool/issues/427
# family: mutation
# The fix from the issue: .at[].set().
import jax
import jax.numpy as jnp


def mimo_transfer_mat(gains, n):
    mat = jnp.zeros((2 * n, 2 * n))
    for i in range(n):
        mat = mat.at[2 * i : 2 * i + 2, 2 * i : 2 * i + 2].set(gains[i] * jnp.eye(2))
    return mat


def energy(gains):
    return jnp.sum(mimo_transfer_mat(gains, 3) ** 2)


if __name__ == "__main__":
    print(jax.grad(energy)(jnp.arange(1.0, 4.0)))
