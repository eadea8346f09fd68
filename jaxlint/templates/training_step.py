"""A jitted training step: donated state, explicit key plumbing, SGD with momentum.

Plain JAX; the update is what `optax.sgd(lr, momentum)` computes, written with jax.tree.map.
"""

from functools import partial

import jax
import jax.numpy as jnp

Params = list[dict[str, jax.Array]]

LEARNING_RATE = 0.05
MOMENTUM = 0.9
BATCH_SIZE = 32
NUM_STEPS = 200
LOG_EVERY = 50


def init_params(key: jax.Array, sizes: tuple[int, ...]) -> Params:
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {
            "w": jax.random.normal(k, (m, n), jnp.float32) / jnp.sqrt(jnp.float32(m)),
            "b": jnp.zeros((n,), jnp.float32),
        }
        for k, m, n in zip(keys, sizes[:-1], sizes[1:])
    ]


def predict(params: Params, x: jax.Array) -> jax.Array:
    for layer in params[:-1]:  # a few layers: a small static unroll is fine
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss_fn(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((predict(params, x) - y) ** 2)


# Donating params and momentum lets XLA write the new state into the old buffers;
# the caller must rebind them to the results and never read the old arrays again.
@partial(jax.jit, donate_argnums=(0, 1))
def train_step(
    params: Params, velocity: Params, key: jax.Array, data_x: jax.Array, data_y: jax.Array
) -> tuple[Params, Params, jax.Array]:
    # The batch is drawn on device from a fresh subkey: no host round trip per step.
    idx = jax.random.randint(key, (BATCH_SIZE,), 0, data_x.shape[0])
    loss, grads = jax.value_and_grad(loss_fn)(params, data_x[idx], data_y[idx])
    velocity = jax.tree.map(lambda v, g: MOMENTUM * v + g, velocity, grads)
    params = jax.tree.map(lambda p, v: p - LEARNING_RATE * v, params, velocity)
    return params, velocity, loss


def main() -> None:
    key = jax.random.key(0)
    key, data_key, noise_key, init_key = jax.random.split(key, 4)

    # A toy regression problem, created once and kept on device.
    data_x = jax.random.uniform(data_key, (1024, 2), jnp.float32, -2.0, 2.0)
    data_y = jnp.sin(data_x[:, :1]) * jnp.cos(data_x[:, 1:])
    data_y = data_y + 0.01 * jax.random.normal(noise_key, data_y.shape, jnp.float32)

    params = init_params(init_key, (2, 32, 32, 1))
    velocity = jax.tree.map(jnp.zeros_like, params)
    first_loss = float(loss_fn(params, data_x, data_y))

    losses = []
    for step in range(NUM_STEPS):
        key, step_key = jax.random.split(key)
        params, velocity, loss = train_step(params, velocity, step_key, data_x, data_y)
        if step % LOG_EVERY == 0 or step == NUM_STEPS - 1:
            # float() waits for the device; do it only when logging.
            losses.append(float(loss))
            print(f"step {step:4d}  loss {losses[-1]:.4f}")

    final_loss = float(loss_fn(params, data_x, data_y))
    print(f"full-data loss {first_loss:.4f} -> {final_loss:.4f}")
    assert final_loss < 0.5 * first_loss, (first_loss, final_loss)


if __name__ == "__main__":
    main()
