"""JAX801 removed-tree-aliases: the `jax.tree_*` aliases JAX removed, renamed to `jax.tree.*`."""

from __future__ import annotations

from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Examples


class RemovedTreeAliases(RenameRule):
    """Flags the removed `jax.tree_*` aliases.

    What it does: finds `jax.tree_map`, `jax.tree_leaves`, `jax.tree_flatten`,
    `jax.tree_unflatten`, `jax.tree_structure`, `jax.tree_transpose`, `jax.treedef_is_leaf`,
    `jax.tree_multimap`, `jax.tree_util.tree_multimap` and `jax.tree_util.build_tree`.
    Why is this bad: they were removed in JAX 0.6.0 (`tree_multimap` in 0.3.16,
    `build_tree` in 0.8.0): the code fails with
    `AttributeError: module 'jax' has no attribute 'tree_map'`.
    Example:
        grads = jax.tree_map(lambda g: g / n, grads)
    Use instead:
        grads = jax.tree.map(lambda g: g / n, grads)
    Fix: rename (safe: the signatures are identical); `build_tree` has none
    (`jax.tree.unflatten` takes its arguments differently).
    """

    code = "JAX801"
    name = "removed-tree-aliases"
    fix_safety = "safe"
    verifier = "import"
    templates = ("training-step",)
    REMOVED = "0.6"
    RENAMES = {
        # deprecated before 0.6 (reference/jax-0.10-facts.md 2.1), so a project pinned below
        # the tables (`jax>=0.4.20,<0.5`) hears of them; `jax.tree` exists from 0.4.25
        "jax.tree_map": Move("jax.tree.map", deprecated="0.4.26", since="0.4.25"),
        "jax.tree_leaves": Move("jax.tree.leaves", deprecated="0.3.15", since="0.4.25"),
        "jax.tree_flatten": Move("jax.tree.flatten", deprecated="0.3.15", since="0.4.25"),
        "jax.tree_unflatten": Move("jax.tree.unflatten", deprecated="0.3.15", since="0.4.25"),
        "jax.tree_structure": Move("jax.tree.structure", deprecated="0.3.15", since="0.4.25"),
        "jax.tree_transpose": Move("jax.tree.transpose", deprecated="0.3.15", since="0.4.25"),
        "jax.treedef_is_leaf": ("jax.tree_util.treedef_is_leaf", "safe", ""),
        # `jax.tree.map` from 0.4.25 as above (without `since` a target below the tables read
        # "needs JAX 0.6+": a new user's report, stop 51)
        "jax.tree_util.tree_multimap": Move("jax.tree.map", removed="0.3.16", since="0.4.25"),
        "jax.tree_multimap": Move("jax.tree.map", removed="0.3.16", since="0.4.25"),
        "jax.tree_util.build_tree": Move(
            None,
            None,
            "build the tree with `jax.tree.unflatten(treedef, leaves)` (different argument convention)",
            deprecated="0.6",
            removed="0.8",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax

            def sgd(params, grads, lr):
                return jax.tree_map(lambda p, g: p - lr * g, params, grads)  # error: JAX801
            """,
            """
            from jax import tree_leaves  # error: JAX801

            n = len(tree_leaves({"a": 1}))
            """,
            """
            import jax
            import jax.tree_util as tu

            f = tu.tree_multimap  # error: JAX801
            g = jax.tree_multimap(max, {"a": 1}, {"a": 2})  # error: JAX801
            """,
            """
            from jax import jit, tree_map  # error: JAX801

            g = jit(lambda t: tree_map(abs, t))
            """,
        ),
        valid=(
            """
            import jax

            leaves = jax.tree.leaves({"a": 1})
            y = jax.tree_util.tree_map(lambda v: v, leaves)
            """,
            """
            import optax

            tree_map = optax.tree_utils.tree_map_params
            """,
        ),
        fixes=(
            (
                """
                import jax

                y = jax.tree_map(lambda v: v * 2, {"a": 1})
                """,
                """
                import jax

                y = jax.tree.map(lambda v: v * 2, {"a": 1})
                """,
            ),
            (
                """
                from jax import tree_leaves

                n = len(tree_leaves({"a": 1}))
                """,
                """
                from jax.tree import leaves as tree_leaves

                n = len(tree_leaves({"a": 1}))
                """,
            ),
            (
                """
                from jax import jit, tree_map

                g = jit(lambda t: tree_map(abs, t))
                """,
                """
                from jax import jit
                from jax.tree import map as tree_map

                g = jit(lambda t: tree_map(abs, t))
                """,
            ),
        ),
    )
