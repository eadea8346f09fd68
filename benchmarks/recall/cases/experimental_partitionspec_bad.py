# source: https://github.com/jax-ml/jax/issues/13487
# family: removed-api
# expect: JAX809 JAX810 JAX804
# check: error:ImportError
# jax.experimental.PartitionSpec (and jax.experimental.maps.Mesh) were deprecated for
# removal in favour of jax.sharding; code still importing them no longer runs.
import jax
import numpy as np
from jax.experimental import PartitionSpec
from jax.sharding import Mesh, NamedSharding

if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()), ("data",))
    x = jax.device_put(np.arange(8.0), NamedSharding(mesh, PartitionSpec("data")))
    print(x.sharding)
