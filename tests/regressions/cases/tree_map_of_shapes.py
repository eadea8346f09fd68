"""`jax.tree.map(lambda x: x.shape[0], tree)` is a tree of Python ints, even when the tree is
traced; a second map over it gets ints (v14 check half, pgam_jax `penalty_utils.py:261/267`,
JAX120 x2). The taint analysis assumed the leaves traced while the mapped function was not yet
analysed, and a traced level is never taken back (`flow/taint.py`: nothing until it is).

`blocks` runs with JAX 0.12 (shapes [(3, 2)]); the twin raises TypeError (shapes must be
concrete): a map of a reduction.
"""

import jax
import jax.numpy as jnp


def compute_blocks(tree_penalty, fns):
    scaled = jax.tree_util.tree_map(lambda fn, pen: fn(pen), list(fns), tree_penalty)
    sizes = jax.tree_util.tree_map(lambda x: x.shape[0], scaled)
    return jax.tree_util.tree_map(lambda n: jnp.zeros((n, 2)), sizes)


@jax.jit
def blocks(pens):
    return compute_blocks(pens, [jnp.tanh])


@jax.jit
def twin(pens):
    totals = jax.tree_util.tree_map(lambda x: x.sum().astype(int), pens)
    return jax.tree_util.tree_map(lambda n: jnp.zeros((n, 2)), totals)  # error: JAX120
