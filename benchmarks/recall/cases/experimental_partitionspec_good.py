# source: https://github.com/jax-ml/jax/issues/13487
# family: removed-api
# The fix: the public jax.sharding endpoints.
import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()), ("data",))
    x = jax.device_put(np.arange(8.0), NamedSharding(mesh, PartitionSpec("data")))
    print(x.sharding)
