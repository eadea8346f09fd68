"""timing-includes-compilation (JAX602): a timed region holding the first call of a
freshly jitted function, so the number includes tracing and compilation; the
unsafe fix adds a blocked warm-up call before the first clock read.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.jax_api import (
    JIT_FACTORIES,
    TIMEIT,
)
from jaxlint.analysis.jit_sites import (
    fresh_callable,
    jit_application,
    jit_spec_of_def,
    jit_spec_of_value,
)
from jaxlint.analysis.syntax import ancestors, parent, statement_of
from jaxlint.analysis.timing_intent import labels_phase, timed_again, warmed_up_by_callers
from jaxlint.core.diagnostic import Position
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.benchmarking._timing import (
    TIMING_WORDS,
    timed_regions,
    walk_no_functions,
    walk_owner,
)


def _fresh_jitted(ctx: Context, call: ast.Call, owner: ast.AST) -> tuple[str, ast.AST] | None:
    """(why, where it was created) when `call` is certainly the first call of a jitted
    function: created in `owner` and not used there before, or created at module level and
    used nowhere but in `owner`, after this call. A `jax.jit(lambda ...)(x)` built on the
    spot always compiles."""
    func = call.func
    if isinstance(func, ast.Call):
        app = jit_application(ctx.index, func)
        if app is not None and fresh_callable(ctx.facts, app[2]) is not None:
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
    spec = jit_spec_of_def(index, b.node) if b.kind == "def" else jit_spec_of_value(index, b.value)
    if spec is None or spec.qualname not in JIT_FACTORIES:
        return None
    # the index's Name nodes of this identifier, not a walk of the region: a walk of the
    # module per timed call made a file with many timed regions quadratic
    for node in index.names.get(func.id, ()):
        if node is func or not isinstance(node.ctx, ast.Load):
            continue
        if region is owner and not _contains(owner, node):
            continue  # outside the owner: another scope's name
        if flow_graphs(index).may_run_first(node, func):
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


def _first_loop(node: ast.AST, owner: ast.AST) -> ast.AST | None:
    for anc in ancestors(node):
        if anc is owner:
            return None
        if isinstance(anc, (ast.For, ast.AsyncFor, ast.While)):
            return anc
    return None


def _runs_repeatedly(ctx: Context, owner: ast.AST) -> bool:
    """`owner` is a method (an evaluation or step of an object, called again and again) or a
    function that a loop of this module calls every step: a timing inside it is a repeated
    sample of a function jitted elsewhere (evojax `SimManager._for_loop_eval`'s steps/s log)."""
    if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if isinstance(parent(owner), ast.ClassDef):
        return True
    return owner in ctx.facts.loops.step_functions


def _contains(tree: ast.AST, node: ast.AST) -> bool:
    return any(a is tree for a in ancestors(node))


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
    verify = Verify(kinds=("compiles", "bench"), compile_time=True)
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
    prefilter_words = TIMING_WORDS
    prefilter_with_default = True  # and the JAX work it times

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        self._owner(node, ctx)

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self._owner(node, ctx)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _owner(self, owner: ast.AST, ctx: Context) -> None:
        if not ctx.facts.reads_clock:
            return
        regions = list(timed_regions(ctx, owner))  # compile timings left out
        for start, region, end in regions:
            if labels_phase(ctx.index, start, end):
                continue  # a whole phase's wall time: its compilations are part of it
            calls = [
                n for stmt in region for n in walk_no_functions(stmt) if isinstance(n, ast.Call)
            ]
            self._check(ctx, owner, start, region, calls, regions)
        if owner not in ctx.facts.callers_of(TIMEIT):
            return  # no `timeit` call of its own
        for node in walk_owner(owner):
            if (
                isinstance(node, ast.Call)
                and ctx.qualname(node.func) in TIMEIT
                and node.args
                and isinstance(node.args[0], ast.Lambda)
            ):
                stmt = statement_of(node)  # a call: never a statement itself
                if stmt is not None:
                    body = node.args[0].body
                    calls = [n for n in ast.walk(body) if isinstance(n, ast.Call)]
                    self._check(ctx, owner, stmt, [], calls)

    def _check(self, ctx, owner, start, region, calls, regions=None) -> None:  # noqa: ANN001
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
                if not _contains(owner, created) and (
                    _runs_repeatedly(ctx, owner) or warmed_up_by_callers(ctx.index, owner)
                ):
                    continue  # a method / per-step function / warmed up: its first call compiles
                if regions and timed_again(ctx.index, name, start, regions):
                    continue  # the cold half of a cold/warm pair (analysis/timing_intent.py)
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
