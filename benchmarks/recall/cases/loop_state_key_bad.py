# source: https://github.com/blackjax-devs/blackjax/issues/53
# family: prng
# expect: JAX201
# check: keyreuse
# The key is consumed by the integrator step and also returned in the loop state, where
# the next iteration splits it again (the expand_once).
import jax
import jax.numpy as jnp


def expand(rng_key, x, n):
    for _ in range(n):
        rng_key, step_key = jax.random.split(rng_key)
        x = x + jax.random.normal(step_key, x.shape)
        direction = jax.random.bernoulli(step_key)
        x = jnp.where(direction, x, -x)
    return x


if __name__ == "__main__":
    print(expand(jax.random.PRNGKey(0), jnp.zeros(3), 4))
