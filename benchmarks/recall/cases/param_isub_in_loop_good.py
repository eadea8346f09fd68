# source: https://github.com/jax-ml/jax/issues/226
# family: mutation
# The workaround from the issue: build the new list.
import jax
import jax.numpy as jnp


def loss(params):
    return sum(jnp.sum(p**2) for p in params)


if __name__ == "__main__":
    params = [jnp.ones(2), jnp.ones(3)]
    learning_rate = 0.1
    grads = jax.grad(loss)(params)
    params = [param - learning_rate * gradient for param, gradient in zip(params, grads)]
    print("updated:", bool(params[0][0] != 1.0))
