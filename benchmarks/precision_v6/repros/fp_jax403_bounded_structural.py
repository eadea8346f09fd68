"""FP (preview JAX403), magvit trainers/lmgvt_trainer.py:583-621 and maskgvt_trainer.py:554-601
(task objects from a registry), ucl-dark/pax agents/lola/lola.py:553 (index over the opponents).

The static argument takes a few fixed values revisited every step (a Task object looked up in a
registry dict; a loop index over range(len(self.others)) that the jitted function uses in Python
control flow), so each value compiles once and every later step hits the cache; tracing it is
impossible (it selects Python objects). Twin: a learning rate computed from the step number is a
new value every step (that is the rule's case).
Run: JAX_PLATFORMS=cpu python fp_jax403_bounded_structural.py (counts the compiles)
"""

import functools

import jax
import jax.numpy as jnp

TRACES = []


class Task:
    def __init__(self, scale):
        self.scale = scale


TASKS = {"a": Task(1.0), "b": Task(2.0)}
TASK_IDS = list(TASKS)


@functools.partial(jax.jit, static_argnums=(1,))
def train_step(x, task):
    TRACES.append(task)
    return x * task.scale


def train(x, rng, steps):
    for step in range(steps):
        idx = jax.random.choice(jax.random.fold_in(rng, step), len(TASK_IDS))
        task = TASKS[TASK_IDS[idx]]
        x = train_step(x, task)
    return x


@functools.partial(jax.jit, static_argnums=(1,))
def sgd(x, lr):
    TRACES.append(lr)
    return x * lr


def twin(x, steps):
    for step in range(steps):
        x = sgd(x, 0.1 / (step + 1))
    return x


train(jnp.ones(2), jax.random.key(0), 50)
print("registry task, 50 steps:", len(TRACES), "traces")
TRACES.clear()
twin(jnp.ones(2), 50)
print("twin lr schedule, 50 steps:", len(TRACES), "traces")
