# source: https://github.com/blackjax-devs/blackjax/issues/53
# family: prng
# The fix: one subkey per use.
import jax
import jax.numpy as jnp


def expand(rng_key, x, n):
    for _ in range(n):
        rng_key, step_key, direction_key = jax.random.split(rng_key, 3)
        x = x + jax.random.normal(step_key, x.shape)
        direction = jax.random.bernoulli(direction_key)
        x = jnp.where(direction, x, -x)
    return x


if __name__ == "__main__":
    print(expand(jax.random.PRNGKey(0), jnp.zeros(3), 4))
