# source: https://github.com/patrick-kidger/equinox/issues/788
# family: prng
# expect: JAX201
# check: stdout:identical hidden layers: True
# The MLP, with the layers built in a list comprehension from one key instead of
# tmp_key[i]: every hidden layer of the same shape starts from the same weights.
import equinox as eqx
import jax
import jax.numpy as jnp


class MLPeqx(eqx.Module):
    layers: list

    def __init__(self, hidden_dims, key):
        self.layers = [
            eqx.nn.Linear(hidden_dims[i], hidden_dims[i + 1], key=key)
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
