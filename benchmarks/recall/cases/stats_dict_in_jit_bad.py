# source: https://github.com/jax-ml/jax/pull/5905
# family: side-effects
# expect: JAX502 JAX503
# check: stdout:examples seen: 8
# A module-level stats dict updated inside the jitted train step: it is updated when the
# step is traced, so after 5 steps of 8 examples it still says 8.
import jax
import jax.numpy as jnp

stats = {"examples": 0}


@jax.jit
def train_step(w, batch):
    stats["examples"] += batch.shape[0]
    return w - 0.01 * jnp.mean(batch, axis=0)


if __name__ == "__main__":
    w = jnp.zeros(2)
    for _ in range(5):
        w = train_step(w, jnp.ones((8, 2)))
    print("examples seen:", stats["examples"])
