"""What a timed region measures: compilation on purpose, set-up work, another module's jit.

JAX compiles on the first call of a jitted function, synchronously, so a region around that
first call measures compilation, and often on purpose: `print(f"Time to jit: {dt}")`,
"[setup] compile+run", "Warming up ..." / "pre-compiled in". Neither a warm-up before it
(JAX602) nor a block after it (JAX601) is wanted there. The label is the evidence: the
strings and names of the statements that announce the region (just before it starts) and
report it (the clock read that ends it and the statements right after).

A set-up timer (`t0 = time.time(); mesh = build(); wet0 = jnp.asarray(mesh.mask); nwet =
jnp.sum(wet0); print(..., time.time() - t0)`) leaves only operations on data it made from
host values unwaited: that is preparing inputs, not the device work a timing measures
(`prepared_in_region`). A call of a function another module jit-compiles dispatches work
(`imported_compiled`, from the project index).

Why a module of its own: both benchmarking rules ask these, and they are facts about the
program, not about one rule (v14 tuning half: 25 rows, in six repositories).
"""

from __future__ import annotations

import ast
import re
import threading
from collections.abc import Callable

from jaxlint.analysis import syntax
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.jax_api import CLOCKS
from jaxlint.analysis.sync import executed

__all__ = [
    "imported_compiled",
    "labels_compilation",
    "labels_phase",
    "prepared_in_region",
    "timed_again",
    "warmed_up_by_callers",
]

# words that name compilation or a warm-up (not a bare "jit": "jitted step time" is the
# steady state of a jitted function; "time jit for" is: v38 FORESEE cartpole scripts, JAX602
# x15 read debatable, a region that times the first calls on purpose)
COMPILE_LABEL = re.compile(
    r"compil|\bjitting\b|\btime[ _](?:to[ _])?jit\b|\bjit[ _]time\b|\bwarm[- _]?up\b|\bwarming\b"
    r"|\bwarmed\b|\btracing\b|\bfirst[ _]call\b",
    re.IGNORECASE,
)
_AROUND = 2  # statements after the end read that may report it
# parts of the names of the clock variables and of the end read's text that say the same
# (`compile_time = time.perf_counter() - t0`, `t_cold`, `lower_s`): JAX602's first list.
# A warm-up, not "warm": `wall_warm` is the steady half of a cold/warm pair (v38 candidate
# lorrax `tools/probe_product_precond.py:160`, JAX602, tuning material: taking it for a
# compile timing dropped the warm region, so the cold one was reported)
NAME_WORDS = ("compil", "warmup", "warm_up", "warming", "first", "cold", "trace", "lower")


