"""jax-noprop ct.py/fm.py: one dropout key passed to several self.apply(method=...) calls.

Different submodules (encoder / crn_model / decoder) fold their scope name into the key, so their
masks are independent; two applies that reach the same submodule (crn_output and dz_dt, which calls
crn_output) draw the same mask.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Enc(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5)(x, deterministic=False)


class Dec(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5)(x, deterministic=False)


class M(nn.Module):
    def setup(self):
        self.crn = Enc()

    def crn_output(self, x):
        return self.crn(x)

    def dz_dt(self, x):
        return self.crn_output(x) * 1.0

    @nn.compact
    def encoder(self, x):
        return Enc()(x)

    @nn.compact
    def decoder(self, x):
        return Dec()(x)

    def __call__(self, x):
        return self.encoder(x) + self.decoder(x) + self.crn_output(x)


m = M()
x = jnp.ones((64,))
k = jax.random.PRNGKey(0)
p = m.init({"params": k, "dropout": k}, x)
e = m.apply(p, x, method="encoder", rngs={"dropout": k}) != 0
d = m.apply(p, x, method="decoder", rngs={"dropout": k}) != 0
c = m.apply(p, x, method="crn_output", rngs={"dropout": k}) != 0
z = m.apply(p, x, method="dz_dt", rngs={"dropout": k}) != 0
print("encoder mask == decoder mask:", bool((e == d).all()))
print("encoder mask == crn mask:", bool((e == c).all()))
print("crn_output mask == dz_dt mask:", bool((c == z).all()))
