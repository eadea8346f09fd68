"""A static argument read from a registry the step loop never changes, by a key drawn at
random, is one of the same few objects every step: one compile per entry, then cache hits
(magvit trainers/lmgvt_trainer.py:581, `task = task_reg[task_ids[task_idx]]`; checked with JAX 0.12: 2
traces in 50 steps). The twin reads a schedule element by the step counter: a new value
every step (50 traces in 50 steps).
"""

import functools

import jax

TASKS = {"a": 1.0, "b": 2.0}
TASK_IDS = list(TASKS)


@functools.partial(jax.jit, static_argnums=(1,))
def train_step(x, task):
    return x * task


def train(x, rng, steps):
    for step in range(steps):
        idx = jax.random.choice(jax.random.fold_in(rng, step), len(TASK_IDS))
        task = TASKS[TASK_IDS[idx]]
        x = train_step(x, task)
    return x


def train_schedule(x, lrs, steps):
    for step in range(steps):
        x = train_step(x, lrs[step])  # error: JAX403
    return x
