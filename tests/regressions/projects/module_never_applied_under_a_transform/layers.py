import flax.linen as nn
import jax.numpy as jnp


class Gate(nn.Module):
    @nn.compact
    def __call__(self, x):
        if x.sum() > 0:  # error: JAX110
            return x
        return jnp.zeros_like(x)
