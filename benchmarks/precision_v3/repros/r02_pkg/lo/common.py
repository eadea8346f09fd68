"""learned_optimization outer_trainers/common.py:70/71/109, truncated_step.py:210,
truncated_distill.py:126 (JAX110/111/120): `tree_utils.first_dim(tree)` (another module)
returns `leaves[0].shape[0]`, a Python int, not a traced value."""
import functools

import jax

from lo import tree_utils


@functools.partial(jax.jit, static_argnames=("axis",))
def split_tree(tree, axis=0):
    num_tasks = tree_utils.first_dim(tree) // 2
    a = jax.tree_util.tree_map(lambda x: x[0:num_tasks], tree)
    b = jax.tree_util.tree_map(lambda x: x[num_tasks:], tree)
    return a, b


@jax.jit
def unroll(datas, state):
    assert tree_utils.first_dim(datas) == 4, "bad data size"
    if tree_utils.first_dim(state) == 8:
        return state * 2
    return state
