# source: https://github.com/blackjax-devs/blackjax/issues/400
# family: prng
# The fix: split first.
import equinox as eqx
import jax
import jax.numpy as jnp


class Tower(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (4, 4))

    def __call__(self, x):
        return jnp.tanh(self.w @ x)


if __name__ == "__main__":
    key = jax.random.PRNGKey(1)
    left_key, right_key = jax.random.split(key)
    left = Tower(left_key)
    right = Tower(right_key)
    print("identical towers:", bool(jnp.all(left.w == right.w)))
