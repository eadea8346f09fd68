"""JAX6xx: benchmarking honesty."""

from __future__ import annotations

import ast

from jaxlint.analysis.sync import (
    SYNC_METHODS,
    derived_names,
    executed,
    waits_for,
    waits_on_result,
)
from jaxlint.diagnostic import Position
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.compile import (
    fresh_callable,
    jit_application,
    jit_spec_of_def,
    jit_spec_of_value,
)

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
TREE_MAPS = {"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"}
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
    """What runs when `node` runs (a nested `def` only defines its body: not timed)."""
    return executed(node)


def _walk_owner(owner: ast.AST):
    """`owner`'s own body (a module or function), not entering nested definitions."""
    yield owner
    for child in ast.iter_child_nodes(owner):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            yield from executed(child)


def _blocked_by_wrapper(call: ast.Call, ctx: Context) -> bool:
    """`f(x).block_until_ready()`, `jax.block_until_ready(f(x))`, `float(f(x))`,
    `np.argmax(f(x))`, `assert f(x) > 0`, ..."""
    return waits_on_result(ctx.index, call)


def _in_scope_at(ctx: Context, name: str, call: ast.Call, end: ast.stmt) -> bool:
    """`name`, bound from `call`'s result, is visible at `end`: both run in the same scope
    (the same function or module body), and that scope binds `name`."""
    index = ctx.index
    if index.enclosing_function(call) is not index.enclosing_function(end):
        return False
    scope = index.scope_of(end)
    return name in scope.bindings and name not in scope.globals


def _ancestors(node: ast.AST):
    p = getattr(node, "jl_parent", None)
    while p is not None:
        yield p
        p = getattr(p, "jl_parent", None)


