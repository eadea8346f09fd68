# source: https://github.com/AI-Hypercomputer/maxtext/pull/2527
# family: removed-api
# expect: JAX802
# check: warning:jax.experimental.shard_map is deprecated
# The experimental shard_map import (deprecated in 0.8.0) with check_rep.
import jax
import jax.numpy as jnp
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P


def allreduce_sum(x):
    mesh = Mesh(jax.devices()[:1], ("data",))
    f = shard_map(lambda y: jax.lax.psum(y, "data"), mesh=mesh, in_specs=P("data"),
                  out_specs=P(), check_rep=False)
    return f(x)


if __name__ == "__main__":
    print(allreduce_sum(jnp.ones(4)))
