# source: https://github.com/unifyai/ivy/pull/16255
# family: host-conversion
# expect: JAX101
# check: error:TracerArrayConversionError
# A layer converts its input with numpy's asarray; under jit the input is a tracer.
import jax
import jax.numpy as jnp
import numpy as np


class Linear:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        x = np.asarray(x)
        return x @ self.w


def forward(params, x):
    layer = Linear(params)
    return jnp.tanh(layer(x))


if __name__ == "__main__":
    print(jax.jit(forward)(jnp.ones((2, 3)), jnp.ones((4, 2))))
