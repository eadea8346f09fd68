"""A function called once per size of a sweep, whose jitted closures read arrays a helper
draws with that size in their shape, needs a program per size: the jit made per call
compiles nothing that one jit outside could share (`PerStep.step_picks_program`, one call
level further: `loops._hands_to_structure`). The twin sweeps seeds with one shape: one
jitted function taking the arrays as arguments would compile once.

From a v38 candidate never linted before (tuning material, stop 54): derivon-ai/omnibias
`benchmarks/laplacian_scaling.py:68/80/91`: `_run_d(d)` for each dimension `d`, whose
`_params(d, key)` draws `normal(k, (B, d))`, jits closures over those arrays (JAX401 x3).
"""

import jax
import jax.numpy as jnp

B = 64
DS = (2, 4, 8, 16, 32, 64)
SEEDS = tuple(range(8))


def _params(d, key):
    k1, k2 = jax.random.split(key)
    return jax.random.normal(k1, (d, d)), jax.random.normal(k2, (B, d))


def _run_d(d):
    w, x = _params(d, jax.random.PRNGKey(d))

    def energy():
        return jnp.sum(jnp.tanh(x @ w))

    energy_jit = jax.jit(energy)
    return energy_jit().block_until_ready()


def _run_seed(seed):
    w, x = _params(8, jax.random.PRNGKey(seed))

    def energy():
        return jnp.sum(jnp.tanh(x @ w))

    energy_jit = jax.jit(energy)  # error: JAX401
    return energy_jit().block_until_ready()


def main():
    by_size = [_run_d(d) for d in DS]
    by_seed = [_run_seed(s) for s in SEEDS]
    return by_size, by_seed
