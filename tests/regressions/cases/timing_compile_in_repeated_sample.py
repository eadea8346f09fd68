"""JAX602: a timing inside a method (or a function a loop calls every step) is a repeated sample;
only its first call includes the compile of a function jitted elsewhere (issue 23, "benchmarking").

Reduced from google/evojax evojax/sim_mgr.py:286-302 (tuning half of the fresh corpus): the
steps/s debug log of `SimManager._for_loop_eval`, called every generation. The marked line is
the true positive kept next to the near miss (a script's `main`, run once).
"""

import time

import jax
import jax.numpy as jnp


@jax.jit
def update_score(score, reward):
    return score + reward


class SimManager:
    def evaluate(self, rewards):
        scores = jnp.zeros(3)
        start = time.perf_counter()
        for reward in rewards:
            scores = update_score(scores, reward)
        scores.block_until_ready()
        print("steps/s", len(rewards) / (time.perf_counter() - start))
        return scores


@jax.jit
def train_step(params, x):
    return params - 0.1 * x


def main(params, x):
    t0 = time.perf_counter()
    params = train_step(params, x)  # error: JAX602
    params.block_until_ready()
    print("step took", time.perf_counter() - t0)
