# source: https://github.com/AI-Hypercomputer/maxtext/pull/2527
# family: removed-api
# The migration: jax.shard_map with check_vma.
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P


def allreduce_sum(x):
    mesh = Mesh(jax.devices()[:1], ("data",))
    f = jax.shard_map(lambda y: jax.lax.psum(y, "data"), mesh=mesh, in_specs=P("data"),
                      out_specs=P(), check_vma=False)
    return f(x)


if __name__ == "__main__":
    print(allreduce_sum(jnp.ones(4)))
