# source: https://github.com/blackjax-devs/blackjax/issues/805
# family: pmap
# expect: JAX301
# check: runs
# Sampling several chains with jax.pmap (deprecated in favour of jit/shard_map per the
# issue); it still runs here, the finding is a migration advisory.
import jax
import jax.numpy as jnp


def run_chain(key):
    def step(x, k):
        x = x + 0.1 * jax.random.normal(k)
        return x, x

    _, xs = jax.lax.scan(step, 0.0, jax.random.split(key, 100))
    return xs.mean()


if __name__ == "__main__":
    keys = jax.random.split(jax.random.key(0), jax.local_device_count())
    print(jax.pmap(run_chain)(keys))
