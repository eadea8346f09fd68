"""An equinox MLP: the model is a pytree of arrays and static ints, the loss is filter_jit-ed."""

import equinox as eqx
import jax
import jax.numpy as jnp


class MLP(eqx.Module):
    layers: list

    def __init__(self, sizes, key):
        keys = jax.random.split(key, len(sizes) - 1)
        self.layers = [eqx.nn.Linear(a, b, key=k) for a, b, k in zip(sizes[:-1], sizes[1:], keys)]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x)


@eqx.filter_jit
def loss(model, x, y):
    pred = jax.vmap(model)(x)
    value = jnp.mean((pred - y) ** 2)
    print("loss", float(value))
    return value


@eqx.filter_jit
def accuracy(model, x, labels):
    logits = jax.vmap(model)(x)
    hits = logits.argmax(axis=-1) == labels
    return hits[hits].size / labels.shape[0]


if __name__ == "__main__":
    model = MLP([5, 8, 3], jax.random.key(0))
    x = jnp.ones((16, 5))
    y = jnp.zeros((16, 3))
    labels = jnp.zeros((16,), dtype=jnp.int32)
    for fn, target in ((loss, y), (accuracy, labels)):
        try:
            print(fn(model, x, target))
        except Exception as exc:
            print(type(exc).__name__)
