"""learned_optimization eval_training.py:208 and evojax examples/train_ant_map_elites.py:171
(JAX403): the static argument takes 2 (a bool flag) or 3 (`range(3)`) values that repeat across
the outer loop: 2-3 compiles in all, then cache hits."""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("with_metrics",))
def next_state(state, with_metrics=False):
    return (state + 1, state.sum()) if with_metrics else (state + 1, None)


@functools.partial(jax.jit, static_argnums=(1,))
def get_qp(state, ix):
    return state[ix]


state = jnp.zeros(3)
num_viz = 3
rollouts = {i: [] for i in range(num_viz)}
for i in range(100):
    with_metrics = i % 10 == 0
    state, m = next_state(state, with_metrics=with_metrics)
    for j in range(num_viz):
        rollouts[j].append(get_qp(state, j))
print(state)
