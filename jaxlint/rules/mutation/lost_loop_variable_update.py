"""JAX505: an update of a loop variable holding a JAX array, whose result is lost.

In `for p in params: p -= lr * g` the update binds a new array to the name `p` only, so
`params` is unchanged; the helpers find the kind of each loop element and whether the new value
is read or stored later in the iteration or after the loop.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.values import Kind
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.mutation._updates import _at_base, _short


def _loop_elements(ctx: Context, loop: ast.For, name: str) -> Kind:
    """The kind `name` gets from each iteration of `loop` (`for p in ps`, `for p, g in
    zip(ps, gs)`, `for i, p in enumerate(ps)`)."""
    values = ctx.facts.values
    target, iterable = loop.target, loop.iter
    if isinstance(target, ast.Name):
        return values.element(iterable) if target.id == name else Kind.UNKNOWN
    if not isinstance(target, ast.Tuple) or not isinstance(iterable, ast.Call):
        return Kind.UNKNOWN
    q = ctx.qualname(iterable.func)
    pos = next(
        (i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name), None
    )
    if pos is None:
        return Kind.UNKNOWN
    if q == "zip" and pos < len(iterable.args):
        return values.element(iterable.args[pos])
    if q == "enumerate" and pos == 1 and iterable.args:
        return values.element(iterable.args[0])
    return Kind.UNKNOWN


class LostLoopVariableUpdate(Rule):
    """Flags an update of a loop variable that holds a JAX array, whose result is lost.

    What it does: in `for p in params:` (or `for p, g in zip(params, grads):`) over a list,
    tuple or pytree of JAX arrays, finds `p -= lr * g` or `p = p.at[0].set(1)` when the new
    `p` is never read or stored afterwards (in the rest of the loop body or after the loop).
    Why is this bad: JAX arrays are immutable, so unlike NumPy `p -= x` does not write into
    the array in the list: it binds a new array to the name `p`, which the next iteration
    replaces. `params` is unchanged and the update is lost.
    Example:
        for p, g in zip(params, grads):
            p -= lr * g
    Use instead:
        params = [p - lr * g for p, g in zip(params, grads)]
        # or: params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    Fix: none (the new values have to be collected somewhere the code decides).
    """

    code = "JAX505"
    name = "lost-loop-variable-update"
    message = (
        "`{stmt}` binds a new array to the loop variable `{name}` (JAX arrays are immutable, "
        "so nothing in `{source}` changes) and the next iteration drops it: the update is "
        "lost; collect the new values (`[... for {name} in ...]` or `jax.tree.map`)"
    )
    # RULES.md plans `numeric`; the numeric verifier compares a finding with its fix, and this
    # rule has none, so there is nothing to run yet
    verifier = None
    tier = 2
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def sgd(params, grads):
                for p, g in zip(params, grads):
                    p -= 0.1 * g  # error: JAX505
                return params
            """,
            """
            import jax.numpy as jnp

            layers = [jnp.zeros(3), jnp.ones(3)]
            for w in layers:
                w = w.at[0].set(1.0)  # error: JAX505
            """,
        ),
        valid=(
            """
            import numpy as np
            import jax.numpy as jnp

            host = [np.zeros(3), np.ones(3)]
            for w in host:
                w -= 1.0  # NumPy: in place

            layers = [jnp.zeros(3), jnp.ones(3)]
            new = []
            for w in layers:
                w = w.at[0].set(1.0)
                new.append(w)
            for w in layers:
                w += 1.0
            print(w)
            """,
        ),
    )

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        target = node.target  # most often a plain name: no walk
        if type(target) is ast.Name:
            names = {target.id}
        else:
            names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        if not names:
            return
        for stmt in _same_iteration_statements(node.body):
            name, value = _rebinding(stmt)
            if name not in names:
                continue
            if isinstance(stmt, ast.Assign):
                if _at_base(value) is None or not _mentions(value, name):  # type: ignore[arg-type]
                    continue
            elif _loop_elements(ctx, node, name) != Kind.ARRAY:
                continue  # `p -= x` on a NumPy array writes in place: not lost
            if ctx.facts.flow.binding_read(name, stmt):
                continue  # read later in the iteration, or after the loop (the last value)
            source = ctx.text(node.iter)
            self.report(stmt, stmt=_short(ctx.text(stmt)), name=name, source=_short(source))


def _same_iteration_statements(stmts: list[ast.stmt]):
    """Statements of a loop body, entering `if`/`with`/`try` but not nested loops or defs."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, (ast.If, ast.With, ast.AsyncWith, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                yield from _same_iteration_statements(getattr(stmt, field, []) or [])
            for handler in getattr(stmt, "handlers", []):
                yield from _same_iteration_statements(handler.body)


def _rebinding(stmt: ast.stmt) -> tuple[str | None, ast.AST | None]:
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id, stmt.value
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id, stmt.value
    return None, None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))
