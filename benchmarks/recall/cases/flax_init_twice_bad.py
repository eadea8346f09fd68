# source: https://github.com/p-doom/jasmine/pull/36
# family: prng
# expect: JAX201
# check: stdout:identical params: True
# The actor and the critic are initialised with the same key: both networks start from
# the same parameters (flax's init draws every parameter from the key it is given).
import flax.linen as nn
import jax
import jax.numpy as jnp


class MLP(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.features)(nn.relu(nn.Dense(16)(x)))


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jnp.ones((1, 8))
    actor, critic = MLP(4), MLP(4)
    actor_params = actor.init(key, x)
    critic_params = critic.init(key, x)
    same = jax.tree.map(lambda a, b: bool(jnp.all(a == b)), actor_params, critic_params)
    print("identical params:", all(jax.tree.leaves(same)))
