# source: https://github.com/patrick-kidger/equinox/issues/788
# family: prng
# The issue's own code: one subkey per layer.
import equinox as eqx
import jax
import jax.numpy as jnp


class MLPeqx(eqx.Module):
    layers: list

    def __init__(self, hidden_dims, key):
        keys = jax.random.split(key, len(hidden_dims) - 1)
        self.layers = [
            eqx.nn.Linear(hidden_dims[i], hidden_dims[i + 1], key=keys[i])
            for i in range(len(hidden_dims) - 1)
        ]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x)


if __name__ == "__main__":
    mlp = MLPeqx([4, 4, 4, 4, 1], jax.random.PRNGKey(0))
    a, b = mlp.layers[1].weight, mlp.layers[2].weight
    print("identical hidden layers:", bool(jnp.all(a == b)))
