"""Global-view sharding: a device mesh, NamedSharding placements and plain jitted code.

Write the program as if for one device; place the inputs with `jax.device_put` and the
compiler partitions the computation and inserts the collectives.
Try it on CPU with XLA_FLAGS=--xla_force_host_platform_device_count=8 (set before importing jax).
Needs JAX >= 0.7.1 (`jax.set_mesh`; JAX 0.6 spells the mesh context differently).
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P


def mesh_shape(n_devices: int) -> tuple[int, int]:
    """Split the devices into (data, model), model parallel over 2 devices when possible."""
    model = 2 if n_devices % 2 == 0 else 1
    return n_devices // model, model


def loss_fn(w: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((jnp.tanh(x @ w).sum(axis=-1) - y) ** 2)


@partial(jax.jit, donate_argnums=0)
def sgd_step(w: jax.Array, x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    # Global view: no axis names, no collectives; the gradient all-reduce is inserted by XLA.
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)
    return w - 0.1 * grad, loss


def main() -> None:
    n_data, n_model = mesh_shape(jax.device_count())
    # make_mesh defaults to Explicit axes in JAX 0.10; spelled out here for clarity.
    mesh = jax.make_mesh(
        (n_data, n_model), ("data", "model"), axis_types=(AxisType.Explicit, AxisType.Explicit)
    )
    print(mesh)

    key_x, key_y, key_w = jax.random.split(jax.random.key(0), 3)
    x = jax.random.normal(key_x, (16 * n_data, 8), jnp.float32)
    y = jax.random.normal(key_y, (16 * n_data,), jnp.float32)
    w = 0.1 * jax.random.normal(key_w, (8, 4 * n_model), jnp.float32)

    # Single-device reference, computed first: device_put may reuse w's buffer for one
    # shard, and the donating step below then deletes it.
    ref_loss, ref_grad = jax.value_and_grad(loss_fn)(w, x, y)
    ref_w = w - 0.1 * ref_grad

    with jax.set_mesh(mesh):
        # Batch split over "data", weight columns over "model".
        x_s = jax.device_put(x, NamedSharding(mesh, P("data", None)))
        y_s = jax.device_put(y, NamedSharding(mesh, P("data")))
        w_s = jax.device_put(w, NamedSharding(mesh, P(None, "model")))
        w_s, loss = sgd_step(w_s, x_s, y_s)

    print("x sharding:", x_s.sharding.spec, " new w sharding:", w_s.sharding.spec)
    assert w_s.sharding.spec == P(None, "model")
    assert len(x_s.addressable_shards) == jax.device_count()
    np.testing.assert_allclose(np.asarray(loss), np.asarray(ref_loss), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(w_s), np.asarray(ref_w), rtol=1e-5, atol=1e-6)


if __name__ == "__main__":
    main()
