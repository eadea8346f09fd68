"""A flax nnx model whose __call__ branches on a traced value."""

import jax
import jax.numpy as jnp
from flax import nnx


class Block(nnx.Module):
    def __init__(self, din, dout, rngs):
        self.linear = nnx.Linear(din, dout, rngs=rngs)

    def __call__(self, x):
        y = self.linear(x)
        if y.mean() > 0:  # sharp: JAX110
            y = jax.nn.relu(y)
        return y


@nnx.jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    model = Block(4, 8, nnx.Rngs(0))
    print(forward(model, jnp.ones((2, 4))))
