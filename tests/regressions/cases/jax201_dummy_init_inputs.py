"""A module's `init` runs the forward pass on its example inputs only to learn the shapes of
the parameters it creates, and discards the output: dummy inputs drawn from a key are no
use of its numbers (v15 rows, tuning material: JaxMulti-AgentRL
vapor_stuff/algos/vapor_lite.py:72-74, FlaxDiff archive/video_diffusion_example.ipynb
create_model, JAX201 x4; analysis/shape_only.py). And flax.linen never draws from the key
`init`/`apply` is given, only from keys folded with each module's path, so a `jax.random`
draw on the same key is independent of the parameters (jaxpp examples/basic.py:238/241,
JAX201 x1; `KeyDraws.folds_module_paths`; checked with flax 0.12). The twins: two `init`s
of same-shaped layers on one key (identical kernels), and a dummy input that is also data,
drawn from the key of another draw. A draw used only as the argument of a call a test expects to raise reads
no numbers either (jaxmodules tests/test_mapped_attention.py:1071, JAX201); its twin is
used after the `with` block."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import pytest


class Net(nn.Module):
    @nn.compact
    def __call__(self, inputs):
        obs, act = inputs
        return nn.Dense(1)(jnp.concatenate([obs.reshape(obs.shape[0], -1), act], -1))


def create_params(key, obs_shape):
    key, _key = jax.random.split(key)
    params = Net().init(
        _key,
        (
            jax.random.uniform(_key, (1, *obs_shape)),
            jax.random.uniform(_key, (1, 1)),
        ),
    )
    return params, key


def data_and_params(rng, shape):
    net = nn.Dense(4)
    data = jax.random.uniform(rng, shape)
    params = net.init(rng, data[0])
    return params, data


def dummy_then_noise(key, shape, net):
    x = jax.random.uniform(key, shape)
    params = net.init(jax.random.PRNGKey(1), x)
    noise = jax.random.normal(key, shape)
    return params, noise


def data_then_noise(key, shape, net):
    x = jax.random.uniform(key, shape)
    params = net.init(jax.random.PRNGKey(1), x)
    noise = jax.random.normal(key, shape)  # error: JAX201
    return params, noise, x


def actor_and_critic(rng, x):
    actor, critic = nn.Dense(4), nn.Dense(4)
    actor_params = actor.init(rng, x)
    critic_params = critic.init(rng, x)  # error: JAX201
    return actor_params, critic_params


def test_wrong_shape(masked_attention):
    key1, key2 = jax.random.split(jax.random.PRNGKey(42))
    q = jax.random.normal(key1, (4, 8))
    k = jax.random.normal(key2, (4, 8))
    k_wrong = jax.random.normal(key2, (4, 9))
    with pytest.raises(AssertionError):
        masked_attention(q, k_wrong)
    return masked_attention(q, k)


def test_wrong_shape_twin(masked_attention):
    key1, key2 = jax.random.split(jax.random.PRNGKey(42))
    q = jax.random.normal(key1, (4, 8))
    k = jax.random.normal(key2, (4, 8))
    k_other = jax.random.normal(key2, (4, 8))  # error: JAX201
    with pytest.raises(AssertionError):
        masked_attention(q, k_other)
    return masked_attention(q, k_other + k)
