"""maxtext MaxText/inference_microbenchmark.py:40-101 (JAX208, 4 findings before the fix):
each benchmark function seeds its own loop with `PRNGKey(1234)` and is called once per prefill
length, its result stored per configuration. Repeating the same keys per configuration is
deliberate (reproducible benchmarks), also when a benchmark carries a state from one call to the
next (`insert_benchmark`): it reads a clock, itself or through the functions it calls. A step
whose result is carried into the next iteration
(`state = step(state)`) with a fixed seed inside is the bug."""

import datetime

import jax


def benchmark_loop(engine, tokens, iters):
    rng = jax.random.PRNGKey(1234)
    for _ in range(iters):
        rng, rng_prefill = jax.random.split(rng)
        result = engine.prefill(tokens, rng=rng_prefill)
    return result


def benchmark(engine, tokens, iters):
    rng = jax.random.PRNGKey(1234)
    for _ in range(3):
        rng, rng_prefill = jax.random.split(rng)
        engine.prefill(tokens, rng=rng_prefill)
    return benchmark_loop(engine, tokens, iters)


def run(engine, tokens_by_length, iters):
    results = {}
    for length, tokens in tokens_by_length.items():
        results[length] = benchmark(engine, tokens, iters)
    return results


def noisy_step(state):
    key = jax.random.PRNGKey(0)  # error: JAX208
    return state + jax.random.normal(key, state.shape)


def simulate(state, n):
    for _ in range(n):
        state = noisy_step(state)
    return state


def insert_benchmark_loop(engine, state, iters):
    start = datetime.datetime.now()
    rng = jax.random.PRNGKey(1234)
    for _ in range(iters):
        rng, rng_prefill = jax.random.split(rng)
        state = engine.insert(engine.prefill(rng=rng_prefill), state)
    return (datetime.datetime.now() - start).total_seconds(), state


def insert_benchmark(engine, state, iters):
    rng = jax.random.PRNGKey(1234)
    for _ in range(3):
        rng, rng_prefill = jax.random.split(rng)
        state = engine.insert(engine.prefill(rng=rng_prefill), state)
    return insert_benchmark_loop(engine, state, iters)


def run_inserts(engine, state, lengths, iters):
    times = {}
    for length in lengths:
        times[length], state = insert_benchmark(engine, state, iters)
    return times, state