def labels_compilation(index: ModuleIndex, start: ast.stmt, end: ast.stmt) -> bool:
    """The region from `start` (`t0 = clock()`) to `end` (the read that measures it) is
    labelled as compilation or a warm-up: by a string or a name in the statement before
    `start` (an announcement, not the report of an earlier timing: it reads no clock), in
    `end`, or in the statements right after `end`."""
    before = [s for s in _siblings(start, -1, 0) if not _reads_clock(index, s)]
    if any(_labelled(s) for s in (*before, end, *_siblings(end, 1, _AROUND))):
        return True
    if _named_for_compilation(index.enclosing_function(start)):
        return True
    # `t_compile = ...; compile_time = time.perf_counter() - t0`: the names and text of the
    # two reads themselves
    words = {n.id.lower() for s in (start, end) for n in ast.walk(s) if isinstance(n, ast.Name)}
    words |= {
        n.value.lower()
        for n in ast.walk(end)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    return any(word in w for w in words for word in NAME_WORDS)


# what a function's own name must say: compilation or a warm-up itself (`twin_first_call` only
# names the case a test is about)
# (`warm_collectives`, whose timing prints "warmed 3 cliques in 40 ms": v38 candidate lorrax
# `distrib_la/_collectives.py:156`, JAX602, tuning material; not "warm start", a solver's)
_NAME_LABEL = re.compile(
    r"compil|\bwarm ?up\b|\bwarming\b|\bjitting\b|(?:^|\s)warm(?:ed)?\b(?! ?start)",
    re.IGNORECASE,
)


def _named_for_compilation(fn: ast.AST | None) -> bool:
    """The function holding the region is about compilation: its name says so
    (`benchmark_jit_compilation`), or it is a test or a benchmark whose docstring's first line
    does ("Second JIT call should be faster (uses cached compilation)"). v24 rows, tuning
    material: distillation-jax jax_distillation/validation/benchmarks.py:189 and
    tests/test_jit_compilation.py:152, JAX602. A training function whose docstring mentions
    compiling is not enough: its name must be a test's or a benchmark's."""
    name = getattr(fn, "name", None)
    if not isinstance(name, str):
        return False
    if _NAME_LABEL.search(name.replace("_", " ")):
        return True
    if not name.lower().startswith(("test", "bench")):
        return False
    doc = ast.get_docstring(fn) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    lines = doc.strip().splitlines() if doc else []
    return bool(lines) and COMPILE_LABEL.search(lines[0]) is not None


# words that name a whole phase of a program (a training run, an evaluation rollout, loading,
# an epoch, a total), and words that name one unit of work, which a benchmark measures
# ("train step time", "time per iteration", "inference latency")
PHASE_LABEL = re.compile(
    r"\btraining\b|rollout|\bepochs?\b|\btotal\b|\boverall\b|\bloading\b|\bcomplete[d]?\b"
    r"|\bfinished\b|\bepisodes?\b|\bend[- _]to[- _]end\b",
    re.IGNORECASE,
)
UNIT_LABEL = re.compile(
    r"\bsteps?\b|\biter|\bper\b|\bcalls?\b|\bforward\b|\binference\b|\blatency\b"
    r"|\bthroughput\b|/s\b|\bbenchmark",
    re.IGNORECASE,
)


def labels_phase(index: ModuleIndex, start: ast.stmt, end: ast.stmt) -> bool:
    """The region from `start` to `end` is labelled as the wall-clock time of a whole phase
    of a program: `rollout_time = time.time()` ... `rollout_time = time.time() - rollout_time`
    logged as a metric, `logger.info(f"Training complete. (time: {time.time() - t0:.2f}s)")`
    (v14 tuning rows, varibad_jax and starccato_jax: JAX602 x5). A phase's time includes
    the compilations that happen in it, as it includes its environment steps and its file
    writes: that is what it reports, not a benchmark of the jitted function that compiles
    there. The evidence is the label (the names of the two clock reads' variables, the
    strings of `end` and of the statements right after it) naming a phase and no unit of
    work ("train step time", "time per iteration", "inference latency": a benchmark's
    words). Only compilation is excused: unwaited work still makes a phase's time short
    (JAX601 does not ask this)."""
    words = [
        n.id.replace("_", " ") for s in (start, end) for n in ast.walk(s) if isinstance(n, ast.Name)
    ]
    for stmt in (end, *_siblings(end, 1, _AROUND)):
        words += [
            n.value
            for n in ast.walk(stmt)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        ]
    text = " ".join(words)
    return PHASE_LABEL.search(text) is not None and UNIT_LABEL.search(text) is None


def _reads_clock(index: ModuleIndex, stmt: ast.stmt) -> bool:
    return any(isinstance(n, ast.Call) and index.qualname(n.func) in CLOCKS for n in ast.walk(stmt))


def _siblings(stmt: ast.stmt, first: int, last: int) -> list[ast.stmt]:
    """The statements of `stmt`'s block at offsets `first` .. `last` from it (0 excluded)."""
    holder = syntax.parent(stmt)
    for part in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(holder, part, None)
        if isinstance(block, list) and stmt in block:
            i = block.index(stmt)
            lo, hi = (i + first, i) if first < 0 else (i + 1, i + last + 1)
            return block[max(0, lo) : hi]
    return []


def _labelled(stmt: ast.stmt) -> bool:
    """A string of `stmt` (a message, an f-string's text, a key) names compilation."""
    return any(
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and COMPILE_LABEL.search(node.value) is not None
        for node in ast.walk(stmt)
    )


# eager JAX operations (not compiled ones) and the transfers of host data to the device
_EAGER = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.")
_UPLOADS = frozenset({"jax.device_put", "jax.numpy.asarray", "jax.numpy.array"})
_COMPOUND = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)
# library namespaces whose attributes are constants (`jnp.bfloat16`, `np.float32`, `jnp.pi`)
_CONSTANT_NAMESPACES = ("jax.numpy.", "numpy.", "jax.")


