"""JAX201 FP: a duplicated `a, b, c = split(key, 3)` line. The first line's keys are
overwritten at once by the second (identical) line, so only one set of keys is ever used.

From google-deepmind/mctx mctx/_src/tests/tree_test.py:52-53. The suggested fix (split the key
again) would change every sampled value and break the test's stored expected trees.
"""
import jax


def produce_prediction_output(rng_key, num_actions):
    policy_rng, value_rng, reward_rng = jax.random.split(rng_key, 3)
    policy_rng, value_rng, reward_rng = jax.random.split(rng_key, 3)
    del rng_key
    value = jax.random.uniform(value_rng, shape=(), minval=-1.0, maxval=1.0)
    reward = jax.random.uniform(reward_rng, shape=(), minval=-1.0, maxval=1.0)
    return dict(
        policy_logits=jax.random.normal(policy_rng, shape=[num_actions]),
        value=value,
        reward=reward,
    )


print(produce_prediction_output(jax.random.key(0), 3))
