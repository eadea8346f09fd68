"""JAX8xx: removed and deprecated APIs, with renames where the target is 1:1."""

from __future__ import annotations

import ast
from typing import ClassVar

from jaxlint.fixers.imports import spell
from jaxlint.rules.base import Context, Examples, Rule


class RenameRule(Rule):
    """Base for rules whose findings are references to an old dotted name.

    `RENAMES` maps the old qualified name to `(new qualified name or None, safety, note)`.
    References through attributes (`jax.tree_map`) are rewritten in place; names brought in
    by `from X import old` are reported (and fixed) at the import, not at every use.
    """

    RENAMES: ClassVar[dict[str, tuple[str | None, str, str]]] = {}
    message = "`{old}` {status}; use `{new}`"
    status: ClassVar[str] = "was removed from JAX"

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        parent = getattr(node, "jl_parent", None)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            q = ctx.qualname(parent)
            if q in self.RENAMES or any(q and q.startswith(k + ".") for k in ()):
                return  # the longer chain is the reference
        q = ctx.qualname(node)
        if q in self.RENAMES:
            self._report(node, q, ctx)

    def visit_ImportFrom(self, node: ast.ImportFrom, ctx: Context) -> None:
        if node.level or not node.module:
            return
        for alias in node.names:
            q = f"{node.module}.{alias.name}"
            if q in self.RENAMES:
                new, safety, note = self.RENAMES[q]
                fix = None
                if new and len(node.names) == 1 and safety == "safe":
                    mod, _, attr = new.rpartition(".")
                    local = alias.asname or alias.name
                    text = f"from {mod} import {attr}" + (f" as {local}" if local != attr else "")
                    fix = self.fix(
                        ctx.replace(node, text), safety="safe", message=f"Import `{new}`"
                    )
                self.report(node, old=q, new=new or note, status=self.status, fix=fix)

    def visit_Import(self, node: ast.Import, ctx: Context) -> None:
        for alias in node.names:
            if alias.name in self.RENAMES:
                new, _, note = self.RENAMES[alias.name]
                self.report(node, old=alias.name, new=new or note, status=self.status)

    def _report(self, node: ast.AST, q: str, ctx: Context) -> None:
        new, safety, note = self.RENAMES[q]
        fix = None
        if new is not None and safety in ("safe", "unsafe"):
            try:
                text, edits = spell(ctx, new)
                fix = self.fix(
                    ctx.replace(node, text), *edits, safety=safety, message=f"Use `{new}`"
                )
            except LookupError:
                fix = None
        self.report(node, old=q, new=new or note, status=self.status, fix=fix)


class RemovedTreeAliases(RenameRule):
    """Flags the removed `jax.tree_*` aliases.

    What it does: finds `jax.tree_map`, `jax.tree_leaves`, `jax.tree_flatten`,
    `jax.tree_unflatten`, `jax.tree_structure`, `jax.tree_transpose`, `jax.treedef_is_leaf`
    and `jax.tree_util.tree_multimap`.
    Why is this bad: they were removed in JAX 0.6.0 (`tree_multimap` in 0.3.16): the code
    fails with `AttributeError: module 'jax' has no attribute 'tree_map'`.
    Example:
        grads = jax.tree_map(lambda g: g / n, grads)
    Use instead:
        grads = jax.tree.map(lambda g: g / n, grads)
    Fix: rename (safe: the signatures are identical).
    """

    code = "JAX801"
    name = "removed-tree-aliases"
    fix_safety = "safe"
    verifier = "import"
    RENAMES = {
        "jax.tree_map": ("jax.tree.map", "safe", ""),
        "jax.tree_leaves": ("jax.tree.leaves", "safe", ""),
        "jax.tree_flatten": ("jax.tree.flatten", "safe", ""),
        "jax.tree_unflatten": ("jax.tree.unflatten", "safe", ""),
        "jax.tree_structure": ("jax.tree.structure", "safe", ""),
        "jax.tree_transpose": ("jax.tree.transpose", "safe", ""),
        "jax.treedef_is_leaf": ("jax.tree_util.treedef_is_leaf", "safe", ""),
        "jax.tree_util.tree_multimap": ("jax.tree.map", "safe", ""),
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
            import jax.tree_util as tu

            f = tu.tree_multimap  # error: JAX801
            """,
        ),
        valid=(
            """
            import jax

            leaves = jax.tree.leaves({"a": 1})
            y = jax.tree_util.tree_map(lambda v: v, leaves)
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
        ),
    )
