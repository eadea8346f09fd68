"""timing-without-block-until-ready (JAX601): a timing of JAX work that never waits
for the result. Dispatch is asynchronous, so the clock measures dispatch, not
compute; the fix blocks on the result before the second clock read.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.hoisting import bound_on_every_path
from jaxlint.analysis.jax_api import (
    ASYNC_CALLS,
    ASYNC_PREFIXES,
    JIT_FACTORIES,
    NNX_IN_PLACE,
    PARTIAL,
    STATIC_RESULTS,
    TIMEIT,
)
from jaxlint.analysis.pending import pending_outputs
from jaxlint.analysis.sync import eager_host_call, returns_nothing
from jaxlint.analysis.syntax import ancestors, contains, keyword
from jaxlint.analysis.timing_intent import imported_compiled, prepared_in_region
from jaxlint.analysis.transforms import TracedKind
from jaxlint.analysis.values import assigned_values
from jaxlint.core.diagnostic import Position
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.benchmarking._timing import (
    TIMING_WORDS,
    is_clock,
    timed_regions,
    walk_no_functions,
)


def is_async_work(ctx: Context, call: ast.Call) -> bool:
    """A call that dispatches device work and returns before it finishes; a call of a
    parameter counts when every visible call of its function passes a jitted function there
    (`def benchmark(fn, *args): ... fn(*args)` with `benchmark(forward_dynamics, q, qd)`)."""
    func = call.func
    if isinstance(func, ast.Name):
        b = ctx.index.binding(func.id, ctx.index.scope_of(func))
        if b is not None and b.kind == "param":
            owner = ctx.index.enclosing_function(func)
            passed = ctx.facts.calls.parameter_arguments(owner, func.id) if owner else None
            return bool(passed) and all(_dispatches(ctx, a) for a in passed)  # type: ignore[union-attr]
    if eager_host_call(ctx.index, call, ctx.facts.values.of):
        return False  # `f(x_np)` beside `f_jit = jax.jit(f)`: NumPy work, done at return
    return _dispatches(ctx, func)


def _dispatches(ctx: Context, func: ast.expr) -> bool:
    """Calling `func` dispatches device work and returns before it finishes."""
    q = ctx.qualname(func)
    if q in STATIC_RESULTS:
        return False
    if q and (q.startswith(ASYNC_PREFIXES) or q in ASYNC_CALLS):
        return True
    if isinstance(func, ast.Call) and ctx.qualname(func.func) in JIT_FACTORIES:
        return True  # jax.jit(f)(x)
    target = ctx.index.resolve_function(func)
    if target is not None:
        if not _jitted_here(ctx, target):
            return False
        # a def with no outputs compiles to nothing: the call leaves no work behind (not under
        # `nnx.jit`, whose outputs are the objects it updates in place)
        app = ctx.facts.transforms.applied.get(target)
        return (app is not None and app.via in NNX_IN_PLACE) or not returns_nothing(
            ctx.index, target
        )
    if imported_compiled(ctx.facts, func):
        return True  # `from train import step` where train.py jits it (the project index)
    if isinstance(func, ast.Name):
        # every value the name may hold is a jitted function (`step = jax.jit(f)`, or
        # `jax.pmap(f)` in one branch and `jax.jit(f)` in the other)
        values = assigned_values(ctx.index, func)
        return bool(values) and all(
            _jit_factory_call(ctx, v) and not _jits_nothing(ctx, v)  # type: ignore[arg-type]
            for v in values  # type: ignore[union-attr]
        )
    return False


def _jit_factory_call(ctx: Context, value: ast.expr) -> bool:
    """`jax.jit(f)`, `jax.pmap(f, ...)`, `partial(jax.jit, ...)(f)`."""
    if not isinstance(value, ast.Call):
        return False
    return ctx.qualname(value.func) in JIT_FACTORIES or (
        isinstance(value.func, ast.Call)
        and ctx.qualname(value.func.func) in PARTIAL
        and any(ctx.qualname(a) in JIT_FACTORIES for a in value.func.args[:1])
    )


def _jits_nothing(ctx: Context, value: ast.Call) -> bool:
    """`jax.jit(f)` of a def of this module that returns nothing (`sync.returns_nothing`)."""
    if ctx.qualname(value.func) != "jax.jit" or not value.args:
        return False
    fn = ctx.index.resolve_function(value.args[0])
    return fn is not None and returns_nothing(ctx.index, fn)


def _jitted_here(ctx: Context, fn: ast.AST) -> bool:
    """This module applies a jit factory to `fn` itself (not a helper traced through it)."""
    app = ctx.facts.transforms.applied.get(fn)
    return app is not None and app.kind is TracedKind.JIT and app.via in JIT_FACTORIES


def _repeated_before(call: ast.Call, end: ast.stmt) -> bool:
    """`call` runs in every step of a loop that does not hold `end`: it runs several times
    before the clock read (a loop holding both reads the clock in every step)."""
    for node in ancestors(call):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            return False
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and not contains(node, end):
            return True
    return False


def _in_scope_at(ctx: Context, name: str, call: ast.Call, end: ast.stmt) -> bool:
    """`name`, bound from `call`'s result, is visible at `end`: both run in the same scope
    (the same function or module body), and that scope binds `name`."""
    index = ctx.index
    if index.enclosing_function(call) is not index.enclosing_function(end):
        return False
    scope = index.scope_of(end)
    return name in scope.bindings and name not in scope.globals


def _string_statement_dispatches(ctx: Context, code: str) -> bool:
    """`timeit.timeit("f(x)", globals=globals())`: the statement is one call of a function
    this module jits at its top level (`f = jax.jit(...)`, `@jax.jit def f`), not blocked."""
    try:
        body = ast.parse(code.strip()).body
    except SyntaxError:
        return False
    if len(body) != 1 or not isinstance(body[0], ast.Expr):
        return False
    call = body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
        return False
    module = ctx.index.scopes[ctx.index.tree]
    found = module.bindings.get(call.func.id, [])
    if len(found) != 1:
        return False
    b = found[0]
    if b.kind == "def":
        return _jitted_here(ctx, b.node) and not returns_nothing(ctx.index, b.node)  # type: ignore[arg-type]
    value = b.value
    return (
        isinstance(value, ast.Call)
        and ctx.qualname(value.func) in JIT_FACTORIES
        and not _jits_nothing(ctx, value)
    )


class TimingWithoutBlockUntilReady(Rule):
    """Flags timings of JAX work that never wait for the result.

    What it does: finds two clock reads (`time.perf_counter()`, `time.time()`,
    `timeit.default_timer()`, notebook `%%time`/`%%timeit`/`%time`/`%timeit`, ...) around a
    call of a jitted function or a `jnp`/`jax.random` op when the host never waits for the
    latest such work before the second read. The results are followed through names,
    containers (`outs.append(y)`), later calls and loop targets (analysis/pending.py); any host
    sync of them ends the region honestly: `.block_until_ready()`, `np.stack(outs)`, `float`,
    `.item()`, `print`, an `if` on one, serialising, `jax.device_get`, or a function of the
    module that reads one. Also `timeit.timeit(lambda: f(x))` (or of a def, a partial, a
    string statement) with an unblocked jitted call.
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
    Fix: block every output still pending, `jax.block_until_ready((a, b))`, just before the
    second clock read (inline, `...; jax.block_until_ready(y); print(...)`, when that read
    shares its line with another statement); safe when each name is bound on every path
    there, unsafe when only a loop or a branch binds it. A dropped result (`step(x)` alone)
    is blocked where it is made; unsafe when that is in every step of a loop that ends before
    the clock read (it would time the steps one by one, not the loop).
    """

    code = "JAX601"
    name = "timing-without-block-until-ready"
    message = "JAX dispatch is asynchronous: this timing measures dispatch, not compute; block on the result (`jax.block_until_ready({holder})`) before reading the clock"
    fix_safety = "safe"
    verifier = "bench"
    prefilter_words = TIMING_WORDS
    prefilter_with_default = True  # and the JAX work it times
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
            """
            import time
            from functools import partial
            from jax import jit

            @partial(jit, donate_argnums=0)
            def train_step(state, batch):
                return state - 0.1 * batch, (batch**2).mean()

            def train(state, loader, log_every=100):
                losses = []
                for i, batch in enumerate(loader):
                    t0 = time.time()
                    state, loss = train_step(state, batch)  # error: JAX601
                    losses.append(loss)
                    step_time = time.time() - t0
                    if i % log_every == 0:
                        print(f"step {i}: {step_time * 1e3:.1f} ms")
                return state
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
            """
            import time
            import timeit
            import jax
            import jax.numpy as jnp

            def func_main(x):  # no return: jitted, XLA keeps nothing of it
                y = jnp.ones((100, 100)) @ jnp.ones((100, 100)) * x

            func_main_jit = jax.jit(func_main)

            def bench():
                func_main_jit(2)
                t0 = time.perf_counter()
                func_main_jit(2)
                return time.perf_counter() - t0

            def bench_timeit():
                return timeit.timeit("func_main_jit(2)", globals=globals(), number=10)
            """,
            """
            import time
            import jax

            f = jax.jit(lambda x: x @ x)
            g = jax.jit(lambda x: x + 1)

            def bench(x):
                # a device runs programs in dispatch order: waiting for the last one waits for
                # all (v37 qqt-gpu-sim kaggle_verify.py:130)
                jax.block_until_ready((f(x), g(x)))  # warm-up
                t0 = time.perf_counter()
                for _ in range(20):
                    f(x)
                jax.block_until_ready(f(x))
                t1 = time.perf_counter()
                for _ in range(20):
                    y = f(x)
                float(g(x).sum())
                return (t1 - t0) / 20, time.perf_counter() - t1
            """,
            """
            import time
            import jax

            @jax.jit
            def update(params, batch):
                return jax.tree.map(lambda p: p - 0.1 * batch, params)

            def run(params, batches, deadline):
                start = time.time()  # a timestamp for the log, not a timing
                outs = [update(params, b) for b in batches]
                print("started at", start, "now", time.time())
                t0 = time.perf_counter()
                params = update(params, batches[0])
                jax.tree.map(lambda a: a.block_until_ready(), params)
                t1 = time.perf_counter()
                t2 = time.perf_counter()
                outs = [update(params, b) for b in batches]
                for o in outs:
                    jax.block_until_ready(o)
                return t1 - t0, time.perf_counter() - t2
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
        for _, region, end in timed_regions(ctx, node):
            self._region(region, end, ctx)

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        for _, region, end in timed_regions(ctx, node):
            self._region(region, end, ctx)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _region(self, region: list[ast.stmt], end: ast.stmt, ctx: Context) -> None:
        reads = [(n.lineno, n.col_offset) for n in walk_no_functions(end) if is_clock(ctx, n)]

        def dispatches(call: ast.Call) -> bool:
            return is_async_work(ctx, call)

        found = pending_outputs(
            ctx.index,
            region,
            end,
            # setting up inputs from host data is not the work a timing measures
            lambda call: (
                dispatches(call) and not prepared_in_region(ctx.index, call, region, dispatches)
            ),
            clock_at=min(reads) if reads else None,
        )
        if found.last is None or found.waited or found.lost:
            return
        names = found.names
        holder = names[0] if len(names) == 1 else f"({', '.join(names)})" if names else None
        self.report(
            found.last,
            holder=holder or "result",
            fix=self._fix(found.last, names, found.discarded, end, ctx),
        )

    def _fix(
        self,
        last: ast.Call,
        names: list[str],
        discarded: list[ast.Call],
        end: ast.stmt,
        ctx: Context,
    ):  # noqa: ANN202
        """Block every output still pending at the clock read: one `block_until_ready` of the
        names that hold them, just before the statement that reads the clock (inline, `X; `,
        when that statement shares its line with another), and the dropped result of an
        expression statement wrapped where it is made."""
        try:
            jax_name, edits = ensure_module(ctx, "jax")
        except LookupError:
            return None
        if any(not _in_scope_at(ctx, n, last, end) for n in names):
            return None  # a local of another function there: the edit would raise NameError
        wraps = [
            ctx.replace(call, f"{jax_name}.block_until_ready({ctx.text(call)})")
            for call in discarded
        ]
        # a dropped result made in every step of a loop that ends before the clock read:
        # blocking it there serialises the steps (per-step latency instead of the loop's
        # throughput), which changes what is measured (new-user review 4): unsafe
        per_step = any(_repeated_before(call, end) for call in discarded)
        if not names:
            if not wraps:
                return None
            return self.fix(
                *wraps,
                *edits,
                safety="unsafe" if per_step else "safe",
                message="Block on each step's result (this times the steps one by one)"
                if per_step
                else "",
            )
        what = names[0] if len(names) == 1 else f"({', '.join(names)})"
        start = ctx.start(end)
        if ctx.source.line(end.lineno)[: start.col].strip():  # `...; t1 = clock()`
            insert = ctx.insert(start, f"{jax_name}.block_until_ready({what}); ")
        else:
            indent = ctx.line_indent(end.lineno)
            line = f"{indent}{jax_name}.block_until_ready({what}){ctx.source.newline}"
            insert = ctx.insert(Position(end.lineno, 0), line)
        # safe only when each name is bound on every path to the clock read: bound in a loop
        # body or a branch, it is unbound there after zero steps (UnboundLocalError)
        safe = not per_step and all(bound_on_every_path(ctx.index, n, end) for n in names)
        return self.fix(
            insert,
            *wraps,
            *edits,
            safety="safe" if safe else "unsafe",
            message="Block on the results before the second clock read",
        )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        """`timeit.timeit(lambda: f(x))`, `timeit.repeat(stmt=run)` with `def run(): return
        f(x)`, `timeit.Timer(partial(f, x))`: the timed callable returns an unblocked result."""
        if ctx.qualname(node.func) not in TIMEIT:
            return
        stmt = node.args[0] if node.args else keyword(node, "stmt")
        if stmt is None:
            return
        body: ast.AST | None = None
        if isinstance(stmt, ast.Lambda):
            body = stmt.body
        elif isinstance(stmt, ast.Name):
            fn = ctx.index.resolve_function(stmt)
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.body:
                last = fn.body[-1]  # `return f(x)` or `f(x)` as the last statement
                if isinstance(last, (ast.Return, ast.Expr)):
                    body = last.value
        elif isinstance(stmt, ast.Call) and ctx.qualname(stmt.func) in PARTIAL and stmt.args:
            inner = ast.Call(func=stmt.args[0], args=[], keywords=[])
            ast.copy_location(inner, stmt)
            inner.parent = stmt  # type: ignore[attr-defined]
            if is_async_work(ctx, inner):
                self.report(stmt, holder="...", fix=None)  # `partial(f, x)`: no place for it
            return
        if isinstance(stmt, ast.Constant) and isinstance(stmt.value, str):
            if _string_statement_dispatches(ctx, stmt.value):
                self.report(stmt, holder="...", fix=None)  # `timeit.timeit("f(x)", ...)`
            return
        if not (isinstance(body, ast.Call) and is_async_work(ctx, body)):
            return
        try:
            jax_name, edits = ensure_module(ctx, "jax")
            fix = self.fix(
                ctx.replace(body, f"{jax_name}.block_until_ready({ctx.text(body)})"), *edits
            )
        except LookupError:
            fix = None
        self.report(body, holder="...", fix=fix)
