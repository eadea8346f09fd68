"""A small MLP trained on synthetic data: params are a pytree, shapes come from the data."""

import jax
import jax.numpy as jnp


def init_params(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        w = jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
        b = jax.random.normal(key, (n_out,)) * 0.0
        params.append({"w": w, "b": b})
    return params


def forward(params, x):
    batch, features = x.shape
    h = x.reshape(batch, features)
    for layer in params[:-1]:
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
    last = params[-1]
    return h @ last["w"] + last["b"]


@jax.jit
def loss_fn(params, x, y):
    pred = forward(params, x)
    return jnp.mean((pred - y) ** 2)


@jax.jit
def clipped_loss(params, x, y):
    err = loss_fn(params, x, y)
    if err > 100.0:
        err = err / 10.0
    return err


@jax.jit
def train_step(params, x, y, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    print("loss", float(loss))
    new = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    return new, loss


def evaluate(params, batches):
    total = 0.0
    for x, y in batches:
        total += jax.jit(lambda p, a, b: loss_fn(p, a, b))(params, x, y)
    return total / len(batches)


if __name__ == "__main__":
    key = jax.random.key(0)
    params = init_params(key, [16, 32, 4])
    x = jnp.ones((8, 16))
    y = jnp.zeros((8, 4))
    for _ in range(3):
        try:
            params, loss = train_step(params, x, y, 0.1)
        except Exception as exc:  # the sharp bit stops the step
            print(type(exc).__name__)
            break
    try:
        print(clipped_loss(params, x, y))
    except Exception as exc:
        print(type(exc).__name__)
    print(evaluate(params, [(x, y)] * 3))
