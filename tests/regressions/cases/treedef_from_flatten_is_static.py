"""enpasos/jax2onnx jax2onnx/plugins/jax/lax/fori_loop.py:370-373 (JAX110 high, precision v8
check set, read by an untuned reader): `leaves, new_def = tree_util.tree_flatten(new_state)`
then `if new_def != treedef:` compares two PyTreeDefs, a Python bool while the leaves are
traced. Each part of a flatten (and of `ravel_pytree`, `vjp`, `linearize`) now has its own
kind (`jax_api.TUPLE_RESULTS`): the leaves follow the input, the treedef or function is
static. Checked with JAX 0.12 under jit. The near miss, a test on a leaf, still fires."""

import jax
import jax.numpy as jnp
from jax import tree_util
from jax.flatten_util import ravel_pytree


def body(state, treedef):
    new_state = jax.tree_util.tree_map(lambda v: v + 1, state)
    leaves, new_def = tree_util.tree_flatten(new_state)
    if new_def != treedef:
        raise ValueError("the loop body changed the state's structure")
    flat, unravel = ravel_pytree(new_state)
    if unravel is None:
        raise ValueError("no unravel")
    if leaves[0].sum() > 0:  # error: JAX110
        return flat
    return unravel(flat)


def run(state):
    _, treedef = tree_util.tree_flatten(state)
    return jax.jit(lambda s: body(s, treedef))(state)


run({"a": jnp.ones(3)})
