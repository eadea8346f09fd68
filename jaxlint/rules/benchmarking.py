"""JAX6xx: benchmarking honesty."""

from __future__ import annotations

import ast

from jaxlint.diagnostic import Position
from jaxlint.fixers.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule

CLOCKS = {
    "time.time",
    "time.perf_counter",
    "time.monotonic",
    "time.perf_counter_ns",
    "time.monotonic_ns",
    "time.time_ns",
    "timeit.default_timer",
}
TIMEIT = {"timeit.timeit", "timeit.repeat", "timeit.Timer"}
JIT_FACTORIES = {
    "jax.jit",
    "jax.pmap",
    "equinox.filter_jit",
    "flax.nnx.jit",
    "jax.experimental.pjit.pjit",
}
ASYNC_PREFIXES = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
ASYNC_CALLS = {"jax.device_put"}
BLOCKERS = {
    "jax.block_until_ready",
    "numpy.asarray",
    "numpy.array",
    "float",
    "int",
    "print",
    "jax.device_get",
    "bool",
    "repr",
    "str",
}
BLOCKING_METHODS = {"block_until_ready", "item", "tolist", "__array__"}
STATIC_RESULTS = {
    "jax.numpy.shape",
    "jax.numpy.dtype",
    "jax.numpy.finfo",
    "jax.numpy.iinfo",
    "jax.random.key",
    "jax.random.PRNGKey",
}


def is_clock(ctx: Context, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ctx.qualname(node.func) in CLOCKS


def is_async_work(ctx: Context, call: ast.Call) -> bool:
    """A call that dispatches device work and returns before it finishes."""
    func = call.func
    q = ctx.qualname(func)
    if q in STATIC_RESULTS:
        return False
    if q and (q.startswith(ASYNC_PREFIXES) or q in ASYNC_CALLS):
        return True
    if isinstance(func, ast.Call) and ctx.qualname(func.func) in JIT_FACTORIES:
        return True  # jax.jit(f)(x)
    target = ctx.index.resolve_function(func)
    if target is not None:
        facts = ctx.facts.transforms.facts.get(target)
        return bool(
            facts and facts.kind == "jit" and facts.via in JIT_FACTORIES and not facts.chain
        )
    if isinstance(func, ast.Name):
        b = ctx.index.binding(func.id, ctx.index.scope_of(func))
        if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
            return ctx.qualname(b.value.func) in JIT_FACTORIES or (
                isinstance(b.value.func, ast.Call)
                and ctx.qualname(b.value.func.func) in {"functools.partial", "partial"}
                and any(ctx.qualname(a) in JIT_FACTORIES for a in b.value.func.args[:1])
            )
    return False


def _walk_no_functions(node: ast.AST):
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        for child in ast.iter_child_nodes(cur):
            if not isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
            ):
                stack.append(child)


def _blocked_by_wrapper(call: ast.Call, ctx: Context) -> bool:
    """`f(x).block_until_ready()`, `jax.block_until_ready(f(x))`, `float(f(x))`, ..."""
    child: ast.AST = call
    for anc in _ancestors(call):
        if isinstance(anc, ast.Attribute) and anc.value is child and anc.attr in BLOCKING_METHODS:
            return True
        if isinstance(anc, ast.Call) and child in anc.args and ctx.qualname(anc.func) in BLOCKERS:
            return True
        if isinstance(anc, ast.stmt):
            return False
        child = anc
    return False


def _ancestors(node: ast.AST):
    p = getattr(node, "jl_parent", None)
    while p is not None:
        yield p
        p = getattr(p, "jl_parent", None)


