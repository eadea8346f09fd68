"""dsjamieson/jax_nbody_emulator src/jax_nbody_emulator/layers.py, reduced: a flax.linen
convolution and an alias that fixes its kernel (`Conv3D = partial(ConvBase3D, ...)`): both
are in the module's summary as linen Modules (`ModuleSummary.linen_modules`). The near miss:
a plain class with an `init(key, x)` method that draws from the key it is given."""

from functools import partial

import flax.linen as nn
import jax


class ConvBase3D(nn.Module):
    out_chan: int
    kernel_size: int = 3

    @nn.compact
    def __call__(self, x):
        w = self.param("w", nn.initializers.lecun_normal(), (self.kernel_size, x.shape[-1]))
        return x @ w[0][:, None] * self.out_chan


Conv3D = partial(ConvBase3D, kernel_size=3)


class PlainLayer:
    def init(self, key, x):
        return {"w": jax.random.normal(key, x.shape)}
