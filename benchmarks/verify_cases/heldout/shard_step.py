"""A sharded training step: jax.jit(shard_map(...)) built at module level."""

import jax
import jax.numpy as jnp
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

mesh = Mesh(jax.devices(), ("data",))


def local_loss(w, x):
    pred = x @ w
    loss = jnp.mean(pred**2)
    print("local loss", float(loss))  # sharp: JAX101
    return jax.lax.pmean(loss, "data")


sharded_loss = jax.jit(
    jax.shard_map(local_loss, mesh=mesh, in_specs=(P(), P("data")), out_specs=P())
)

if __name__ == "__main__":
    n = len(jax.devices())
    w = jnp.ones((4, 2))
    x = jnp.ones((8 * n, 4))
    print(sharded_loss(w, x))