def _holders(call: ast.Call) -> list[str]:
    """The variables an async result is stored in (`out = f(x)`, `out, aux = f(x)`)."""
    for anc in _ancestors(call):
        if isinstance(anc, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = anc.targets if isinstance(anc, ast.Assign) else [anc.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    return [t.id]
                if isinstance(t, (ast.Tuple, ast.List)) and t.elts:
                    names = [e.id for e in t.elts if isinstance(e, ast.Name)]
                    if names and isinstance(t.elts[0], ast.Name):
                        return names
            return []
        if isinstance(anc, ast.stmt):
            return []
    return []


def _holder(call: ast.Call) -> str | None:
    names = _holders(call)
    return names[0] if names else None


def _blocking_call(ctx: Context, node: ast.AST, names: set[str]) -> bool:
    """`node` waits for a value held in one of `names` (see analysis/sync.py)."""
    if waits_for(ctx.index, node, names):
        return True
    if not isinstance(node, ast.Call):
        return False
    q = ctx.qualname(node.func)
    return bool(
        q in TREE_MAPS
        and len(node.args) > 1
        and isinstance(node.args[0], ast.Lambda)
        and _calls_blocking_method(node.args[0].body)
        and any(_mentions_any(a, names) for a in node.args[1:])
    )  # jax.tree.map(lambda a: a.block_until_ready(), out)


def _blocks_name(ctx: Context, stmts: list[ast.stmt], name: str) -> bool:
    names = derived_names(stmts, {name} | _iteration_aliases(stmts, name))
    return any(
        _blocking_call(ctx, node, names) for stmt in stmts for node in _walk_no_functions(stmt)
    )


def _blocks_before_clock(ctx: Context, end: ast.stmt, names: set[str]) -> bool:
    """`print(float(loss), time.time() - t0)`: the arguments before the clock read block."""
    reads = [(n.lineno, n.col_offset) for n in _walk_no_functions(end) if is_clock(ctx, n)]
    if not reads:
        return False
    first = min(reads)
    return any(
        (n.lineno, n.col_offset) < first and _blocking_call(ctx, n, names)  # type: ignore[attr-defined]
        for n in _walk_no_functions(end)
        if isinstance(n, ast.Call)
    )


def _iteration_aliases(stmts: list[ast.stmt], name: str) -> set[str]:
    """Targets of loops/comprehensions over `name` (`for o in outs: o.block_until_ready()`)."""
    out: set[str] = set()
    for stmt in stmts:
        for node in _walk_no_functions(stmt):
            if isinstance(node, (ast.For, ast.comprehension)) and _mentions(node.iter, name):
                out |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    return out


def _calls_blocking_method(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in SYNC_METHODS
        for n in ast.walk(node)
    )


def _mentions_any(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def statement_lists(owner: ast.AST):
    """Every statement list of `owner` (a module or function), not entering nested functions."""
    for node in _walk_owner(owner):
        for attr in ("body", "orelse", "finalbody"):
            stmts = getattr(node, attr, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                if node is owner or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield stmts


def timed_regions(ctx: Context, owner: ast.AST):
    """(start, region, end): `t0 = <clock>()` ... the next statement reading a clock, when
    the two reads are subtracted (`clock() - t0`, or `t1 = clock()` and later `t1 - t0`);
    a clock read for a timestamp or a deadline is not a timing, and neither is a loop that
    logs the time since a start before it (brax `logging.info(..., time.time() - xt)` in the
    training loop: a progress report, not a measurement of the code above the loop)."""
    for stmts in statement_lists(owner):
        for i, stmt in enumerate(stmts):
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and is_clock(ctx, stmt.value)
            ):
                continue
            start = stmt.targets[0].id
            for j in range(i + 1, len(stmts)):
                if any(is_clock(ctx, n) for n in _walk_no_functions(stmts[j])):
                    if isinstance(stmts[j], (ast.For, ast.AsyncFor, ast.While)):
                        break  # `for it in ...: log(clock() - t0)`: progress since start
                    if _elapsed(ctx, start, stmts[j], stmts[j + 1 :]):
                        yield stmt, stmts[i + 1 : j], stmts[j]
                    break


def _elapsed(ctx: Context, start: str, end: ast.stmt, rest: list[ast.stmt]) -> bool:
    """`end` reads the clock to measure time since `start`."""
    later = None
    if (
        isinstance(end, ast.Assign)
        and len(end.targets) == 1
        and isinstance(end.targets[0], ast.Name)
        and is_clock(ctx, end.value)
    ):
        later = end.targets[0].id
    for stmt in [end, *rest]:
        for node in _walk_no_functions(stmt):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
                continue
            if not _mentions(node.right, start):
                continue
            if later is not None and _mentions(node.left, later):
                return True
            if stmt is end and any(is_clock(ctx, n) for n in ast.walk(node.left)):
                return True
    return False


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
        holders = _holders(last)
        holder = holders[0] if holders else None
        if holder is not None:
            after = [s for s in region if s.lineno > last.lineno] + [
                s for s in region if s.lineno <= last.lineno
            ]
            # outputs of one jitted call are ready together: blocking on any of them counts
            if any(_blocks_name(ctx, after, h) for h in holders):
                return
            if _blocks_before_clock(ctx, end, derived_names(region, set(holders))):
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
        if not _in_scope_at(ctx, holder, call, end):
            return None  # a local of another function there: the edit would raise NameError
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


# -- JAX602 -------------------------------------------------------------------------------------


def _fresh_jitted(ctx: Context, call: ast.Call, owner: ast.AST) -> tuple[str, ast.AST] | None:
    """(why, where it was created) when `call` is certainly the first call of a jitted
    function: created in `owner` and not used there before, or created at module level and
    used nowhere but in `owner`, after this call. A `jax.jit(lambda ...)(x)` built on the
    spot always compiles."""
    func = call.func
    if isinstance(func, ast.Call):
        app = jit_application(ctx, func)
        if app is not None and fresh_callable(ctx, app[2]) is not None:
            return "a new jitted function is created and compiled inside the timed region", func
        return None
    if not isinstance(func, ast.Name):
        return None
    b = ctx.index.binding(func.id, ctx.index.scope_of(func))
    if b is None or b.kind not in ("def", "assign"):
        return None
    index = ctx.index
    owner_scope = index.scopes.get(owner)
    module_scope = index.scopes[index.tree]
    if owner_scope is not None and _only(owner_scope.bindings.get(func.id, []), b):
        region: ast.AST = owner
    elif owner is not index.tree and _only(module_scope.bindings.get(func.id, []), b):
        region = index.tree  # module level: every use must be in `owner`
    else:
        return None
    spec = jit_spec_of_def(ctx, b.node) if b.kind == "def" else jit_spec_of_value(ctx, b.value)
    if spec is None or spec.qualname not in JIT_FACTORIES:
        return None
    for node in ast.walk(region):
        if not (isinstance(node, ast.Name) and node.id == func.id and node is not func):
            continue
        if not isinstance(node.ctx, ast.Load):
            continue
        if (node.lineno, node.col_offset) < (func.lineno, func.col_offset):
            return None  # called (or lowered, or passed on) before: maybe warmed up
        if region is not owner and not _contains(owner, node):
            return None  # used elsewhere in the module: maybe called before
    created = b.node
    return (
        f"`{func.id}` (jitted on line {created.lineno}) has not been called before",  # type: ignore[attr-defined]
        created,  # type: ignore[return-value]
    )


def _only(bindings: list, b: object) -> bool:  # noqa: ANN001
    return len(bindings) == 1 and bindings[0] is b


COMPILE_WORDS = ("compil", "warm", "first", "cold", "trace", "lower")


def _measures_compilation(start: ast.stmt, end: ast.stmt) -> bool:
    """`t0 = ...; f(x); compile_time = time.perf_counter() - t0`: compilation on purpose."""
    names = {n.id.lower() for s in (start, end) for n in ast.walk(s) if isinstance(n, ast.Name)}
    names |= {
        n.value.lower()
        for n in ast.walk(end)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    return any(word in name for name in names for word in COMPILE_WORDS)


def _first_loop(node: ast.AST, owner: ast.AST) -> ast.AST | None:
    for anc in _ancestors(node):
        if anc is owner:
            return None
        if isinstance(anc, (ast.For, ast.AsyncFor, ast.While)):
            return anc
    return None


def _contains(tree: ast.AST, node: ast.AST) -> bool:
    return any(a is tree for a in _ancestors(node))


class TimingIncludesCompilation(Rule):
    """Flags a timing whose region contains the first call of a freshly jitted function.

    What it does: between two clock reads that are subtracted (`t0 = time.perf_counter()`
    ... `time.perf_counter() - t0`), or in `timeit.timeit(lambda: ...)`, finds the first call
    of a function jitted in the same scope (`f = jax.jit(g)`, a `@jax.jit` def) that nothing
    called, lowered or passed on before, or a `jax.jit(lambda ...)(x)` built inside the
    region. A timing repeated in a loop around an already created function is left alone
    (its first sample includes compilation, the median does not).
    Why is this bad: the first call traces and compiles, which can take far longer than the
    run itself (174 ms first call versus 20 ms steady state measured), so the number reports
    compilation, not the computation.
    Example:
        f = jax.jit(step)
        t0 = time.perf_counter()
        f(x).block_until_ready()
        dt = time.perf_counter() - t0
    Use instead:
        f = jax.jit(step)
        f(x).block_until_ready()          # warm-up (or f.lower(x).compile())
        t0 = time.perf_counter()
        f(x).block_until_ready()
        dt = time.perf_counter() - t0
    Fix: insert a blocked warm-up call before the first clock read (unsafe: the call runs
    once more, with its side effects and memory use). Not offered when the call's arguments
    are computed inside the timed region, or for a jit created inside the region.
    """

    code = "JAX602"
    name = "timing-includes-compilation"
    message = "this timing includes tracing and compilation: {why}; warm up first (call it once and block, or `.lower(...).compile()`) and time later calls"
    fix_safety = "unsafe"
    verifier = "compiles"
    tier = 2
    templates = ("benchmark",)
    examples = Examples(
        invalid=(
            """
            import time
            import jax
            import jax.numpy as jnp

            def step(x):
                return jnp.tanh(x @ x)

            def bench(x):
                f = jax.jit(step)
                t0 = time.perf_counter()
                y = f(x).block_until_ready()  # error: JAX602
                return time.perf_counter() - t0
            """,
            """
            import time
            from jax import jit
            import jax.numpy as jnp

            @jit
            def matmul(a, b):
                return a @ b

            a = jnp.ones((512, 512))
            start = time.time()
            for _ in range(10):
                c = matmul(a, a)  # error: JAX602
            c.block_until_ready()
            print("10 calls:", time.time() - start)
            """,
            """
            import timeit
            import jax

            def run(x):
                g = jax.jit(lambda v: v * 2)
                return timeit.timeit(lambda: g(x).block_until_ready(), number=5)  # error: JAX602
            """,
            """
            import time
            import jax

            def bench(x):
                t0 = time.perf_counter()
                y = jax.jit(lambda v: v + 1)(x)  # error: JAX602
                jax.block_until_ready(y)
                return time.perf_counter() - t0
            """,
            """
            import time
            import jax

            @jax.jit
            def train_step(params, x):
                return params - 0.1 * x

            def main(params, x):
                t0 = time.perf_counter()
                params = train_step(params, x)  # error: JAX602
                params.block_until_ready()
                print("step took", time.perf_counter() - t0)
            """,
        ),
        valid=(
            """
            import time
            import jax

            @jax.jit
            def f(x):
                return x * 2

            def bench(x):
                f(x).block_until_ready()  # warm-up
                t0 = time.perf_counter()
                f(x).block_until_ready()
                return time.perf_counter() - t0

            def bench_aot(x):
                g = jax.jit(lambda v: v + 1)
                compiled = g.lower(x).compile()
                t0 = time.perf_counter()
                compiled(x).block_until_ready()
                g(x).block_until_ready()
                return time.perf_counter() - t0
            """,
            """
            import statistics
            import time
            import jax

            def bench(fn, x, repeats=20):
                step = jax.jit(fn)
                times = []
                for _ in range(repeats):  # repeated samples: the median drops the compile
                    t0 = time.perf_counter()
                    step(x).block_until_ready()
                    times.append(time.perf_counter() - t0)
                return statistics.median(times)

            def compile_cost(fn, x):
                g = jax.jit(fn)
                t0 = time.perf_counter()
                g(x).block_until_ready()
                compile_s = time.perf_counter() - t0  # measuring the compilation on purpose
                return compile_s
            """,
            """
            import time
            import jax

            @jax.jit
            def train_step(params, x):
                return params - 0.1 * x

            def warm_up(params, x):
                return train_step(params, x)  # used elsewhere: maybe compiled already

            def main(params, x):
                t0 = time.perf_counter()
                params = train_step(params, x)
                params.block_until_ready()
                print("step took", time.perf_counter() - t0)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import time
                import jax

                def bench(fn, x):
                    f = jax.jit(fn)
                    t0 = time.perf_counter()
                    y = f(x)
                    jax.block_until_ready(y)
                    return time.perf_counter() - t0
                """,
                """
                import time
                import jax

                def bench(fn, x):
                    f = jax.jit(fn)
                    jax.block_until_ready(f(x))  # warm-up: compile outside the timing
                    t0 = time.perf_counter()
                    y = f(x)
                    jax.block_until_ready(y)
                    return time.perf_counter() - t0
                """,
            ),
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        self._owner(node, ctx)

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self._owner(node, ctx)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _owner(self, owner: ast.AST, ctx: Context) -> None:
        for start, region, end in timed_regions(ctx, owner):
            if _measures_compilation(start, end):
                continue
            calls = [
                n for stmt in region for n in _walk_no_functions(stmt) if isinstance(n, ast.Call)
            ]
            self._check(ctx, owner, start, region, calls)
        for node in _walk_owner(owner):
            if (
                isinstance(node, ast.Call)
                and ctx.qualname(node.func) in TIMEIT
                and node.args
                and isinstance(node.args[0], ast.Lambda)
            ):
                stmt = next((a for a in _ancestors(node) if isinstance(a, ast.stmt)), None)
                if stmt is not None:
                    body = node.args[0].body
                    calls = [n for n in ast.walk(body) if isinstance(n, ast.Call)]
                    self._check(ctx, owner, stmt, [], calls)

    def _check(self, ctx, owner, start, region, calls) -> None:  # noqa: ANN001
        loop = _first_loop(start, owner)
        seen: set[str] = set()
        for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
            found = _fresh_jitted(ctx, call, owner)
            if found is None:
                continue
            why, created = found
            name = call.func.id if isinstance(call.func, ast.Name) else None
            if name is not None:
                if name in seen:
                    continue
                seen.add(name)
                if loop is not None and not _contains(loop, created):
                    continue  # repeated samples of an already created function
            fix = self._fix(ctx, call, start, region) if name is not None else None
            self.report(call, why=why, fix=fix)

    def _fix(self, ctx: Context, call: ast.Call, start: ast.stmt, region: list[ast.stmt]):  # noqa: ANN202
        if call.lineno != call.end_lineno:
            return None
        line = ctx.source.line(start.lineno)
        if line[: ctx.start(start).col].strip():
            return None
        bound = {
            n.id
            for stmt in region
            for n in ast.walk(stmt)
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
        }
        used = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        if used & bound:
            return None  # the arguments are computed inside the region
        if any(isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await)) for n in ast.walk(call)):
            return None
        try:
            jax_name, edits = ensure_module(ctx, "jax")
        except LookupError:
            return None
        indent = ctx.line_indent(start.lineno)
        text = (
            f"{indent}{jax_name}.block_until_ready({ctx.text(call)})"
            f"  # warm-up: compile outside the timing{ctx.source.newline}"
        )
        return self.fix(
            ctx.insert(Position(start.lineno, 0), text),
            *edits,
            message="Warm up (compile) before the timed region",
        )
