"""Data-parallel evaluation under shard_map: the reduced loss is logged as a Python float."""

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((len(jax.devices()),), ("batch",))


def eval_step(params, x, y):
    pred = x @ params
    loss = jax.lax.pmean(jnp.mean((pred - y) ** 2), "batch")
    print("eval loss", float(loss))  # sharp: JAX101
    return loss


evaluate = jax.jit(
    jax.shard_map(eval_step, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=P())
)

if __name__ == "__main__":
    n = len(jax.devices())
    params = jnp.ones((4, 1))
    x = jnp.ones((16 * n, 4))
    y = jnp.zeros((16 * n, 1))
    print(evaluate(params, x, y))  # sharp: JAX304
