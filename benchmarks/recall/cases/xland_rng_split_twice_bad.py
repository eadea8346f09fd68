# source: https://github.com/dunnolab/xland-minigrid/issues/42
# family: prng
# expect: JAX201
# check: keyreuse
# The meta-task training script splits `rng` into three, then splits the same `rng` again
# for the rulesets and once more for the resets: both batches of per-env keys are the
# same keys (the typo the maintainer confirmed: _rng1 and _rng2 were meant).
import jax

NUM_ENVS = 4


def make_env_keys(rng):
    rng, _rng1, _rng2 = jax.random.split(rng, num=3)
    ruleset_rng = jax.random.split(rng, num=NUM_ENVS)
    reset_rng = jax.random.split(rng, num=NUM_ENVS)
    return rng, ruleset_rng, reset_rng


if __name__ == "__main__":
    rng, ruleset_rng, reset_rng = make_env_keys(jax.random.PRNGKey(0))
    rulesets = jax.vmap(lambda k: jax.random.randint(k, (), 0, 100))(ruleset_rng)
    resets = jax.vmap(lambda k: jax.random.randint(k, (), 0, 100))(reset_rng)
    print(rulesets, resets)
