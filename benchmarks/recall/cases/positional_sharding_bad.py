# source: https://github.com/SparkyTruck/deepmd-jax/issues/18
# family: removed-api
# expect: JAX809
# check: error:ImportError
# deepmd-jax sharded its batches with jax.sharding.PositionalSharding, which newer JAX
# removed in favour of NamedSharding.
import jax
import jax.numpy as jnp
from jax.sharding import PositionalSharding

if __name__ == "__main__":
    sharding = PositionalSharding(jax.devices()).reshape(-1, 1)
    coords = jax.device_put(jnp.ones((len(jax.devices()) * 4, 3)), sharding)
    print(coords.sharding)
