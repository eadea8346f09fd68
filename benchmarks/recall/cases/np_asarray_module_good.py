# source: https://github.com/unifyai/ivy/pull/16255
# family: host-conversion
# The fix (as merged): jnp.asarray instead of np.asarray.
import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        x = jnp.asarray(x)
        return x @ self.w


def forward(params, x):
    layer = Linear(params)
    return jnp.tanh(layer(x))


if __name__ == "__main__":
    print(jax.jit(forward)(jnp.ones((2, 3)), jnp.ones((4, 2))))
