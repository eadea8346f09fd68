"""xland-minigrid scripts/benchmark_xland_all.py:97 and examples/walkthrough.ipynb (JAX202): a
benchmark loop over environment counts makes `jax.random.key(0)` in every iteration and times
the environment with it. The same keys for every configuration are deliberate: the loop reads a
clock (through `timeit_benchmark`). A loop that only trains with a constant seed is still flagged."""

import timeit

import jax
import numpy as np


def timeit_benchmark(benchmark_fn, num_iter=10):
    times = timeit.repeat(lambda: benchmark_fn().block_until_ready(), number=num_iter, repeat=3)
    return np.max(np.array(times) / num_iter)


def build_benchmark(num_envs):
    def run(keys):
        return jax.vmap(lambda k: jax.random.normal(k, (num_envs,)))(keys)

    return run


def main(envs_range, num_devices):
    stats = []
    for num_envs in envs_range:
        benchmark_fn = jax.jit(build_benchmark(num_envs))
        keys = jax.random.split(jax.random.key(0), num=num_devices)
        stats.append(num_envs / timeit_benchmark(lambda f=benchmark_fn, k=keys: f(k)))
    return stats


def train(x, num_steps):
    for _ in range(num_steps):
        keys = jax.random.split(jax.random.key(0), 2)  # error: JAX202
        x = x + jax.random.normal(keys[0], x.shape)
    return x
