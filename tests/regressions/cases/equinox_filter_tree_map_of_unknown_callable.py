"""JAX101: `jax.tree.map(f, tree)` with a function nobody here can see (a callable parameter, a
factory's result) returns leaves of unknown kind, not traced values.

Reduced from equinox _filters.py:155-160 (`filter`) and _vmap_pmap.py:367-372: a vmapped
function calls `filter(out, is_array_like)`, which maps `_make_filter_tree(is_leaf)` (a factory's
result, which maps the callable `is_array_like` over each leaf) and then reads `bool(mask)` of
those Python bools. The marked line is the true positive kept next to the near miss.
"""

import jax
import jax.numpy as jnp
import jax.tree_util as jtu


def is_array_like(element):
    return isinstance(element, (jax.Array, float, int, bool))


def _make_filter_tree(is_leaf):
    def _filter_tree(mask, arg):
        if isinstance(mask, bool):
            return jtu.tree_map(lambda _: mask, arg, is_leaf=is_leaf)
        return jtu.tree_map(mask, arg, is_leaf=is_leaf)

    return _filter_tree


def filter(pytree, filter_spec, is_leaf=None):
    filter_tree = jtu.tree_map(_make_filter_tree(is_leaf), filter_spec, pytree)
    return jtu.tree_map(lambda mask, x: x if bool(mask) else None, filter_tree, pytree)


@jax.vmap
def arrays_only(tree):
    return filter(tree, is_array_like)


@jax.jit
def positive_only(tree):
    return jtu.tree_map(lambda x: x if bool(x > 0) else None, tree)  # error: JAX101


print(arrays_only({"a": jnp.ones(3)}))
