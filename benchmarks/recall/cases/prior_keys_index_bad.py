# source: https://github.com/blackjax-devs/blackjax/issues/400
# family: prng
# expect: JAX201
# check: keyreuse
# keys[6] feeds two different priors (the u_sigma and v_sigma): the two scales
# are drawn from the same bits.
import jax
import jax.numpy as jnp


def init_positions(key):
    keys = jax.random.split(key, 8)
    u = jax.random.normal(keys[0], (3,))
    v = jax.random.normal(keys[1], (3,))
    u_sigma = jnp.exp(jax.random.normal(keys[6]))
    v_sigma = jnp.exp(jax.random.normal(keys[6]))
    return u, v, u_sigma, v_sigma


if __name__ == "__main__":
    print(init_positions(jax.random.PRNGKey(0)))
