"""JAX503: a jitted function reading a module-level variable that the module changes.

A jitted function bakes in the value a global had when it was traced, so a later change to the
global is silently ignored; the helpers order module statements and recognise lazy
initialisation, which is not a change.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.jit_sites import made_per_run
from jaxlint.analysis.setup_calls import (
    fresh_sites,
    has_main_guard,
    runs_only_before,
    set_before_every_call,
    trace_sites,
)
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors
from jaxlint.rules.base import Context, Examples, Rule, Verify


class MutableGlobalInTraced(Rule):
    """Flags a jitted function reading a module-level variable that the module changes.

    What it does: in a function compiled by `jax.jit` (or `pmap`, `eqx.filter_jit`,
    `nnx.jit`, directly or through the functions it calls), finds reads of a module-level
    name that is reassigned or mutated elsewhere: in a function body (`global scale;
    scale = ...`, `CONFIG["lr"] = ...`, `TABLE.append(...)`) or at module level after the
    jitted function has been called and before it can run again (a later notebook cell that
    rebinds the name for another experiment and never calls the function again is fine).
    Lazy initialization (`if X is None: X = ...`) is fine, and so is a global that a
    script's `main` (run once) sets before it first calls the jitted function.
    Why is this bad: the value is read once, at trace time, and baked into the compiled
    program as a constant. Later changes are ignored until something forces a re-trace
    (a new input shape), so results silently depend on the compilation history.
    Example:
        scale = 2.0

        @jax.jit
        def scaled(x):
            return x * scale

        def set_scale(v):
            global scale
            scale = v
    Use instead:
        @jax.jit
        def scaled(x, scale):
            return x * scale
    Or mark it static (`static_argnames`) when it selects a code path. No automatic fix.
    """

    code = "JAX503"
    traced_evidence = True
    name = "mutable-global-in-traced"
    message = (
        "`{name}` is a module-level variable that changes ({where}), but `{fn}` reads it at "
        "trace time and bakes it in as a constant ({why}): later changes are ignored; pass it "
        "as an argument (or a static argument)"
    )
    verifier = "numeric"
    verify = Verify(changes_result=True, compare="stale-globals")
    tier = 3
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            scale = 2.0

            @jax.jit
            def scaled(x):
                return x * scale  # error: JAX503

            def set_scale(v):
                global scale
                scale = v
            """,
            """
            import jax
            import jax.numpy as jnp

            CONFIG = {"lr": 0.1}

            def apply_update(params, grads):
                return params - CONFIG["lr"] * grads  # error: JAX503

            @jax.jit
            def train_step(params, grads):
                return apply_update(params, grads)

            def decay():
                CONFIG["lr"] = CONFIG["lr"] * 0.5
            """,
            """
            from jax import jit

            temperature = 1.0

            @jit
            def logits(x):
                return x / temperature  # error: JAX503

            print(logits(3.0))
            temperature = 0.5
            print(logits(3.0))
            """,
        ),
        valid=(
            """
            import jax

            SCALE = 2.0
            TABLE = [1.0, 2.0]
            TABLE.append(3.0)

            @jax.jit
            def f(x):
                return x * SCALE + TABLE[0]
            """,
            """
            import jax

            _CACHE = None

            def table():
                global _CACHE
                if _CACHE is None:
                    _CACHE = [1.0, 2.0]
                return _CACHE

            @jax.jit
            def f(x):
                return x * _CACHE[0]
            """,
            """
            import jax

            scale = 2.0

            def eager(x):
                return x * scale

            @jax.jit
            def g(x, scale):
                return x * scale

            def set_scale(v):
                global scale
                scale = v
            """,
        ),
    )

    def __init__(self, ctx: Context, sink) -> None:  # noqa: ANN001
        super().__init__(ctx, sink)
        self._seen: set[tuple[int, str]] = set()
        self._calls: list[ast.Call] | None = None
        self._writes: dict | None = None  # the index's module_writes(), once asked

    def visit_Name(self, node: ast.Name, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        if self._writes is None:
            self._writes = ctx.index.module_writes()
        # most names are never written at module level: the cheap test first
        if node.id not in self._writes or not ctx.in_jit:
            return
        fn_node = ctx.function_node
        if fn_node is None or (id(fn_node), node.id) in self._seen:
            return
        writes = self._writes.get(node.id)
        if not writes or not ctx.index.is_module_name(node):
            return
        module = ctx.index.scopes[ctx.index.tree]
        if any(b.kind in ("import", "def", "class") for b in module.bindings.get(node.id, ())):
            return
        if not ctx.facts.traced.compiled(fn_node):
            return
        late = [w for w in self._late_writes(writes, node.id, ctx) if _same_part(w, node)]
        if not late:
            return
        self._seen.add((id(fn_node), node.id))
        w = late[0]
        where = (
            f"line {w.node.lineno}, in `{getattr(w.function, 'name', '<lambda>')}`"  # type: ignore[attr-defined]
            if w.function is not None
            else f"line {w.node.lineno}, after the jitted function is called"  # type: ignore[attr-defined]
        )
        fn = ctx.function
        self.report(
            node,
            name=node.id,
            where=where,
            fn=fn.name if fn else "this function",
            why=fn.describe() if fn else "",
        )

    def _late_writes(self, writes, name: str, ctx: Context) -> list:  # noqa: ANN001
        calls = self._module_traced_calls(ctx)
        script = bool(calls)
        out = []
        current = set(ctx.functions)
        traced_first = _first_defined(ctx.functions)
        flow = ctx.facts.flow
        entry = _traced_entry(ctx)
        defined = flow.statement_in(entry) if entry is not None else None
        runs: list[ast.AST] | None = None
        for w in writes:
            if w.function is not None:
                if w.function in current or _lazy_init(w.node, name):
                    continue
                if traced_first is not None and runs_only_before(
                    ctx.index, w.function, traced_first, script=script
                ):
                    continue  # a set-up function that runs before the reader exists
                if set_before_every_call(
                    ctx.index,
                    w.node,
                    w.function,
                    entry,
                    script or has_main_guard(ctx.index),
                ):
                    continue  # `main` sets it once, before it first calls the reader
                out.append(w)
                continue
            stmt = flow.statement_in(w.node)
            if stmt is None:
                continue
            if defined is not None and not flow.may_run_after(defined, stmt):
                continue  # program order: rebound before the reader exists, so never seen stale
            if runs is None:
                runs = trace_sites(ctx.index, ctx.facts.flow, ctx.facts.traced, entry)
                if runs is None:
                    runs = [
                        s
                        for s in (flow.statement_in(c) for c in _calls_reaching(ctx, calls, entry))
                        if s is not None
                    ]
            # a lambda or def statement of this scope makes a new function each time it runs,
            # traced afresh (`jax.jit(lambda v: v * scale)` after `scale = ...` in one loop
            # step reads the new value: a new user's report, stop 52); a module def jitted
            # again keeps its trace (JAX caches it on the function)
            remade = (defined,) if defined is not None and made_per_run(entry) else ()
            remade = (*remade, *fresh_sites(ctx.index, flow, entry))  # `jax.jit(jax.vmap(f))`
            if flow.runs_between(stmt, runs, runs, remade):
                out.append(w)  # traced code runs before the rebinding and again after it
        return out

    def _module_traced_calls(self, ctx: Context) -> list[ast.Call]:
        """The module-level calls of a traced function (a trace can start at any of them). A
        module-level rebinding with no traced call after it (a notebook's later cell that
        sets up another experiment) is never read stale: nothing runs the jitted code again."""
        if self._calls is None:
            traced = ctx.facts.traced
            self._calls = [
                call
                for call in ctx.index.calls
                if ctx.index.enclosing_function(call) is None
                and traced.traced_callee(call) is not None
            ]
        return self._calls


def _calls_reaching(ctx: Context, calls: list[ast.Call], entry: ast.AST | None) -> list[ast.Call]:
    """The module-level traced calls that may run the reader `entry` (their callee is the
    reader or calls it, by the call graph): a jitted function that never reaches it does not
    read the global (qdpy-numpyro's early `model_D_(...)` calls, before the rebinding, run
    other code). All of them when the entry is unknown."""
    if entry is None:
        return calls
    reach = ctx.facts.calls.may_run(entry)
    traced = ctx.facts.traced
    return [c for c in calls if traced.traced_callee(c) in reach and traced.enters_compiled(c)]


def _traced_entry(ctx: Context) -> ast.AST | None:
    """The outermost function of the walk's stack (the module-level `def` whose calls start
    the trace that reads the global), None for code outside functions."""
    return ctx.functions[0] if ctx.functions else None


def _module_statement(node: ast.AST | None) -> ast.stmt | None:
    """The module-level statement holding `node` (the `def` of a reader, or the line that
    builds a jitted lambda)."""
    cur = node
    while cur is not None:
        parent = syntax.parent(cur)
        if isinstance(parent, ast.Module):
            return cur if isinstance(cur, ast.stmt) else None
        cur = parent
    return None


def _first_defined(functions) -> ast.stmt | None:  # noqa: ANN001
    """The earliest module statement defining one of the functions on the traced path (the
    trace cannot start before all of them exist), or None when one is not at module level."""
    stmts = [_module_statement(f) for f in functions]
    if not stmts or any(s is None for s in stmts):
        return None
    return min(stmts, key=lambda s: s.lineno)  # type: ignore[union-attr]


def _same_part(write, read: ast.Name) -> bool:  # noqa: ANN001
    """A write to `X.a` (or `X["a"]`) matters to a read of `X.a` (`X["a"]`) or of `X` itself,
    not to a read of `X.b` (`FLAGS.alsologtostderr = True` vs `FLAGS.lr`)."""
    if write.kind not in ("attr", "item"):
        return True
    parent = syntax.parent(read)
    if write.kind == "attr":
        if isinstance(parent, ast.Attribute) and parent.value is read:
            return parent.attr == write.node.attr
        return not isinstance(parent, ast.Subscript) or parent.value is not read
    if isinstance(parent, ast.Subscript) and parent.value is read:
        a, b = parent.slice, write.node.slice
        if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
            return a.value == b.value
        return True
    return not isinstance(parent, ast.Attribute) or parent.value is not read


def _lazy_init(node: ast.AST, name: str) -> bool:
    """Inside `if NAME is None:` / `if not NAME:` (a one-time initialization)."""
    for anc in ancestors(node):
        if isinstance(anc, FUNCTION_NODES):
            return False
        if isinstance(anc, ast.If):
            for sub in ast.walk(anc.test):
                if not isinstance(sub, ast.Compare):
                    pass
                elif (  # `if X is None:`
                    isinstance(sub.left, ast.Name)
                    and sub.left.id == name
                    and isinstance(sub.ops[0], (ast.Is, ast.Eq))
                ) or any(  # `if key not in X:` (memoization: each entry written once)
                    isinstance(op, (ast.In, ast.NotIn)) and isinstance(c, ast.Name) and c.id == name
                    for op, c in zip(sub.ops, sub.comparators)
                ):
                    return True
                if (
                    isinstance(sub, ast.UnaryOp)
                    and isinstance(sub.op, ast.Not)
                    and isinstance(sub.operand, ast.Name)
                    and sub.operand.id == name
                ):
                    return True
    return False
