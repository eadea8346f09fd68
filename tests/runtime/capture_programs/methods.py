"""Models as classes: state on `self`, a flax.linen module with a field, shapes from the data."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, dim):
        self.scale = jnp.linspace(0.5, 1.5, dim)
        self.offset = 0.1

    def apply(self, x):
        rows, cols = x.shape
        return x * self.scale[:cols] + self.offset

    def fit(self, xs):
        out = []
        for x in xs:
            out.append(jax.jit(self.apply)(x))
        return out

    def noisy(self, key, x):
        a = jax.random.normal(key, x.shape)
        b = jax.random.normal(key, x.shape)
        return self.apply(x) + a * b


class Gate(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        return h[h > 0].sum()


if __name__ == "__main__":
    scaler = Scaler(6)
    batch = jnp.ones((4, 6))
    scaler.fit([batch, batch * 2, batch * 3])
    scaler.noisy(jax.random.key(1), batch)
    gate = Gate(features=3)
    try:
        variables = gate.init(jax.random.key(0), batch)
        print(jax.jit(gate.apply)(variables, batch))
    except Exception as exc:
        print(type(exc).__name__)