def prepared_in_region(
    index: ModuleIndex,
    call: ast.Call,
    region: list[ast.stmt],
    dispatches: Callable[[ast.Call], bool],
) -> bool:
    """`call` is an eager JAX operation (an upload included: `jnp.asarray(mesh.mask)`,
    `jax.device_put(snapshot)`) whose every argument is data the region itself made: host
    data (`mesh = build(year)`, a literal, a library constant such as `jnp.bfloat16`) or such
    an operation's result (`nwet = jnp.sum(wet0)` after `wet0 = jnp.asarray(mesh.mask)`).
    That is setting up inputs, not the work a timing measures (fesom_jax's "[setup] built
    in" timers around file reading and NumPy). An operation on data made before the region (`jnp.dot(x, x)`,
    `jax.device_put(x)` of a parameter), or any call `dispatches` says is compiled work, is
    measured work."""
    q = index.qualname(call.func) or ""
    if not q.startswith(_EAGER) and q not in _UPLOADS:
        return False
    facts = _region_facts(region)
    based = facts.based_before(call)
    args = [*call.args, *(k.value for k in call.keywords)]
    return all(_prepared(index, a, facts.bound, dispatches, 0, based) for a in args)


class _RegionFacts:
    """What `prepared_in_region` reads of one region, computed once for all its calls (a
    timed region asks it of each dispatched call: one walk of the region, not one per call)."""

    def __init__(self, region: list[ast.stmt]) -> None:
        self.region = region
        self.bound = _region_bindings(region)
        self._position = {id(s): i for i, s in enumerate(region)}
        self._based = _based_prefixes(region)

    def based_before(self, call: ast.Call) -> frozenset[str]:
        """Names whose first binding in the region, before the statement holding `call`, is
        an assignment among the region's own statements that does not read the name (`ids =
        jnp.array(host)`, not `key, *subs = split(key, 3)`, which splits the key made before
        the region): every later read of them sees a value the region made from its own data."""
        holder: ast.AST | None = call
        while holder is not None and id(holder) not in self._position:
            holder = getattr(holder, "jl_parent", None)
        at = self._position[id(holder)] if holder is not None else len(self.region)
        return self._based[at]


_LAST_REGION = threading.local()  # the last region's facts, per thread


def _region_facts(region: list[ast.stmt]) -> _RegionFacts:
    cached = getattr(_LAST_REGION, "facts", None)
    if cached is not None and cached.region is region:
        return cached
    facts = _LAST_REGION.facts = _RegionFacts(region)
    return facts


def _based_prefixes(region: list[ast.stmt]) -> list[frozenset[str]]:
    """`out[i]`: the names based before the region's statement `i` (`_RegionFacts`)."""
    seen: set[str] = set()
    based: set[str] = set()
    out = [frozenset[str]()]
    for stmt in region:
        for node in executed(stmt):
            if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            value = node.iter if isinstance(node, ast.For) else node.value
            read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} if value else set()
            if node is stmt and isinstance(node, ast.Assign):
                based |= (names - seen) - read
            seen |= names
        out.append(frozenset(based))
    return out


def _region_bindings(region: list[ast.stmt]) -> dict[str, list[ast.expr]]:
    """Name -> the values the region's statements assign to it (a `for` target: its iterable)."""
    out: dict[str, list[ast.expr]] = {}
    for stmt in region:
        for node in executed(stmt):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            out.setdefault(n.id, []).append(node.value)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                for n in ast.walk(node.target):
                    if isinstance(n, ast.Name):
                        out.setdefault(n.id, []).append(node.iter)
    return out


_IN_PROGRESS: list[ast.expr] = []  # a name whose values are being decided (`_prepared`)
# AST levels `_prepared` follows: a name bound from itself is decided once per path, so the
# chain `ids <- concatenate <- argmax <- softmax <- logits / t <- model(ids)` fits
_MAX_DEPTH = 12


