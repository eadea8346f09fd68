"""What a timing is, for the benchmarking rules: clock reads and timed regions.

Both JAX6xx rules look at the statements between `t0 = <clock>()` and the read that
is subtracted from it (`clock() - t0`), and at `timeit` calls; the clock and timeit
name tables (analysis/jax_api.py) also give the prefilter its gate for them (`TIMING_WORDS`).
"""

from __future__ import annotations

import ast

from jaxlint.analysis.jax_api import CLOCKS, TIMEIT
from jaxlint.analysis.sync import executed
from jaxlint.analysis.syntax import SCOPE_BOUNDARIES
from jaxlint.analysis.timing_intent import labels_compilation
from jaxlint.rules.base import Context, roots

# a timing reads a clock (`time.*`, `timeit.*`), which the file must name (besides the JAX work)
TIMING_WORDS = roots(CLOCKS | TIMEIT)


def is_clock(ctx: Context, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ctx.qualname(node.func) in CLOCKS


def walk_no_functions(node: ast.AST):
    """What runs when `node` runs (a nested `def` only defines its body: not timed)."""
    return executed(node)


def walk_owner(owner: ast.AST):
    """`owner`'s own body (a module or function), not entering nested definitions."""
    yield owner
    for child in ast.iter_child_nodes(owner):
        if not isinstance(child, SCOPE_BOUNDARIES):
            yield from executed(child)


def mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def statement_lists(owner: ast.AST):
    """Every statement list of `owner` (a module or function), not entering nested functions."""
    for node in walk_owner(owner):
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
    training loop: a progress report, not a measurement of the code above the loop). A region
    labelled as compilation or a warm-up ("Time to jit", "compile+run") measures what it says
    (analysis/timing_intent.py): neither rule has anything to say about it."""
    if not ctx.facts.reads_clock or owner not in ctx.facts.callers_of(CLOCKS):
        return  # no clock read of its own: no region starts here
    if ctx.facts.traced.decorated(owner, kinds=("jit",)):
        # clock reads inside a jitted function run once, while JAX traces it: they time the
        # tracing, not a call (v25 row, tuning material: zoomy-jax solver_jax.py:1444, a
        # `@jax.jit` method reading `time.time()` twice; neither a block nor a warm-up changes
        # what it measures). Only a jit decorator makes every run a trace: `jax.jit(f) if
        # flag else f` still runs `f` eagerly, where its timings are real (v24: UPIX
        # exact_dcc.py:125, a TP)
        return
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
                if any(is_clock(ctx, n) for n in walk_no_functions(stmts[j])):
                    if isinstance(stmts[j], (ast.For, ast.AsyncFor, ast.While)):
                        break  # `for it in ...: log(clock() - t0)`: progress since start
                    if _elapsed(ctx, start, stmts[j], stmts[j + 1 :]) and not (
                        labels_compilation(ctx.index, stmt, stmts[j])
                    ):
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
        for node in walk_no_functions(stmt):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
                continue
            if not mentions(node.right, start):
                continue
            if later is not None and mentions(node.left, later):
                return True
            if stmt is end and any(is_clock(ctx, n) for n in ast.walk(node.left)):
                return True
    return False
