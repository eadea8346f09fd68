# source: https://github.com/blackjax-devs/blackjax/issues/400
# family: prng
# expect: JAX201
# check: stdout:identical towers: True
# A user eqx.Module whose __init__ draws from its key, constructed twice with one key:
# the two towers of the model are the same tower.
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
    left = Tower(key)
    right = Tower(key)
    print("identical towers:", bool(jnp.all(left.w == right.w)))
