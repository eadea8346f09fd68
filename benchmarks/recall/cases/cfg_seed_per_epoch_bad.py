# source: https://github.com/AUTODIAL/AutoEIS/issues/46
# family: prng
# expect: JAX208 JAX202
# check: stdout:same shuffle: True
# The seed comes from the config dict and the key is rebuilt from it on every epoch:
# every epoch sees the batches in the same order.
import jax
import jax.numpy as jnp

cfg = {"seed": 42, "epochs": 3, "n": 16}


def shuffled_batches(cfg, data):
    key = jax.random.PRNGKey(cfg["seed"])
    perm = jax.random.permutation(key, data.shape[0])
    return data[perm].reshape(4, -1)


if __name__ == "__main__":
    data = jnp.arange(cfg["n"])
    orders = [shuffled_batches(cfg, data) for epoch in range(cfg["epochs"])]
    print("same shuffle:", all(bool(jnp.all(o == orders[0])) for o in orders))
