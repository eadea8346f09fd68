"""Ziksby/MetaLearnCuriosity `agents/curious_agents/single_value_head_agents/byol_brax.py:162-700`
(v42 check set, JAX503 x57 across 17 scripts, read false): a loop over configurations changes
the module-level `config`, then builds `jax.jit(jax.vmap(ppo_make_train, ...))` and calls it.
`jax.vmap` returns a new function object on each call, so each pass traces afresh and reads
`config` as it is then, also when the wrapper is built at the top of the pass before the
change (checked on JAX 0.10.2 and 0.12.1; so do `jax.grad`,
`jax.value_and_grad` and `functools.partial`: `setup_calls.FRESH_WRAPPERS`). The near miss:
`jax.jit(make_eval)` of the plain def, rebuilt in the same loop, reuses the first trace (JAX
caches it on the function): the later configurations are ignored."""

import jax

config = {"LR": 0.1, "N": 3}


def make_train(rng):
    return jax.random.normal(rng, (config["N"],)) * config["LR"]


def make_train_first(rng):
    return jax.random.normal(rng, (config["N"],)) * config["LR"]


def make_eval(x):
    return x * config["LR"]  # error: JAX503


key = jax.random.PRNGKey(0)
for lr in (0.1, 0.2, 0.3):
    config["LR"] = lr
    params = jax.jit(jax.vmap(make_train))(jax.random.split(key, 2))
    score = jax.jit(make_eval)(params)
    print(lr, score.sum())


for lr in (0.1, 0.2, 0.3):
    # built at the top of the step, before the change: still a new function each step,
    # traced at its first call, after the change (reward_combiner_minatar.py:706-727)
    make = jax.jit(jax.vmap(make_train_first))
    config["LR"] = lr
    print(lr, make(jax.random.split(jax.random.PRNGKey(1), 2)).sum())
