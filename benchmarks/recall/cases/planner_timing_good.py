# source: https://github.com/anindex/gtmp/issues/1
# family: benchmarking
# The fix (the issue's): jax.block_until_ready(paths) before stopping the clock.
import time

import jax
import jax.numpy as jnp


@jax.jit
def gtmp(keys, state):
    def plan(key):
        pts = jax.random.normal(key, (512, 256))
        cost = jnp.tanh(pts @ state @ pts.T)
        return jnp.argmin(cost, axis=1)

    return jax.vmap(plan)(keys)


def run_planner(keys, state):
    start = time.perf_counter()
    paths = gtmp(keys, state)
    jax.block_until_ready(paths)
    planning_time = time.perf_counter() - start
    return paths, planning_time


if __name__ == "__main__":
    keys = jax.random.split(jax.random.PRNGKey(0), 20)
    state = jnp.eye(256)
    run_planner(keys, state)[0].block_until_ready()
    paths, planning_time = run_planner(keys, state)
    print(f"elapsed={planning_time:f}")
