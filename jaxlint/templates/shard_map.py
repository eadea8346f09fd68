"""Per-device code with `jax.shard_map`: explicit in_specs/out_specs and collectives.

Data-parallel gradients, two correct forms:
  A. check_vma=True (the default): differentiate the globally averaged loss (pmean inside
     the differentiated function). The gradient of a replicated P() input comes out already
     summed over devices; the verbatim pmap body (grad of the local loss, then pmean of the
     grad) would give a gradient N times too large here.
  B. check_vma=False (what pmap does internally): the verbatim pmap body, with the
     gradient averaged explicitly by pmean.
Try it on CPU with XLA_FLAGS=--xla_force_host_platform_device_count=8 (set before importing jax).
Needs JAX >= 0.7.1 (`jax.set_mesh`; JAX 0.6 spells the mesh context differently).
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

LEARNING_RATE = 0.1
NUM_STEPS = 3


def loss_fn(w: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((x @ w - y) ** 2)


# No mesh= argument: shard_map takes the mesh set by `jax.set_mesh` when the step is traced.
@partial(jax.jit, donate_argnums=0)
@partial(jax.shard_map, in_specs=(P(), P("batch"), P("batch")), out_specs=(P(), P()))
def step_a(w: jax.Array, x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    def global_loss(w):
        return jax.lax.pmean(loss_fn(w, x, y), "batch")

    loss, grad = jax.value_and_grad(global_loss)(w)  # grad is already summed over devices
    return w - LEARNING_RATE * grad, loss


@partial(jax.jit, donate_argnums=0)
@partial(
    jax.shard_map, in_specs=(P(), P("batch"), P("batch")), out_specs=(P(), P()), check_vma=False
)
def step_b(w: jax.Array, x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    loss, grad = jax.value_and_grad(loss_fn)(w, x, y)  # per-device gradient
    grad = jax.lax.pmean(grad, "batch")
    return w - LEARNING_RATE * grad, jax.lax.pmean(loss, "batch")


@jax.jit
def global_norm(x: jax.Array) -> jax.Array:
    # Another collective: each device reduces its block, psum combines the partial sums.
    @partial(jax.shard_map, in_specs=P("batch"), out_specs=P())
    def norm(block):
        return jnp.sqrt(jax.lax.psum(jnp.sum(block**2), "batch"))

    return norm(x)


def main() -> None:
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("batch",))  # Explicit axes by default in JAX 0.10

    key_w, key_x, key_y = jax.random.split(jax.random.key(0), 3)
    w0 = jax.random.normal(key_w, (4,), jnp.float32)
    x = jax.random.normal(key_x, (16 * n, 4), jnp.float32)
    y = x @ jnp.arange(1.0, 5.0, dtype=jnp.float32) + 0.1 * jax.random.normal(key_y, (16 * n,))

    # Reference on one device, without shard_map.
    ref_w = w0
    for _ in range(NUM_STEPS):
        ref_loss, ref_grad = jax.value_and_grad(loss_fn)(ref_w, x, y)
        ref_w = ref_w - LEARNING_RATE * ref_grad

    replicated = NamedSharding(mesh, P())
    batched = NamedSharding(mesh, P("batch"))
    # With an Explicit mesh, in_specs are checked against the inputs: place them first.
    x_s = jax.device_put(x, batched)
    y_s = jax.device_put(y, batched)
    # The steps donate (delete) w. device_put may reuse w0's buffer for the shard on w0's
    # device, so give each run its own copy or the first donation deletes w0 and w_b too.
    w_a = jax.device_put(jnp.copy(w0), replicated)
    w_b = jax.device_put(jnp.copy(w0), replicated)
    with jax.set_mesh(mesh):
        for _ in range(NUM_STEPS):
            w_a, loss_a = step_a(w_a, x_s, y_s)
            w_b, loss_b = step_b(w_b, x_s, y_s)
        norm = global_norm(x_s)

    for w, loss in ((w_a, loss_a), (w_b, loss_b)):
        np.testing.assert_allclose(np.asarray(w), np.asarray(ref_w), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(loss), np.asarray(ref_loss), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(w_a), np.asarray(w_b), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(norm), np.linalg.norm(np.asarray(x)), rtol=1e-5)
    print(f"{n} devices: A == B == single-device reference, w = {np.asarray(w_a)}")


if __name__ == "__main__":
    main()
