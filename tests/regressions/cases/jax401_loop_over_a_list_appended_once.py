"""JAX401: a loop over a list that starts empty and gets one `append` before it walks one
item, so the jitted functions built in its body are built once (analysis/loops.py
`_appended_bound`: an upper bound on the steps, from the appends that run once each time
the list is made).

Reduced from lupusorina/robot_training robot_learning/src/jax/envs/biped.py:883-907 (v36
check set, FP: JAX401 x2, tuning material). The marked lines are near misses: an append
inside a loop, or a list handed to a function that may fill it, leaves its length unknown,
and a jit built per step of a walk over it still compiles every step.
"""

import jax


def load_policy(path):
    return lambda obs: obs


class Env:
    def step(self, state):
        return state


def evaluate(path, folder):
    policy_fn_list = []
    policy_folder_list = []
    policy_fn_list.append(load_policy(path))
    policy_folder_list.append(folder)
    for policy_fn, name in zip(policy_fn_list, policy_folder_list):
        env = Env()
        jit_policy = jax.jit(policy_fn)
        step_fn = jax.jit(env.step)
        print(name, jit_policy(1.0), step_fn(2.0))


def appended_in_a_loop(paths):
    many = []
    for p in paths:
        many.append(p + "/latest")
    for name in many:
        env = Env()
        step_fn = jax.jit(env.step)  # error: JAX401
        print(name, step_fn(1.0))


def handed_to_a_filler(folder, filler):
    filled = []
    filled.append(folder)
    filler(filled)
    for name in filled:
        env = Env()
        step_fn = jax.jit(env.step)  # error: JAX401
        print(name, step_fn(1.0))
