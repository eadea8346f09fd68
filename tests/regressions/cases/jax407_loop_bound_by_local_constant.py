"""JAX407: a loop whose bound is a local name assigned once to an int literal
(`num_outer_steps = 1` ... `for o_t in range(num_outer_steps)`) runs that many steps: a
one-step loop repeats nothing, so a constant converted in it is converted once
(analysis/loops.py `PerStep._local_int`).

Reduced from rohitchawla28/social-jax fixed_policy/coop_mining_gold.py:310-353 (v24 check
set, FP x3, tuning material). The marked line is a near miss: a bound that is a parameter
(`steps`) is not known, and a constant converted in every step of that loop is reported.
"""

import jax
import jax.numpy as jnp


def render(env, rng, steps):
    num_outer_steps = 1
    for _ in range(num_outer_steps):
        rng, subkey = jax.random.split(rng)
        positions = jnp.array([[17, 3, 0], [18, 4, 1], [19, 3, 2]])
        env = env.reset(subkey, positions)
    for _ in range(steps):
        probs = jnp.array([0.1, 0.2, 0.3, 0.4])  # error: JAX407
        rng, subkey = jax.random.split(rng)
        env = env.step(subkey, probs)
    return env
