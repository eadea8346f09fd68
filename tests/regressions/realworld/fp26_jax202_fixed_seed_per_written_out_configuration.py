"""JAX202 FP: a fixed seed inside a loop over a list of configurations written out in the
source (`enumerate([ContinuousEnv(), DiscreteEnv()])`, one `subTest` each). Every configuration
gets the same draws on purpose (common random numbers), and the draws are used and dropped
within the iteration, so nothing repeats across steps of one computation.

From keraJLi/rejax tests/test_ppo.py:70-93 and tests/test_sac.py:43-169.
"""
import jax
import jax.numpy as jnp


class ContinuousEnv:
    scale = 1.0


class DiscreteEnv:
    scale = 2.0


def make_act(env):
    return lambda obs, rng: env.scale * obs + 0.01 * jax.random.normal(rng)


def test_act_is_near_best():
    for discrete, env in enumerate([ContinuousEnv(), DiscreteEnv()]):
        act = make_act(env)
        rngs = jax.random.split(jax.random.PRNGKey(0), 10)
        actions = jax.vmap(act, in_axes=(None, 0))(jnp.array(1.0), rngs)
        assert jnp.allclose(actions, env.scale, atol=0.1)

        rng = jax.random.PRNGKey(0)
        obs = jax.random.uniform(rng, (10, 1), minval=-1, maxval=1)
        assert (jnp.abs(obs) <= 1).all()


test_act_is_near_best()
