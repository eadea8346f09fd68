"""A benchmark that times through a context-manager class of the module (`with Timer() as
t:`, the clock read in `__enter__`/`__exit__`) repeats its fixed inputs on purpose, and so do
the functions it calls (v14 tuning half, allen_v1_chen_2022_jax `scripts/benchmark.py:160`
and `:307`: `jax.random.PRNGKey(42)` in a model factory and in the benchmark, JAX208 x2;
`flow/key_repeats.py`).

The twin: the same kind of factory called from a loop that reads no clock draws the same
numbers at every restart (JAX208 fires).
"""

import time

import jax


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *args):
        self.elapsed = time.perf_counter() - self.start


class Config:
    n = 64


def make_model(config):
    key = jax.random.PRNGKey(42)
    return jax.random.normal(key, (config.n, config.n))


def run_benchmark(config):
    w = make_model(config)
    with Timer() as t:
        (w @ w).block_until_ready()
    return t.elapsed


def make_noise(config):
    key = jax.random.PRNGKey(7)  # error: JAX208
    return jax.random.normal(key, (config.n,))


def restart(config):
    return make_noise(config).sum()


config = Config()
results = []
for n in (64, 128, 256):
    config.n = n
    results.append(run_benchmark(config))
restarts = []
for n in (64, 128, 256):
    config.n = n
    restarts.append(restart(config))