def _holder(call: ast.Call) -> str | None:
    """The variable an async result is stored in (`out = f(x)`, `out, aux = f(x)`)."""
    for anc in _ancestors(call):
        if isinstance(anc, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = anc.targets if isinstance(anc, ast.Assign) else [anc.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    return t.id
                if (
                    isinstance(t, (ast.Tuple, ast.List))
                    and t.elts
                    and isinstance(t.elts[0], ast.Name)
                ):
                    return t.elts[0].id
            return None
        if isinstance(anc, ast.stmt):
            return None
    return None


def _blocks_name(ctx: Context, stmts: list[ast.stmt], name: str) -> bool:
    for stmt in stmts:
        for node in _walk_no_functions(stmt):
            if not isinstance(node, ast.Call):
                continue
            q = ctx.qualname(node.func)
            if q in BLOCKERS and any(_mentions(a, name) for a in node.args):
                return True
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in BLOCKING_METHODS
                and _mentions(node.func.value, name)
            ):
                return True
    return False


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


class TimingWithoutBlockUntilReady(Rule):
    """Flags timings of JAX work that never wait for the result.

    What it does: finds two clock reads (`time.perf_counter()`, `time.time()`,
    `timeit.default_timer()`, ...) around a call of a jitted function or a `jnp`/`jax.random`
    op whose result is not blocked on (`.block_until_ready()`, `jax.block_until_ready`,
    `np.asarray`, `float`, `.item()`, `print`) before the second read; and
    `timeit.timeit(lambda: f(x))` with an unblocked jitted call.
    Why is this bad: JAX dispatch is asynchronous: the call returns as soon as the work is
    queued, so the timing measures dispatch, not compute (6,600x too optimistic measured on
    a matmul).
    Example:
        t0 = time.perf_counter()
        out = step(x)
        dt = time.perf_counter() - t0
    Use instead:
        t0 = time.perf_counter()
        out = step(x)
        jax.block_until_ready(out)
        dt = time.perf_counter() - t0
    Fix: insert `jax.block_until_ready(result)` before the second clock read (safe).
    """

    code = "JAX601"
    name = "timing-without-block-until-ready"
    message = "JAX dispatch is asynchronous: this timing measures dispatch, not compute; block on the result (`jax.block_until_ready({holder})`) before reading the clock"
    fix_safety = "safe"
    verifier = "bench"
    templates = ("benchmark",)
    examples = Examples(
        invalid=(
            """
            import time
            import jax
            import jax.numpy as jnp

            f = jax.jit(lambda x: x @ x)
            x = jnp.ones((256, 256))
            t0 = time.perf_counter()
            y = f(x)  # error: JAX601
            elapsed = time.perf_counter() - t0
            """,
            """
            import time
            import jax

            @jax.jit
            def step(x):
                return x * 2

            def bench(x):
                start = time.time()
                for _ in range(10):
                    x = step(x)  # error: JAX601
                end = time.time()
                return end - start
            """,
            """
            import timeit
            import jax.numpy as jnp

            x = jnp.ones((100, 100))
            t = timeit.timeit(lambda: jnp.dot(x, x), number=10)  # error: JAX601
            """,
        ),
        valid=(
            """
            import time
            import jax

            f = jax.jit(lambda x: x @ x)

            def bench(x):
                t0 = time.perf_counter()
                y = f(x).block_until_ready()
                t1 = time.perf_counter()
                t2 = time.perf_counter()
                z = f(x)
                jax.block_until_ready(z)
                t3 = time.perf_counter()
                return t1 - t0, t3 - t2
            """,
            """
            import time

            def bench(f, x):
                t0 = time.perf_counter()
                y = f(x)
                return time.perf_counter() - t0
            """,
        ),
        fixes=(
            (
                """
                import time
                import jax

                f = jax.jit(lambda x: x + 1)

                def bench(x):
                    t0 = time.perf_counter()
                    y = f(x)
                    t1 = time.perf_counter()
                    return t1 - t0
                """,
                """
                import time
                import jax

                f = jax.jit(lambda x: x + 1)

                def bench(x):
                    t0 = time.perf_counter()
                    y = f(x)
                    jax.block_until_ready(y)
                    t1 = time.perf_counter()
                    return t1 - t0
                """,
            ),
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        self._bodies(node, ctx)

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self._bodies(node, ctx)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _bodies(self, owner: ast.AST, ctx: Context) -> None:
        """Every statement list of this function (not nested functions)."""
        for node in _walk_no_functions(owner):
            for attr in ("body", "orelse", "finalbody"):
                stmts = getattr(node, attr, None)
                if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                    if node is owner or not isinstance(
                        node, (ast.FunctionDef, ast.AsyncFunctionDef)
                    ):
                        self._scan(stmts, ctx)

    def _scan(self, stmts: list[ast.stmt], ctx: Context) -> None:
        for i, stmt in enumerate(stmts):
            if not (isinstance(stmt, ast.Assign) and is_clock(ctx, stmt.value)):
                continue
            for j in range(i + 1, len(stmts)):
                if any(is_clock(ctx, n) for n in _walk_no_functions(stmts[j])):
                    self._region(stmts[i + 1 : j], stmts[j], ctx)
                    break

    def _region(self, region: list[ast.stmt], end: ast.stmt, ctx: Context) -> None:
        last: ast.Call | None = None
        for stmt in region:
            for node in _walk_no_functions(stmt):
                if (
                    isinstance(node, ast.Call)
                    and is_async_work(ctx, node)
                    and not _blocked_by_wrapper(node, ctx)
                ):
                    if last is None or (node.lineno, node.col_offset) > (
                        last.lineno,
                        last.col_offset,
                    ):
                        last = node
        if last is None:
            return
        holder = _holder(last)
        if holder is not None:
            after = [s for s in region if s.lineno > last.lineno] + [
                s for s in region if s.lineno <= last.lineno
            ]
            if _blocks_name(ctx, after, holder):
                return
        elif isinstance(getattr(last, "jl_parent", None), ast.Expr) is False:
            return  # result consumed by something we cannot follow: stay silent
        self.report(last, holder=holder or "result", fix=self._fix(last, holder, end, ctx))

    def _fix(self, call: ast.Call, holder: str | None, end: ast.stmt, ctx: Context):  # noqa: ANN202
        try:
            jax_name, edits = ensure_module(ctx, "jax")
        except LookupError:
            return None
        if holder is None:
            return self.fix(
                ctx.replace(call, f"{jax_name}.block_until_ready({ctx.text(call)})"), *edits
            )
        indent = ctx.line_indent(end.lineno)
        line = f"{indent}{jax_name}.block_until_ready({holder}){ctx.source.newline}"
        return self.fix(
            ctx.insert(Position(end.lineno, 0), line),
            *edits,
            message="Block on the result before the second clock read",
        )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) not in TIMEIT or not node.args:
            return
        stmt = node.args[0]
        if not isinstance(stmt, ast.Lambda):
            return
        body = stmt.body
        if isinstance(body, ast.Call) and is_async_work(ctx, body):
            try:
                jax_name, edits = ensure_module(ctx, "jax")
                fix = self.fix(
                    ctx.replace(body, f"{jax_name}.block_until_ready({ctx.text(body)})"), *edits
                )
            except LookupError:
                fix = None
            self.report(body, holder="...", fix=fix)