def _prepared(
    index: ModuleIndex,
    expr: ast.AST,
    bound: dict[str, list[ast.expr]],
    dispatches: Callable[[ast.Call], bool],
    depth: int,
    based: frozenset[str] = frozenset(),
) -> bool:
    if isinstance(expr, ast.Constant) or (
        isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant)
    ):
        return True  # `axis=-1`, at any depth
    if depth > _MAX_DEPTH:
        return False
    if isinstance(expr, ast.JoinedStr):
        return True
    if isinstance(expr, (ast.Name, ast.Attribute)) and (index.qualname(expr) or "").startswith(
        _CONSTANT_NAMESPACES
    ):
        return True  # a library constant: `dtype=jnp.bfloat16` (v26 rows: vggt-omega, JAX601)
    if isinstance(expr, ast.Name):
        values = bound.get(expr.id)
        if values is _IN_PROGRESS:
            # `ids = jnp.concatenate([ids, tok])` after `ids = jnp.array(host)` among the
            # region's own statements: made from its own earlier values and the rest,
            # prepared if the rest is (by induction over the steps; tuning pool
            # capibaraGPT_v3 `hybrid_inference_engine.py:223`, JAX601)
            return True
        if not values:
            return False  # a name the region does not bind holds an input made before it
        again = _IN_PROGRESS if expr.id in based else []
        return all(
            _prepared(index, v, {**bound, expr.id: again}, dispatches, depth + 1, based)
            for v in values
        )
    if isinstance(expr, (ast.Attribute, ast.Subscript, ast.Starred)):
        return _prepared(index, expr.value, bound, dispatches, depth + 1, based)
    if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, *_COMPOUND)):
        return all(
            _prepared(index, c, bound, dispatches, depth + 1, based)
            for c in ast.iter_child_nodes(expr)
            if isinstance(c, ast.expr)
        )
    if isinstance(expr, ast.Call):
        q = index.qualname(expr.func) or ""
        if q.startswith(_EAGER) or q in _UPLOADS:
            args = [*expr.args, *(k.value for k in expr.keywords)]
            return all(_prepared(index, a, bound, dispatches, depth + 1, based) for a in args)
        # host work made in the region (`build(year)`, `np.asarray(...)`), not compiled work
        return not dispatches(expr)
    return False


def imported_compiled(facts, func: ast.AST) -> bool:  # noqa: ANN001 - analysis.ModuleFacts
    """`func` names a jit-compiled function of another module of the project, as this module
    calls it (`step` after `from train import step`, `train.step`): the project index's
    `COMPILED_HELPERS` entry (analysis/project_data.py)."""
    from jaxlint.analysis.seed_keys import COMPILED_HELPERS

    entry = (facts.seeds or {}).get(COMPILED_HELPERS)
    name = dotted(func)
    return entry is not None and name is not None and name in entry.names


def timed_again(
    index: ModuleIndex,
    name: str,
    start: ast.stmt,
    regions: list[tuple[ast.stmt, list[ast.stmt], ast.stmt]],
) -> bool:
    """Another timed region that may run after the one `start` opens calls `name` too: the
    first timing is the cold half of a cold/warm pair, measured on purpose (`%timeit -n1 -r1
    f(x)` then `%timeit f(x)`; a "first call" timing, then the steady state). v16 rows,
    tuning material: EQuS/jaxquantum notebooks, JAX602 x21, "# Warm-up" / "# Should be
    faster" cells. `regions` are the scope's (start, statements, end) regions."""
    graphs = flow_graphs(index)
    for other, region, _ in regions:
        if other is start or not graphs.may_run_after(start, other):
            continue
        for stmt in region:
            for node in executed(stmt):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == name
                ):
                    return True
    return False


def warmed_up_by_callers(index: ModuleIndex, owner: ast.AST) -> bool:
    """Every call of the function `owner` in its module comes after a call of it whose value
    is thrown away, in the same block: the caller warms the timed helper up, so only that
    discarded call compiles (`run_planner(keys, s)[0].block_until_ready()` then `paths, dt =
    run_planner(keys, s)`: recall v3's gtmp twin, anindex/gtmp#1). Calls are found by the
    def's name; a function called nowhere, or passed on, is not warmed up."""
    if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    uses = [
        n
        for n in index.names.get(owner.name, ())
        if isinstance(n.ctx, ast.Load) and index.resolve_function(n) is owner
    ]
    calls = [n for n in uses if isinstance(call := syntax.parent(n), ast.Call) and call.func is n]
    if not calls or len(calls) != len(uses):
        return False
    warm = [c for c in calls if _discarded(syntax.parent(c), index)]  # type: ignore[arg-type]
    graphs = flow_graphs(index)
    return all(
        any(w is not c and graphs.runs_before(w, c) for w in warm) for c in calls if c not in warm
    ) and len(warm) < len(calls)


def _discarded(call: ast.Call, index: ModuleIndex) -> bool:
    """The call's value reaches no name: an expression statement of it, of a subscript or
    a method call of it (`f(x)[0].block_until_ready()`), or of `jax.block_until_ready(f(x))`."""
    cur: ast.AST = call
    while True:
        up = syntax.parent(cur)
        if isinstance(up, ast.Expr):
            return True
        if isinstance(up, (ast.Subscript, ast.Attribute)) and up.value is cur:
            cur = up
        elif isinstance(up, ast.Call) and (
            cur is up.func or (cur in up.args and index.qualname(up.func) in _BLOCKS)
        ):
            cur = up
        else:
            return False


_BLOCKS = frozenset({"jax.block_until_ready"})
