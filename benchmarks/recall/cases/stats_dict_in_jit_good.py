# source: https://github.com/jax-ml/jax/pull/5905
# family: side-effects
# The fix: update the Python counter in the Python loop.
import jax
import jax.numpy as jnp

stats = {"examples": 0}


@jax.jit
def train_step(w, batch):
    return w - 0.01 * jnp.mean(batch, axis=0)


if __name__ == "__main__":
    w = jnp.zeros(2)
    for _ in range(5):
        batch = jnp.ones((8, 2))
        w = train_step(w, batch)
        stats["examples"] += batch.shape[0]
    print("examples seen:", stats["examples"])
