"""A timer around a whole phase of a program (a training run logged as "Training complete",
an evaluation rollout stored as the `rollout_time` metric) reports that phase's wall time,
compilations included, as it includes environment steps and file writes: not a benchmark
of the function that compiles in it (v14 tuning rows, tuning material: starccato_jax
trainer.py:119-254 and varibad_jax rollout_atari.py / rollout_procgen.py, JAX602 x5). The
twins time the same first calls under a benchmark's label ("train step time", no label)."""

import logging
import time

import jax
import jax.numpy as jnp

logger = logging.getLogger(__name__)


def train(params, batches, save):
    step = jax.jit(lambda p, b: p - 0.1 * jnp.mean(b))
    t0 = time.time()
    for batch in batches:
        params = step(params, batch)
    save(params)
    logger.info(f"Training complete. (time: {time.time() - t0:.2f}s)")
    return params


def rollout(policy, env, metrics):
    act = jax.jit(policy)
    rollout_time = time.time()
    obs, done = env.reset(), False
    while not done:
        obs, _, done, _ = env.step(act(obs))
    rollout_time = time.time() - rollout_time
    metrics["rollout_time"] = rollout_time


def bench_step(params, batch):
    step = jax.jit(lambda p, b: p - 0.1 * jnp.mean(b))
    t0 = time.time()
    step(params, batch).block_until_ready()  # error: JAX602
    print(f"train step time: {time.time() - t0:.4f}s")


def bench_total(params, batch):
    step = jax.jit(lambda p, b: p - 0.1 * jnp.mean(b))
    t0 = time.time()
    step(params, batch).block_until_ready()  # error: JAX602
    dt = time.time() - t0
    print("elapsed", dt)
