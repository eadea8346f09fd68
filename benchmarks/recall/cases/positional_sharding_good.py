# source: https://github.com/SparkyTruck/deepmd-jax/issues/18
# family: removed-api
# The fix (the issue's): NamedSharding over a one-axis mesh.
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()), ("batch",))
    sharding = NamedSharding(mesh, PartitionSpec("batch", None))
    coords = jax.device_put(jnp.ones((len(jax.devices()) * 4, 3)), sharding)
    print(coords.sharding)
