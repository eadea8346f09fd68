"""tapnet trajan/track_autoencoder.py:68 (JAX120): a flax linen `__call__` argument that its
only caller passes as a shape tuple built from `x.shape` (`(inputs["tracks"].shape[0],)`) is
static."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class ParamStateInit(nn.Module):
    shape: tuple[int, ...]

    @nn.compact
    def __call__(self, batch_shape):
        param = self.param("state_init", nn.initializers.normal(), self.shape)
        return jnp.broadcast_to(param, batch_shape + param.shape)


class TrackAutoEncoder(nn.Module):
    def setup(self):
        self.initializer = ParamStateInit(shape=(4, 8))

    def encode(self, inputs):
        return self.initializer(batch_shape=(inputs["tracks"].shape[0],))

    def __call__(self, inputs):
        return self.encode(inputs)


m = TrackAutoEncoder()
x = {"tracks": jnp.ones((2, 5))}
params = m.init(jax.random.key(0), x)
print(jax.jit(m.apply)(params, x).shape)
