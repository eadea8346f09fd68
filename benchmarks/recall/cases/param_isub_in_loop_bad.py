# source: https://github.com/jax-ml/jax/issues/226
# family: mutation
# expect: JAX505
# check: stdout:updated: False
# `param -= lr * gradient` over zip(params, grads) rebinds the loop variable only: the
# list of JAX arrays is not updated (NumPy would update in place).
import jax
import jax.numpy as jnp


def loss(params):
    return sum(jnp.sum(p**2) for p in params)


if __name__ == "__main__":
    params = [jnp.ones(2), jnp.ones(3)]
    learning_rate = 0.1
    grads = jax.grad(loss)(params)
    for param, gradient in zip(params, grads):
        param -= learning_rate * gradient
    print("updated:", bool(params[0][0] != 1.0))
