# source: https://github.com/AUTODIAL/AutoEIS/issues/46
# family: prng
# The fix: the key is built once from the seed and passed in, one subkey per epoch.
import jax
import jax.numpy as jnp

cfg = {"seed": 42, "epochs": 3, "n": 16}


def shuffled_batches(key, data):
    perm = jax.random.permutation(key, data.shape[0])
    return data[perm].reshape(4, -1)


if __name__ == "__main__":
    data = jnp.arange(cfg["n"])
    key = jax.random.PRNGKey(cfg["seed"])
    orders = []
    for epoch in range(cfg["epochs"]):
        key, sub = jax.random.split(key)
        orders.append(shuffled_batches(sub, data))
    print("same shuffle:", all(bool(jnp.all(o == orders[0])) for o in orders))
