"""Loop awareness shared by rules: does this code run once per step of a Python loop?

Code runs *per step* when it sits in the body of a `for`/`while` loop (or the element part
of a comprehension) of its own function, or in a function that such a loop calls, directly
or through other functions of the same module (`for ...: train_step(...)` where
`train_step` calls `make_key()`). One-time initializers (`__init__`, `setup`, functions
under `functools.cache`/`lru_cache`) never run per step.

Rules use it as:

    step = ctx.facts.loops.per_step(node) # PerStep | None
    if step is None or step.traced: ...   # traced: a jitted function on the way runs its
                                          # Python body once per trace, not per step
    step.direct                           # in the loop body itself (else: step.calls /
                                          # step.functions, the call chain from the loop)
    step.loop, step.loop_statement        # the for/while/comprehension; the statement (None
                                          # for comprehensions): where hoisted code goes
    step.invariant(expr)                  # same value in every step: can be evaluated once
    step.varies(expr)                     # certainly changes with the loop variable/counters
    step.closure_varies(fn)               # a lambda/def made per step reads such a name
    step.closure_selects_code(fn)         # ... and that name picks the program (a callable,
                                          # a shape), not data (an index, a batch)
    step.trip_count, step.over_written_values   # `range(3)` / `for m in ("a", "b")`
    step.describe()                       # "in the loop on line 12" /
                                          # "in `step()`, called in every step of the loop ..."

plus the helpers `enclosing_loop(node)`, `loop_bound_names(loop)`, `loop_varying_names(loop)`, `free_names(index, fn)`,
`is_mutated_in(loop, name, index)`, `trip_count(loop)` and `one_time_function(index, fn)`.
The node helpers follow the parent links of `ModuleIndex` (`ctx.index` builds them;
`per_step` does so itself).
Everything is computed lazily, once per module (`ModuleFacts.loops`).
"""

from __future__ import annotations

import ast
import operator
import weakref
from dataclasses import dataclass, field

from jaxlint.analysis import syntax
from jaxlint.analysis.bool_results import bool_valued, returns_bool
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.jax_api import (
    CLOCKS,
    RANDOM_SHAPE_SECOND,
    SHAPE_FIRST,
    SHAPE_KEYWORDS,
    SHAPE_METHODS,
    SHAPE_SECOND,
)
from jaxlint.analysis.jit_sites import jit_application
from jaxlint.analysis.kept_fields import (
    TRAIN_STATE_STATIC,
    bindings_keep,
    imports_train_state,
    static_field_read,
)
from jaxlint.analysis.kinds import static_result
from jaxlint.analysis.seed_keys import BOOL_HELPERS, PASSED_ARGUMENTS
from jaxlint.analysis.syntax import (
    COMPREHENSIONS,
    FUNCTION_NODES,
    LOOP_STATEMENTS,
    SCOPE_BOUNDARIES,
    bind_arguments,
    contains,
    hasattr_parts,
    mentions,
    parent,
    positional_params,
    target_names,
    walk_scope,
)
from jaxlint.analysis.transforms import TracedKind
from jaxlint.analysis.trips import (
    SEQUENCE_WRAPPERS,
    guarded_int,
    literal_length,
    sliced_literal,
    trip_count,
)
from jaxlint.analysis.trips import iterable_of as _iterable
from jaxlint.analysis.trips import unwrapped as _unwrapped
from jaxlint.analysis.values import assigned_value

ONE_TIME_FUNCTIONS = frozenset(
    {"__init__", "__post_init__", "setup", "__new__", "__init_subclass__"}
)
CACHE_DECORATORS = frozenset(
    {
        "functools.cache",
        "functools.lru_cache",
        "functools.cached_property",
        "cache",
        "lru_cache",
        "cached_property",
    }
)
MAX_CHAIN = 4

# calls whose result depends only on their arguments (for `invariant`)
PURE_CALLS = frozenset(
    {
        "int",
        "float",
        "bool",
        "str",
        "complex",
        "len",
        "abs",
        "min",
        "max",
        "sum",
        "round",
        "tuple",
        "list",
        "dict",
        "set",
        "frozenset",
        "range",
        "sorted",
        "hash",
        "divmod",
        "pow",
        "zip",
        "enumerate",
        "reversed",
        "jax.device_put",
    }
)
PURE_PREFIXES = ("jax.numpy.", "numpy.", "math.", "jax.lax.", "jax.nn.", "jax.scipy.")
IMPURE_PREFIXES = ("numpy.random.", "jax.numpy.random.")
# methods that never change their receiver (for `is_mutated_in`)
PURE_METHODS = frozenset(
    {
        "copy",
        "sum",
        "mean",
        "max",
        "min",
        "std",
        "var",
        "prod",
        "any",
        "all",
        "reshape",
        "astype",
        "tolist",
        "item",
        "index",
        "count",
        "get",
        "keys",
        "values",
        "items",
        "transpose",
        "ravel",
        "flatten",
        "squeeze",
        "dot",
        "round",
        "clip",
        "argmax",
        "argmin",
        "cumsum",
        "startswith",
        "endswith",
        "format",
        "split",
        "join",
        "strip",
        "lower",
        "upper",
        "replace",
        "view",
    }
)
# functions that read their arguments without changing them (for `is_mutated_in`)
READ_ONLY_CALLS = frozenset(
    {
        "len",
        "print",
        "str",
        "repr",
        "float",
        "int",
        "bool",
        "list",
        "tuple",
        "sorted",
        "enumerate",
        "zip",
        "range",
        "isinstance",
        "sum",
        "min",
        "max",
        "abs",
        "iter",
        "dict",
        "set",
        "frozenset",
        "reversed",
        "hash",
        "id",
        "type",
        "map",
        "filter",
        "any",
        "all",
    }
)
READ_ONLY_PREFIXES = (
    "jax.",
    "numpy.",
    "math.",
    "equinox.",
    "optax.",
    "flax.",
)
MUTATING_QUALNAMES_PREFIXES = (
    "numpy.random.",
    "numpy.copyto",
    "numpy.put",
    "numpy.place",
    "numpy.fill_diagonal",
    "numpy.putmask",
    "random.shuffle",
)


def _is_cache_decorated(index: ModuleIndex, fn: ast.AST) -> bool:
    for dec in getattr(fn, "decorator_list", ()):
        target = dec.func if isinstance(dec, ast.Call) else dec
        q = index.qualname(target)
        if q in CACHE_DECORATORS:
            return True
    return False


def one_time_function(index: ModuleIndex, fn: ast.AST | None) -> bool:
    """`__init__`, `setup`, and functions under `functools.cache`: they run once, not per step."""
    if fn is None or isinstance(fn, ast.Lambda):
        return False
    return getattr(fn, "name", "") in ONE_TIME_FUNCTIONS or _is_cache_decorated(index, fn)


# -- where a node sits ------------------------------------------------------------------------


def enclosing_loop(node: ast.AST, *, comprehensions: bool = True) -> ast.AST | None:
    """The innermost loop of `node`'s own function whose every step runs `node`.

    `for x in ITER:` evaluates ITER once and its `else:` once, so neither is per step; a
    `while` test runs every step. Comprehension elements (and conditions) run per item.
    Stops at function, lambda and class boundaries.
    """
    child = node
    cur = parent(node)
    while cur is not None:
        if isinstance(cur, SCOPE_BOUNDARIES):
            return None
        if isinstance(cur, (ast.For, ast.AsyncFor)):
            if _in_list(cur.body, child):
                return cur
        elif isinstance(cur, ast.While):
            if child is cur.test or _in_list(cur.body, child):
                return cur
        elif comprehensions and isinstance(cur, COMPREHENSIONS):
            gens = cur.generators
            if child is not gens[0]:  # the first iterable is evaluated once
                return cur
            # inside the first generator: only its conditions run per item
            if any(contains(cond, node) for cond in gens[0].ifs):
                return cur
        child = cur
        cur = parent(cur)
    return None


def _in_list(stmts: list[ast.stmt], child: ast.AST) -> bool:
    return any(s is child for s in stmts)


def _enclosing_function(node: ast.AST) -> ast.AST | None:
    # loops count steps of a function; a class body runs once
    return syntax.enclosing_function(node, stop_at_class=True)


def _at_definition(node: ast.AST, fn: ast.AST) -> bool:
    """`node` is a default value, a decorator or an annotation of `fn`: Python evaluates it
    once, when the `def` (or `lambda`) itself runs, not on each call."""
    parts: list[ast.AST] = [*getattr(fn, "decorator_list", ())]
    args = getattr(fn, "args", None)
    if args is not None:
        parts += [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
        parts += [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    returns = getattr(fn, "returns", None)
    parts = [p for p in (*parts, returns) if p is not None]
    return any(contains(p, node) for p in parts)


def benchmark_loop(index: ModuleIndex, loop: ast.AST) -> bool:
    """A timing loop that repeats the same work on purpose: a `for`/`while` statement that
    a clock read brackets (in the statements just before and just after it) or that reads a
    clock itself, and that threads no value from one step into the next (no name the body
    binds is read in the loop before the body binds it again: `for _ in range(100):
    state = env_init(rng); ...` between `tick = time.time()` and `tock = time.time()`).
    A training loop with a timer threads its state (`params = step(params, ...)`), so it
    is not one. Its per-step costs and its repeated inputs are what it measures."""
    if not isinstance(loop, LOOP_STATEMENTS) or not _timed_statement(index, loop):
        return False
    return not _threads_values(index, loop)


def _threads_values(index: ModuleIndex, loop: ast.stmt) -> bool:
    """A name the loop's body binds is read in the loop where the value from before the
    step may reach it (the definitions reaching the loop statement reach the read): the
    next step sees what this one bound (`params = step(params, batch)`). The `for` target,
    rebound by the loop itself, does not count; an unknown answer counts as threading."""
    target = getattr(loop, "target", None)
    own = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} if target else set()
    bound = {
        n.id
        for part in (loop.body if isinstance(loop, (ast.For, ast.AsyncFor)) else [loop])
        for n in ast.walk(part)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id not in own
    }
    if not bound:
        return False
    graphs = flow_graphs(index)
    graph = graphs.graph(graphs.owner(loop))
    for node in ast.walk(loop):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound:
            defs, head = graphs.reaching(node), graph.reaching_at(node.id, loop)
            if defs is None or head is None or defs & head:
                return True
    return False


def _timed_statement(index: ModuleIndex, stmt: ast.stmt) -> bool:
    """`stmt` reads a clock, or the statements next to it in its block read one before and
    one after it (`t0 = time.time()` / the loop / `dt = time.time() - t0`)."""
    if _reads_clock(index, stmt):
        return True
    holder = syntax.parent(stmt)
    for part in ("body", "orelse", "finalbody"):
        block = getattr(holder, part, None)
        if isinstance(block, list) and stmt in block:
            i = block.index(stmt)
            return any(_reads_clock(index, s) for s in block[max(0, i - 3) : i]) and any(
                _reads_clock(index, s) for s in block[i + 1 : i + 4]
            )
    return False


def _reads_clock(index: ModuleIndex, node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call) and index.qualname(n.func) in CLOCKS
        for n in syntax.walk_scope(node)
    )


# -- names a loop binds -----------------------------------------------------------------------


def _loop_parts(loop: ast.AST) -> list[ast.AST]:
    """The parts of a loop that run per step."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        return [loop.target, *loop.body]
    if isinstance(loop, ast.While):
        return [loop.test, *loop.body]
    if isinstance(loop, COMPREHENSIONS):
        parts: list[ast.AST] = []
        for gen in loop.generators:
            parts.append(gen.target)
            parts.extend(gen.ifs)
        parts.extend(gen.iter for gen in loop.generators[1:])
        if isinstance(loop, ast.DictComp):
            parts += [loop.key, loop.value]
        else:
            parts.append(loop.elt)
        return parts
    return []


_BOUND_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def loop_bound_names(loop: ast.AST) -> frozenset[str]:
    """Every name (re)bound by a step of `loop`: targets, assignments, defs, imports, `del`.

    A superset of what may change between steps; use it to decide that an expression is
    safe to evaluate once (hoisting).
    """
    cached = _BOUND_CACHE.get(loop)
    if cached is not None:
        return cached
    names: set[str] = set()
    for part in _loop_parts(loop):
        for node in walk_scope(part):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    names.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ExceptHandler) and node.name:
                names.add(node.name)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                pass
    if isinstance(loop, COMPREHENSIONS):
        for gen in loop.generators:
            names.update(target_names(gen.target))
    result = frozenset(names)
    try:
        _BOUND_CACHE[loop] = result
    except TypeError:  # pragma: no cover - ast nodes are weak-referenceable
        pass
    return result


def loop_varying_names(
    loop: ast.AST, exclude: frozenset[str] = frozenset(), index: ModuleIndex | None = None
) -> frozenset[str]:
    """Names that certainly change from step to step: loop targets, counters (`i += 1`,
    `lr = lr * 0.9`) and names computed from them, to a fixed point. Names in `exclude` are
    taken as unchanging (what follows from them alone is not counted). With `index`, `x =
    f(x)` is a counter only where the `x` it reads may come from an earlier step (the flow
    graph's reaching definitions): a batch rebound at the top of each step and then padded
    (`src_batch = jnp.pad(src_batch, ...)`) is not (v36 uot-fm `utils/metrics.py:121`,
    JAX404 FP, tuning material)."""
    varying: set[str] = set()
    assigns: list[tuple[set[str], ast.AST]] = []
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        varying.update(target_names(loop.target))
    elif isinstance(loop, COMPREHENSIONS):
        for gen in loop.generators:
            varying.update(target_names(gen.target))
    for part in _loop_parts(loop):
        for node in walk_scope(part):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                if not _fixed_count_per_step(loop, node.target.id):
                    varying.add(node.target.id)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                varying.update(target_names(node.target))
            elif isinstance(node, ast.Assign):
                targets: set[str] = set()
                for t in node.targets:
                    targets.update(target_names(t))
                if mentions(node.value, targets) and _carried(index, loop, node, targets):
                    varying |= targets  # x = x * 0.9
                assigns.append((targets, node.value))
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                target = node.target
                if isinstance(target, ast.Name):
                    assigns.append(({target.id}, node.value))
    varying -= exclude
    changed = True
    while changed:
        changed = False
        for targets, value in assigns:
            if not targets - exclude <= varying and mentions(value, varying):
                varying |= targets - exclude
                changed = True
    return frozenset(varying)


def _fixed_count_per_step(loop: ast.AST, name: str) -> bool:
    """`name` counts the same number every step: a statement of the loop's own body sets it to
    a literal (`done = 0`) before the statement that holds every `name += <literal>`, and
    each of those sits in a `for _ in range(k)` of that statement whose `k` the loop does not
    change: at the end of every step it is `k` again (a step cut short by a `break` of the
    data's end is the last one). v39 parkiet `src/parkiet/jax/train.py:627`: the gradient
    accumulation count passed as a static argument after its inner loop (JAX403 x2, read
    FP, tuning material)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
        return False
    body = loop.body
    reset = next(
        (
            i
            for i, stmt in enumerate(body)
            if isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == name
            and isinstance(stmt.value, ast.Constant)
        ),
        None,
    )
    if reset is None:
        return False
    outer_targets = (
        set(target_names(loop.target)) if isinstance(loop, (ast.For, ast.AsyncFor)) else set()
    )
    writes = 0
    for i, stmt in enumerate(body):
        for node in walk_scope(stmt):
            if not (isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr))):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(name in target_names(t) for t in targets):
                continue
            if i == reset and node is stmt:
                continue
            if not isinstance(node, ast.AugAssign) or not isinstance(node.value, ast.Constant):
                return False
            inner = next(
                (a for a in syntax.ancestors(node) if isinstance(a, LOOP_STATEMENTS)), None
            )
            if (
                i <= reset
                or not isinstance(inner, ast.For)
                or not syntax.contains(stmt, inner)
                or not (
                    isinstance(inner.iter, ast.Call)
                    and getattr(inner.iter.func, "id", "") == "range"
                )
                or mentions(inner.iter, outer_targets | {name})
            ):
                return False
            writes += 1
    return writes > 0


def _carried(index: ModuleIndex | None, loop: ast.AST, stmt: ast.Assign, names: set[str]) -> bool:
    """Some load of `names` in `stmt`'s value may see a value from an earlier step: a binding
    before the loop, `stmt` itself, or one of the loop's that cannot run ahead of `stmt`'s
    first run (reached through the back edge). True when unknown or without `index`."""
    if index is None:
        return True
    flow = flow_graphs(index)
    for load in ast.walk(stmt.value):
        if not (isinstance(load, ast.Name) and load.id in names):
            continue
        defs = flow.reaching(load)
        if defs is None:
            return True
        for d in defs:
            node = d.node
            if node is None or node is stmt or not syntax.contains(loop, node):
                return True
            if not flow.may_run_first(node, stmt):
                return True
    return False


def free_names(index: ModuleIndex, fn: ast.AST) -> frozenset[str]:
    """Names a function reads from enclosing scopes: loaded anywhere in its body, including
    in lambdas, defs and comprehensions nested in it, and bound in none of those scopes.
    (A name bound in a nested scope counts as bound everywhere: an under-approximation.)"""
    loaded: set[str] = set()
    bound: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loaded.add(node.id)
        elif isinstance(node, (*FUNCTION_NODES, *COMPREHENSIONS)):
            scope = index.scopes.get(node)
            if scope is not None:
                bound.update(n for n in scope.bindings if n not in scope.globals)
            if isinstance(node, COMPREHENSIONS):
                for gen in node.generators:
                    bound.update(target_names(gen.target))
    return frozenset(loaded - bound)


def is_mutated_in(region: ast.AST, name: str, index: ModuleIndex) -> bool:
    """`name`'s object may change inside `region` (a loop): stores into it (`x[i] = ...`,
    `x.a = ...`), `del`, augmented assignment, a method call on it (except a few read-only
    ones) or passing it to a call that may mutate its arguments."""
    b = index.binding(name, index.scope_of(region))
    if b is not None and b.kind in ("import", "def", "class"):
        return False  # modules, functions and classes: calling their attributes is not mutation
    parts = (
        _loop_parts(region) if isinstance(region, (*LOOP_STATEMENTS, *COMPREHENSIONS)) else [region]
    )
    for part in parts:
        for node in walk_scope(part):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
                node.ctx, (ast.Store, ast.Del)
            ):
                if _base_name(node) == name:
                    return True
            elif isinstance(node, ast.AugAssign) and _base_name(node.target) == name:
                return True
            elif isinstance(node, ast.Call):
                func = node.func
                if (
                    isinstance(func, ast.Attribute)
                    and _base_name(func.value) == name
                    and func.attr not in PURE_METHODS
                ):
                    return True
                passed = [*node.args, *(kw.value for kw in node.keywords)]
                if any(_passes(arg, name) for arg in passed) and not _read_only_call(index, node):
                    return True
    return False


def attribute_path(node: ast.AST) -> str | None:
    """`self.trainers` -> "self.trainers": a chain of attributes on a name (None otherwise)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _overlap(a: str, b: str) -> bool:
    """One path is the other or holds it (`self` holds `self.trainers`)."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def _written_path(node: ast.AST) -> str | None:
    """The attribute path a store target writes into (`self.x[i] = ...` writes `self.x`)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return attribute_path(node)


def _jitted_attribute(index: ModuleIndex, func: ast.Attribute) -> bool:
    """`self.step_fn(...)` where every assignment of `self.step_fn` in the class stores a
    JAX transform of a function (`self._sgd_step = jax.jit(sgd_step, ...)`): calling it
    computes on its arguments; it rebinds no attribute of `self`."""
    if not (isinstance(func.value, ast.Name) and func.value.id == "self"):
        return False
    cls = next((a for a in syntax.ancestors(func) if isinstance(a, ast.ClassDef)), None)
    if cls is None:
        return False
    values = [
        n.value
        for n in ast.walk(cls)
        if isinstance(n, ast.Assign)
        and any(
            isinstance(t, ast.Attribute)
            and t.attr == func.attr
            and isinstance(t.value, ast.Name)
            and t.value.id == "self"
            for t in n.targets
        )
    ]
    return bool(values) and all(
        isinstance(v, ast.Call) and (index.qualname(v.func) or "").startswith("jax.")
        for v in values
    )


def is_path_mutated_in(region: ast.AST, path: str, index: ModuleIndex) -> bool:
    """Like `is_mutated_in`, for the object at an attribute path (`self.trainers`): only
    writes into that path (or into what holds it), method calls on it or on its holders,
    and passing it or a holder on count. `self.step += 1` and `self.state = ...` leave
    `self.trainers` alone (enn's `for t in self.pure_trainers:` inside a step loop that
    updates `self.state`: the same trainers every step)."""
    root = path.split(".", 1)[0]
    b = index.binding(root, index.scope_of(region))
    if b is not None and b.kind in ("import", "def", "class"):
        return False
    parts = (
        _loop_parts(region) if isinstance(region, (*LOOP_STATEMENTS, *COMPREHENSIONS)) else [region]
    )
    for part in parts:
        for node in walk_scope(part):
            if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
                node.ctx, (ast.Store, ast.Del)
            ):
                written = _written_path(node)
                if written is None or _overlap(written, path):
                    if written is not None or _base_name(node) == root:
                        return True
            elif isinstance(node, ast.AugAssign) and isinstance(
                node.target, (ast.Attribute, ast.Subscript)
            ):
                written = _written_path(node.target)
                if written is None and _base_name(node.target) == root:
                    return True
                if written is not None and _overlap(written, path):
                    return True
            elif isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr not in PURE_METHODS:
                    receiver = _written_path(func.value)
                    if receiver is None and _base_name(func.value) == root:
                        return True
                    if (
                        receiver is not None
                        and _overlap(receiver, path)
                        and not _jitted_attribute(index, func)
                    ):
                        return True
                for arg in [*node.args, *(kw.value for kw in node.keywords)]:
                    arg = arg.value if isinstance(arg, ast.Starred) else arg
                    given = _written_path(arg)
                    hit = _overlap(given, path) if given is not None else _base_name(arg) == root
                    if hit and not _read_only_call(index, node):
                        return True
    return False


def _read_path(name: ast.Name) -> str | None:
    """The attribute path a loaded name is read through (`self.trainers` for `self` in
    `self.trainers`; without the method of a call: `self.trainers.copy()`), or None for a
    bare name."""
    node: ast.AST = name
    up = parent(node)
    while isinstance(up, ast.Attribute) and up.value is node and isinstance(up.ctx, ast.Load):
        node = up
        up = parent(node)
    if node is name:
        return None
    if isinstance(up, ast.Call) and up.func is node:
        node = node.value  # type: ignore[attr-defined]
        if node is name:
            return None
    return attribute_path(node)


def _passes(arg: ast.AST, name: str) -> bool:
    if isinstance(arg, ast.Starred):
        arg = arg.value
    return _base_name(arg) == name


def _base_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _read_only_call(index: ModuleIndex, call: ast.Call) -> bool:
    if _jitted_name(index, call.func):
        return True
    q = index.qualname(call.func)
    if q is None:
        return False
    if q.startswith(MUTATING_QUALNAMES_PREFIXES):
        return False
    return q in READ_ONLY_CALLS or q.startswith(READ_ONLY_PREFIXES)


def _jitted_name(index: ModuleIndex, func: ast.AST) -> bool:
    """`step(...)` where `step = jax.jit(fn, ...)` is the name's one assignment: a compiled
    call hashes its static arguments and copies the rest into the program; it mutates none
    of them (v22 rows, tuning material: jax_penning_pic `run_steps_block_jitted(state,
    tables, config, num_steps)` in a loop reading `config.it_num`, JAX403 x2)."""
    value = assigned_value(index, func) if isinstance(func, ast.Name) else None
    return isinstance(value, ast.Call) and jit_application(index, value) is not None


def _private_top_level(index: ModuleIndex, fn: ast.AST) -> bool:
    """A module-level `def _name` (not a dunder): by convention used only in its module."""
    name = getattr(fn, "name", "")
    return (
        isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        and name.startswith("_")
        and not name.startswith("__")
        and fn in getattr(index.tree, "body", ())
    )


# -- per-step facts ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PerStep:
    """Why a piece of code runs once per step of a Python loop."""

    loop: ast.AST  # For/AsyncFor/While statement, or a comprehension
    calls: tuple[ast.Call, ...] = ()  # call sites from the loop down to the code's function
    functions: tuple[ast.AST, ...] = ()  # the called functions, outermost first
    traced: bool = False  # some function on the way is traced by jit: runs per trace only
    _index: ModuleIndex | None = field(default=None, repr=False)
    _facts: object = field(default=None, repr=False)  # analysis.ModuleFacts: calls, pytrees

    @property
    def direct(self) -> bool:
        """The code sits in the loop's body itself (not in a function it calls)."""
        return not self.calls

    @property
    def loop_statement(self) -> ast.stmt | None:
        """The loop as a statement (None for comprehensions): where hoisted code goes."""
        return self.loop if isinstance(self.loop, LOOP_STATEMENTS) else None

    @property
    def trip_count(self) -> int | None:
        """At most how many steps the loop takes, when the source says: written out (`for m
        in ("a", "b")`, `range(3)`, a name bound once to a literal: `for case in
        test_cases:`), or a list only grown by a few appends that run once each
        (`_appended_bound`); else None.

        Rules about per-step cost stay silent for a handful of steps (FEW_STEPS)."""
        count = trip_count(self.loop, self._local_int)
        if count is None and self._index is not None:
            count = _bounded_steps(_iterable(self.loop), self._index, self._facts)
        return count

    def _local_int(self, node: ast.AST) -> int | None:
        """An int literal, or a name bound once in its scope to one (`num_outer_steps = 1`
        before `for o_t in range(num_outer_steps)`: v24 social-jax, JAX407 x3)."""
        guarded = guarded_int(node) if isinstance(node, ast.Name) else None
        if guarded is not None:
            return guarded  # `range(n)` under `if n == 4:`
        if isinstance(node, ast.Name) and self._index is not None:
            found = self._index.lookup(node.id, self._index.scope_of(node))
            if found is None or len(found) != 1 or found[0].kind != "assign":
                return None
            node = found[0].value  # type: ignore[assignment]
        value = node.value if isinstance(node, ast.Constant) else None
        return value if type(value) is int else None

    def every_step(self, node: ast.AST) -> bool:
        """`node` runs in every step of the loop, not on some steps only (v15 rows, tuning
        material: JAX407 x8). In the loop's own body: no `if` around it dispatches on the
        type of a per-step value (`elif isinstance(col, Plane):` in a loop over geometries
        runs for the one plane: jaxrenderer notebooks). In a function the loop calls: no
        condition stands around it there, since which calls take a branch is the caller's
        data (`if model == PeakCollection:` in a helper called for every model class, JaXRTS
        tests/test_models.py:59-70; a lazy `if Cls._table is None:` cache, qml-essentials
        coefficients.py:632), unless every visible call takes that arm by the defaults it
        leaves (`if random_color: ... else:` with `random_color=False`: `dead_by_defaults`).
        A `match` case or an `except` handler runs on some steps only."""
        varying = loop_varying_names(self.loop, index=self._index) if self.direct else frozenset()
        own = self.functions[-1] if self.functions else None
        stop = own if own is not None else self.loop
        child: ast.AST = node
        for anc in syntax.ancestors(node):
            if anc is stop:
                return True
            if isinstance(anc, (ast.If, ast.IfExp)) and child is not anc.test:
                if self.direct:
                    if _type_dispatch(anc.test, varying):
                        return False
                elif not (isinstance(anc, ast.If) and self._arm_by_defaults(anc, child, own)):
                    return False
            elif isinstance(anc, (ast.match_case, ast.ExceptHandler)):
                return False
            child = anc
        return True

    def _arm_by_defaults(self, branch: ast.If, child: ast.AST, fn: ast.AST | None) -> bool:
        """Every visible call of `fn` takes the arm of `branch` that holds `child`: the other
        arm is dead by the defaults its calls leave (`dead_by_defaults`)."""
        other = branch.orelse if any(s is child for s in branch.body) else branch.body
        if not other or fn is None or self._index is None:
            return False
        return dead_by_defaults(self._index, other[0], fn)

    @property
    def over_written_values(self) -> bool:
        """The loop walks a literal sequence (`for n in [1, 2, 4, 8]`): the values, and so the
        number of distinct ones, are spelled out on purpose (sweeps, size lists)."""
        it = _unwrapped(_iterable(self.loop))
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip":
            return any(self._written_out(a) for a in it.args)
        return self._written_out(it)

    def _written_out(self, it: ast.AST | None) -> bool:
        """`it` is a literal sequence, or a name whose every binding in its scope is one (an
        assignment, or a parameter's default: `degrees=[1, 2, 3]`, `solvers = (A(), B())`)."""
        if isinstance(it, (ast.List, ast.Tuple, ast.Set)) or sliced_literal(it) is not None:
            return True
        if not isinstance(it, ast.Name) or self._index is None:
            return False
        found = self._index.lookup(it.id, self._index.scope_of(it))
        if not found:
            return False
        for b in found:
            if b.kind == "param":
                default = _param_default(b.node, self._index)
                if not isinstance(default, (ast.List, ast.Tuple, ast.Set)):
                    return False
            elif not (
                isinstance(b.value, (ast.List, ast.Tuple, ast.Set))
                or sliced_literal(b.value) is not None
            ):
                return False
        return True

    def values_repeat(self, expr: ast.AST) -> bool:
        """`expr`, though it changes from step to step, takes only values it took before: a
        bool (`i % every == 0`, `False if c else flag`), or values drawn from this loop's
        iterable when an enclosing loop runs it again unchanged (`for step in ...: for i in
        range(k): f(x, i)`: k programs, compiled in the first outer step, reused after)."""
        if self._bool_valued(expr):
            return True
        if isinstance(expr, ast.Name) and self.direct:
            values = [
                n.value
                for part in _loop_parts(self.loop)
                for n in walk_scope(part)
                if isinstance(n, ast.Assign)
                and any(expr.id in set(target_names(t)) for t in n.targets)
            ]
            if values and all(self._bool_valued(v) for v in values):
                return True
        if self.direct and self._drawn_from_fixed_collection(expr):
            return True
        if self.direct and self._static_field_kept(expr):
            return True
        if self.direct and self._chunk_or_remainder(expr):
            return True
        iterable = _iterable(self.loop)
        if not self.direct or iterable is None:
            return False
        outer = enclosing_loop(self.loop)
        if outer is None or self._index is None:
            return False
        inner = loop_varying_names(self.loop, index=self._index)
        outer_only = loop_varying_names(outer, index=self._index) - inner
        if not mentions(expr, inner) or mentions(expr, outer_only):
            return False
        return PerStep(outer, _index=self._index).invariant(iterable)

    def _chunk_or_remainder(self, expr: ast.AST) -> bool:
        """`chunk = min(size, total - done)` where the loop advances `done` by `chunk` (`done +=
        chunk`) or steps it by `size` (`for done in range(start, total, size)`), `size` and
        `total` the same in every step: `chunk` is `size` on every step but the last, which
        takes the remainder, so two values at most (v19 rows, tuning material:
        jax-quantum-research grover_simulation/*.py, `run_steps(state, chunk)` with a static
        `chunk`, JAX403 x3)."""
        if not isinstance(expr, ast.Name):
            return False
        values = [
            n
            for part in _loop_parts(self.loop)
            for n in walk_scope(part)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
            and any(expr.id in set(target_names(t)) for t in _targets(n))
        ]
        if len(values) != 1 or not isinstance(values[0], ast.Assign):
            return False
        value = values[0].value
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "min"
            and self._index is not None
            and self._index.binding("min", self._index.scope_of(value)) is None
            and len(value.args) == 2
            and not value.keywords
        ):
            return False
        for size, rest in (value.args, value.args[::-1]):
            if not (
                isinstance(rest, ast.BinOp)
                and isinstance(rest.op, ast.Sub)
                and isinstance(rest.right, ast.Name)
                and self.invariant(size)
                and self.invariant(rest.left)
            ):
                continue
            done = rest.right.id
            if self._advances_by(done, expr.id) or self._steps_by(done, size, rest.left):
                return True
        return False

    def _advances_by(self, done: str, chunk: str) -> bool:
        """The loop's one binding of `done` is `done += chunk`."""
        writes = [
            n
            for part in _loop_parts(self.loop)
            for n in walk_scope(part)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr))
            and any(done in set(target_names(t)) for t in _targets(n))
        ]
        return (
            len(writes) == 1
            and isinstance(writes[0], ast.AugAssign)
            and isinstance(writes[0].op, ast.Add)
            and isinstance(writes[0].value, ast.Name)
            and writes[0].value.id == chunk
        )

    def _steps_by(self, done: str, size: ast.expr, total: ast.expr) -> bool:
        """`for done in range(start, total, size)`, and the body never rebinds `done`."""
        loop = self.loop
        if not (
            isinstance(loop, ast.For)
            and isinstance(loop.target, ast.Name)
            and loop.target.id == done
            and isinstance(loop.iter, ast.Call)
            and isinstance(loop.iter.func, ast.Name)
            and loop.iter.func.id == "range"
            and len(loop.iter.args) == 3
            and not loop.iter.keywords
        ):
            return False
        _, stop, step = loop.iter.args
        return ast.dump(step) == ast.dump(size) and ast.dump(stop) == ast.dump(total)

    def _bool_valued(self, expr: ast.AST) -> bool:
        """`expr` is a Python bool (two values at most): by its form (`step >= start`,
        `bool(x)`, `False if c else flag`: kinds.bool_valued), or a call of a function whose
        every return is one, of this module (`kinds.returns_bool`) or, through the project
        index's summary, of another (`train_utils.should_update_bounds(...)`)."""
        if bool_valued(expr):
            return True
        if not isinstance(expr, ast.Call) or self._facts is None or self._index is None:
            return False
        fn = self._facts.calls.function(expr)  # type: ignore[attr-defined]
        if fn is not None:
            return returns_bool(fn)
        helpers = (self._facts.seeds or {}).get(BOOL_HELPERS)  # type: ignore[attr-defined]
        return helpers is not None and static_result(
            self._index, frozenset(helpers.names), expr.func
        )

    def _static_field_kept(self, expr: ast.AST) -> bool:
        """`expr` reads a static pytree field (`state.model.apply`, `state.apply_fn`) of an
        object every step rebuilds by copies that keep that field (`state.replace(...)`,
        `apply_gradients`, through functions of this module: analysis/kept_fields.py): the
        same Python object in every step, so one value."""
        facts = self._facts
        read = static_field_read(expr)
        if facts is None or read is None or self._index is None:
            return False
        name, attr = read
        static = facts.pytrees.is_static_attribute(attr) or (  # type: ignore[attr-defined]
            attr in TRAIN_STATE_STATIC and imports_train_state(self._index.imported_names())
        )
        if not static:
            return False
        gens = self.loop.generators if isinstance(self.loop, COMPREHENSIONS) else [self.loop]
        if any(
            name in set(target_names(getattr(g, "target", None) or ast.Tuple([]))) for g in gens
        ):
            return False  # the loop's own target
        resolve = facts.calls.function  # type: ignore[attr-defined]
        return all(bindings_keep(part, name, attr, resolve) for part in _loop_parts(self.loop))

    def _drawn_from_fixed_collection(self, expr: ast.AST) -> bool:
        """`expr` is an element of a collection the loop never rebinds or mutates
        (`TASKS[TASK_IDS[idx]]`, `task_reg[name]`), picked by a key that does not walk the
        step counter (a random draw, an element of another fixed collection): every step
        gets one of the same objects, so at most len(collection) programs. A key that walks
        the counter (`lrs[step]`, `lrs[step + 1]`) reads a new element every step."""
        if isinstance(expr, ast.Name):
            values = self._assigned_in_loop(expr.id)
            return len(values) == 1 and self._drawn_from_fixed_collection(values[0])
        if not isinstance(expr, ast.Subscript) or isinstance(expr.slice, ast.Slice):
            return False
        if not self.invariant(expr.value):
            return False
        return not self._walks_counter(expr.slice, 0)

    def _assigned_in_loop(self, name: str) -> list[ast.expr]:
        """The values a step of the loop assigns to `name`; any other binding (a tuple
        target, an augmented assignment, a loop target) adds a None, so callers that want
        one known value see more than one."""
        out: list = []
        for part in _loop_parts(self.loop):
            for n in walk_scope(part):
                if isinstance(n, ast.Assign):
                    if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                        if n.targets[0].id == name:
                            out.append(n.value)
                    elif any(name in set(target_names(t)) for t in n.targets):
                        out.append(None)
                elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
                    target = n.target
                    if name in set(target_names(target)):
                        out.append(None)
        return out

    def _walks_counter(self, key: ast.AST, depth: int) -> bool:
        """`key` may follow the step counter one-to-one: the loop variable or a counter,
        arithmetic on it, or a name the loop assigns from such a value (unknown forms count
        as walking, except a call, whose result is a draw, and an element of a fixed
        collection)."""
        varying = loop_varying_names(self.loop, index=self._index)
        if not mentions(key, varying):
            return False
        if depth > 4:
            return True
        if isinstance(key, ast.Call):
            if isinstance(key.func, ast.Name) and key.func.id == "int" and len(key.args) == 1:
                return self._walks_counter(key.args[0], depth + 1)
            return False  # `jax.random.choice(k, n)`, `rng.integers(n)`: a draw
        if isinstance(key, ast.Subscript):
            return not self._drawn_from_fixed_collection(key)
        if isinstance(key, ast.Name):
            values = self._assigned_in_loop(key.id)
            targets = (
                set(target_names(self.loop.target))
                if isinstance(self.loop, (ast.For, ast.AsyncFor))
                else set()
            )
            if key.id in targets or not values or len(values) > 1:
                return True
            return self._walks_counter(values[0], depth + 1)
        return True

    def describe(self) -> str:
        where = f"the loop on line {self.loop.lineno}"  # type: ignore[attr-defined]
        if self.direct:
            return f"in {where}"
        names = " -> ".join(f"`{getattr(f, 'name', '<lambda>')}()`" for f in self.functions)
        return f"in {names}, called in every step of {where}"

    # -- values -------------------------------------------------------------------------------
    def _local_names(self) -> set[str]:
        """Names bound inside the called functions (parameters and locals): vary per call."""
        out: set[str] = set()
        if self._index is None:
            return out
        for fn in self.functions:
            scope = self._index.scopes.get(fn)
            if scope is not None:
                out.update(scope.bindings)
        return out

    def invariant(self, expr: ast.AST) -> bool:
        """`expr` provably has the same value in every step (it can be evaluated once,
        before the loop): literals, names the loop never rebinds or mutates, attribute
        access on them and pure operators/calls. Calls of unknown functions are not."""
        index = self._index
        if index is None:
            return False
        bound = loop_bound_names(self.loop)
        if not self.direct:
            bound = bound | self._local_names()
        for node in ast.walk(expr):
            if isinstance(node, (ast.Lambda, *COMPREHENSIONS)):
                return False  # closures and comprehensions: not reasoned about here
            if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)):
                return False
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if node.id in bound:
                    return False
                path = _read_path(node)
                if path is not None:  # `self.trainers`: that object, not all of `self`
                    if is_path_mutated_in(self.loop, path, index) or any(
                        is_path_mutated_in(fn, path, index) for fn in self.functions
                    ):
                        return False
                    continue
                if is_mutated_in(self.loop, node.id, index):
                    return False
                if self.functions and any(
                    is_mutated_in(fn, node.id, index) for fn in self.functions
                ):
                    return False
            elif isinstance(node, ast.Call):
                q = index.qualname(node.func)
                if q is None or not (
                    q in PURE_CALLS
                    or (q.startswith(PURE_PREFIXES) and not q.startswith(IMPURE_PREFIXES))
                ):
                    return False
        return True

    def closure_varies(self, fn: ast.AST) -> bool:
        """The function `fn` (a lambda or def made in the loop body) reads, as a free
        variable, a name that changes every step, directly or through a lambda/def nested in
        it (`def f(x): return tree_map(lambda a: a[i], x)`): each step's function is a
        different program, whatever object holds it."""
        if not self.direct or self._index is None:
            return False
        owner = _enclosing_function(self.loop)
        if owner is not None and not contains(owner, fn):
            return False  # defined elsewhere: its free names are not the loop's variables
        return bool(free_names(self._index, fn) & loop_varying_names(self.loop, index=self._index))

    def closure_selects_code(self, fn: ast.AST) -> bool:
        """The step-varying names `fn` reads (see `closure_varies`) choose *which program* it
        is, so every step needs its own trace and nothing can be hoisted: a callable (called,
        or defined by the loop body), or a value used as structure (a shape, a slice bound, a
        `range`, an `if`, an `axis=`). Data (an index from `range()`, a batch, a scalar used
        in arithmetic or as an array index) does not: passed as an argument it compiles once."""
        if self._index is None:
            return False
        step_names = loop_varying_names(self.loop, index=self._index)
        varying = free_names(self._index, fn) & step_names
        if not varying:
            return False
        # `def _dense_k(kk=k)`: a parameter whose default is the step's value is that value
        # inside (v38 candidate omnibias `benchmarks/polylaplacian_order.py:158`, JAX401,
        # tuning material: `kk` sets how many hessians `_nested_hessian_lap` nests)
        varying = varying | _defaulted_from(fn, step_names)
        code_bound = {
            node.name
            for part in _loop_parts(self.loop)
            for node in walk_scope(part)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        for part in _loop_parts(self.loop):
            for node in walk_scope(part):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
                    node.value, ast.Lambda
                ):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        code_bound.update(target_names(t))
        if varying & code_bound:
            return True  # a function or class made anew every step
        if isinstance(self.loop, (ast.For, ast.AsyncFor)) and varying & set(
            target_names(self.loop.target)
        ):
            if _elements_pick_code(self._index, self.loop.iter):
                return True  # `for dtype in [jnp.float16, ...]`, `for act in (relu, gelu)`
        for node in ast.walk(fn):
            if isinstance(node, ast.Name) and node.id in varying and _selects_code(node):
                return True
            if isinstance(node, ast.Call) and _hands_to_structure(self._index, node, varying, fn):
                return True  # `loss(a, x, imp)` with `if implicit:` in `loss`
        return False

    def built_once_per_change(self, node: ast.AST) -> bool:
        """`node` sits under an `if` in the loop body whose branch rebinds what its test reads
        (`memo_branch`): a memo, not work done every step."""
        return memo_branch(node, self.loop)

    def partial_selects_code(self, call: ast.Call) -> bool:
        """`functools.partial(fn, n=k)` made per step with a step-varying `k` that `fn` uses as
        structure (a shape, a `range`, a condition): each step is a different program."""
        if self._index is None or not call.args:
            return False
        if self.wrapped_function_varies(call):
            return True
        fn = self._index.resolve_function(call.args[0])
        if fn is None or isinstance(fn, ast.Lambda):
            return False
        varying = loop_varying_names(self.loop, index=self._index)
        params = positional_params(fn)
        carried = {kw.arg for kw in call.keywords if kw.arg and mentions(kw.value, varying)}
        carried |= {p for p, a in zip(params, call.args[1:], strict=False) if mentions(a, varying)}
        return bool(carried) and _uses_as_structure(fn, carried)

    def factory_selects_code(self, call: ast.Call) -> bool:
        """`jax.jit(make_fwd(offsets))` built per step: a function of this module makes the
        jitted function from a step-varying argument that it uses as structure (a loop over
        it, a shape, a condition, in the closure it returns): each step is a different
        program (mbirjax `for offsets in [[0], [-1], [1], [-1, 0, 1]]`)."""
        if self._index is None or not isinstance(call.func, ast.Name):
            return False
        fn = self._index.resolve_function(call.func)
        if fn is None or isinstance(fn, ast.Lambda):
            return False
        varying = loop_varying_names(self.loop, index=self._index)
        carried = {kw.arg for kw in call.keywords if kw.arg and mentions(kw.value, varying)}
        carried |= {
            p
            for p, a in zip(positional_params(fn), call.args, strict=False)
            if mentions(a, varying)
        }
        return bool(carried) and _uses_as_structure(fn, carried)

    def wrapped_function_varies(self, call: ast.Call) -> bool:
        """`jax.vmap(env.init)`, `partial(fns[i], ...)`: the function a transform or partial
        made per step wraps is itself picked by the step (a method of an object the loop
        builds from its variable, `env = pgx.make(name)`; an element of a list of
        functions): each step wraps different code, so each needs its own program and there
        is nothing to hoist."""
        if not call.args or isinstance(call.args[0], (ast.Lambda, ast.Starred)):
            return False
        wrapped = call.args[0]
        if isinstance(wrapped, ast.Call) and self.factory_selects_code(wrapped):
            return True  # `jax.vmap(make_fwd(offsets))`: the factory's closure picks the code
        if isinstance(wrapped, ast.Name) and self._index is not None:
            # `shard_map(execute_fn, ...)`: the wrapped def is the code; a def the loop body
            # makes, closing over what the step picks (`layer.init_with_output` with a new
            # `layer` per config), is a new program every step
            fn = self._index.resolve_function(wrapped)
            if fn is not None and self.closure_varies(fn) and self.closure_selects_code(fn):
                return True
        varying = loop_varying_names(self.loop, index=self._index)
        uses = [
            n
            for n in ast.walk(wrapped)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in varying
        ]
        if not uses:
            return False
        for name in uses:
            up = parent(name)
            if name is wrapped or (isinstance(up, ast.Attribute) and up.value is name):
                continue  # `fn`, `env.init`: the step's object supplies the code
            if up is wrapped and isinstance(wrapped, ast.Subscript):
                continue  # `fns[i]`: an element of a list of functions
            return False  # `make_loss(batch)`: step data closed over, one program would do
        return True

    def step_picks_program(self) -> bool:
        """Through the call chain from the loop, a value that changes every step reaches code
        that uses it as structure (`for n in sizes: run(n)` with `jnp.zeros([n])`,
        `random.split(key, n)` or `if n > 1:` in `run`): every step runs a different program,
        so a jit built there compiles every step whatever object holds it. (Slices are left
        out: `data[i * bs:(i + 1) * bs]` changes the offset, not the shape.)"""
        if self.direct or self._index is None:
            return False
        names = set(loop_varying_names(self.loop))
        for call, fn in zip(self.calls, self.functions):
            carried = {p for p, arg in bind_arguments(call, fn).items() if mentions(arg, names)}
            if not carried:
                return False
            if _uses_as_structure(fn, carried):
                return True
            names = _derived_in(fn, carried)
            if any(
                _hands_to_structure(self._index, node, names, fn)
                for node in walk_scope(fn)
                if isinstance(node, ast.Call)
            ):
                # `_run_d(d)` per size, whose `_params(d, key)` draws `normal(k, (B, d))`:
                # its jitted closures over those arrays need a program per size (v38
                # candidate omnibias `benchmarks/laplacian_scaling.py:68`, JAX401 x3,
                # tuning material)
                return True
        return False

    def varies(self, expr: ast.AST) -> bool:
        """`expr` certainly depends on the step: it mentions the loop variable, a counter, or
        (one call level down) a parameter whose argument at the loop's call site does."""
        varying = loop_varying_names(self.loop, index=self._index)
        if self.direct:
            return mentions(expr, varying)
        if len(self.calls) != 1:
            return False
        fn, call = self.functions[0], self.calls[0]
        params = bind_arguments(call, fn)
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                arg = params.get(node.id)
                if arg is not None and mentions(arg, varying):
                    return True
        return False


FEW_STEPS = 3

_STRUCTURE_CALLS = frozenset({"range", "enumerate", "zip", "reversed", "split"})
# NumPy samplers whose first arguments are the sample's shape (`rng.standard_normal(shp)`,
# `np.random.randn(n, d)`): the array made has the shape its size says
_HOST_SIZE_FIRST = frozenset({"standard_normal", "standard_exponential", "randn", "rand"})


DTYPE_NAMES = frozenset(
    """float16 float32 float64 bfloat16 int8 int16 int32 int64 uint8 uint16 uint32 uint64
    complex64 complex128 bool_ float_ int_ float8_e4m3fn float8_e5m2""".split()
)


def _elements_pick_code(index: ModuleIndex, it: ast.AST) -> bool:
    """The loop walks written-out values that choose a program, not data: dtypes
    (`jnp.float16`), functions or classes of the module, strings (modes, names)."""
    it = _unwrapped(it)  # type: ignore[assignment]
    displays: list[ast.AST] = []
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
        displays.append(it)
    elif isinstance(it, ast.Name):
        for b in index.lookup(it.id, index.scope_of(it)) or ():
            value = b.value if b.value is not None else getattr(b.node, "value", None)
            if not isinstance(value, (ast.List, ast.Tuple, ast.Set)):
                return False
            displays.append(value)
    if not displays:
        return False
    for display in displays:
        for elt in display.elts:  # type: ignore[attr-defined]
            if isinstance(elt, ast.Attribute) and elt.attr in DTYPE_NAMES:
                continue
            if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                continue
            if isinstance(elt, ast.Name):
                found = index.lookup(elt.id, index.scope_of(elt))
                if found and all(b.kind in ("def", "class", "import") for b in found):
                    continue
                if elt.id in DTYPE_NAMES:
                    continue
            return False
    return True


def memo_branch(node: ast.AST, loop: ast.AST) -> bool:
    """`node` sits under an `if` in `loop`'s body whose branch rebinds a name or attribute its
    test reads (`if need_compile: f = jax.jit(...); need_compile = False`, `if f is None: f =
    ...`, `if not hasattr(self, "proj"): self.proj = normal(key(123), ...)`): a memo, built
    again only when its test changes, not every step (v36 candidate capibaraGPT
    `tpu_v4/neuromorphic_kernels.py:111`, a reservoir's input weights drawn once from a fixed
    seed: JAX202 x2, tuning material)."""
    cur = parent(node)
    while cur is not None and cur is not loop and not isinstance(cur, SCOPE_BOUNDARIES):
        if isinstance(cur, ast.If):
            tested = {n.id for n in ast.walk(cur.test) if isinstance(n, ast.Name)}
            tested |= {d for n in ast.walk(cur.test) if (d := _tested_attribute(n)) is not None}
            rebound: set[str] = set()
            for stmt in cur.body:
                for n in walk_scope(stmt):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        rebound.add(n.id)
                    elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
                        found = dotted(n)
                        if found is not None:
                            rebound.add(found)
            if tested & rebound:
                return True
        cur = parent(cur)
    return False


def _tested_attribute(node: ast.AST) -> str | None:
    """`self.proj` for a test's `self.proj` (`is None`) or `hasattr(self, "proj")`."""
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
        return dotted(node)
    parts = hasattr_parts(node)
    if parts is None or getattr(node.func, "id", None) != "hasattr":  # type: ignore[attr-defined]
        return None
    base = dotted(parts[0])
    return f"{base}.{parts[1]}" if base is not None else None


def _defaulted_from(fn: ast.AST, names: frozenset[str]) -> set[str]:
    """The parameters of `fn` whose default value reads one of `names` (`def f(kk=k)`)."""
    if not isinstance(fn, FUNCTION_NODES):
        return set()  # a `functools.partial(...)` call: its bound arguments are read as given
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return {a.arg for a, d in pairs if mentions(d, names)}


def _hands_to_structure(index: ModuleIndex, call: ast.Call, names: set[str], fn: ast.AST) -> bool:
    """`call` (in `fn`) runs a def of this module that receives one of `names` and uses that
    parameter as structure (`_uses_as_structure`); a lambda, `fn` itself or an unresolved
    callee: no."""
    if not mentions(call, names):
        return False
    callee = index.resolve_function(call.func)
    if callee is None or isinstance(callee, ast.Lambda) or callee is fn:
        return False
    carried = {p for p, a in bind_arguments(call, callee).items() if mentions(a, names)}
    return bool(carried) and _uses_as_structure(callee, carried)


def _uses_as_structure(fn: ast.AST, params: set[str]) -> bool:
    """`fn` uses one of `params` (or a name computed from one) as structure: a shape, a
    `range`, a condition, a callable (slice bounds left out: a moving window keeps its shape)."""
    return _read_as(fn, params, slices=False)


def _read_as(fn: ast.AST, params: set[str], *, slices: bool, shapes_only: bool = False) -> bool:
    """A load in `fn` of one of `params`, or of a name computed from one, that
    `_selects_code` accepts with these options."""
    names = _derived_in(fn, params)
    return any(
        isinstance(n, ast.Name)
        and n.id in names
        and isinstance(n.ctx, ast.Load)
        and _selects_code(n, slices=slices, shapes_only=shapes_only)
        for n in ast.walk(fn)
    )


def _derived_in(fn: ast.AST, names: set[str]) -> set[str]:
    """`names` plus the names `fn` assigns from them (to a fixed point)."""
    out = set(names)
    assigns = [n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value]
    changed = True
    while changed:
        changed = False
        for node in assigns:
            if not mentions(node.value, out):  # type: ignore[arg-type]
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                new = set(target_names(t)) - out
                if new:
                    out |= new
                    changed = True
    return out


def sets_shape(fn: ast.AST, param: str) -> bool:
    """The body of `fn` reads `param` as the shape or size of what it makes (`jnp.arange(n)`,
    `jnp.zeros((n, d))`, `x.reshape(n, -1)`, `axis=k`, `x[:n]`): a static argument that must
    stay static, since each value makes arrays of its own shape (one program per value, and
    nothing to hoist). A loop count (`range(n)`) or a condition is not: those could be traced
    (`fori_loop`, `lax.cond`). Names computed from it count (`ell = np.minimum(ell1, ell2);
    jnp.arange(ell)`)."""
    return _read_as(fn, {param}, slices=True, shapes_only=True)


def _selects_code(name: ast.Name, *, slices: bool = True, shapes_only: bool = False) -> bool:
    """A read of `name` (through attributes: `cfg.depth`) that decides program structure:
    it is called (`fn(x)`, `model.apply(...)`), a shape or size (`jnp.zeros(n)`, `axis=k`,
    `x.reshape(n, -1)`), a slice bound (`x[:n]`), a `range`, or a Python condition. With
    `shapes_only`, only a shape, size or slice bound."""
    node: ast.AST = name
    up = parent(node)
    while isinstance(up, ast.Attribute) and up.value is node:
        node, up = up, parent(up)
    if isinstance(up, ast.Call) and up.func is node:
        return not shapes_only  # a callable (or a method of the value): a different function
    cur: ast.AST | None = node
    child: ast.AST = node
    while cur is not None and not isinstance(cur, (ast.stmt, *SCOPE_BOUNDARIES)):
        holder = parent(cur)
        if isinstance(holder, ast.Compare) and all(
            isinstance(op, (ast.Is, ast.IsNot)) for op in holder.ops
        ):
            return False  # `if batch is None`: present or not, not which program
        if isinstance(holder, ast.Call) and getattr(holder.func, "id", "") in (
            "isinstance",
            "len",
            "hasattr",
        ):
            return False
        if isinstance(holder, ast.Slice) and slices:
            return True  # `x[:n]`: the shape follows it
        if isinstance(holder, ast.keyword) and (
            holder.arg in SHAPE_KEYWORDS or holder.arg == "dtype"
        ):
            return True
        if isinstance(holder, ast.Call) and cur is not holder.func:
            func = holder.func
            short = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if short == "split" and holder.args and cur is holder.args[0]:
                pass  # `split(key, n)`, `jnp.split(x, n)`: what is split, not into how many
            elif short in SHAPE_FIRST | _HOST_SIZE_FIRST or (
                short in _STRUCTURE_CALLS and not shapes_only
            ):
                return True
            if short in SHAPE_SECOND | SHAPE_METHODS and (
                isinstance(func, ast.Attribute) or cur is not holder.args[0]
            ):
                return True
            if short in RANDOM_SHAPE_SECOND and len(holder.args) > 1 and cur is holder.args[1]:
                return True  # `normal(key, (n, d))`: the draw's shape
        if not shapes_only and _decides_flow(holder, cur):
            return True
        child, cur = cur, holder
    del child
    return False


def _decides_flow(holder: ast.AST, cur: ast.AST) -> bool:
    """`cur` is the test of an `if`/`while`/conditional/`assert`, or the iterable of a loop
    or comprehension, that `holder` runs: it decides which code runs, or how often."""
    if isinstance(holder, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return holder.test is cur
    if isinstance(holder, (ast.comprehension, ast.For, ast.AsyncFor)):
        return holder.iter is cur
    return False


def _param_default(arg: ast.AST, index: ModuleIndex) -> ast.expr | None:
    """The default of parameter `arg` (an `ast.arg`), if it has one."""
    fn = parent(arg)
    while fn is not None and not isinstance(fn, FUNCTION_NODES):
        fn = parent(fn)
    if fn is None:
        return None
    args = fn.args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    for a, d in zip(positional[len(positional) - len(args.defaults) :], args.defaults):
        if a is arg:
            return d
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        if a is arg:
            return d
    return None


def over_written_configurations(loop: ast.AST, index: ModuleIndex | None = None) -> bool:
    """The loop walks a list written out in the source (`for env in [EnvA(), EnvB()]`,
    `for i, cfg in enumerate((small, large))`, or with the module's index a name bound once
    to such a list that nothing grows: `presets = ["standard", "full"]; for preset in
    presets:`): each step is one spelled-out configuration, not a step of a computation
    (`range(n)`, a dataset, a carried state)."""
    it = _unwrapped(_iterable(loop))
    if isinstance(it, ast.Name) and index is not None and not _grown(index, it):
        it = _spelled_iterable(it, index)
    return (
        isinstance(it, (ast.List, ast.Tuple, ast.Set))
        and len(it.elts) >= 2
        and not any(isinstance(e, ast.Starred) for e in it.elts)
    )


def runs_at_most_once(loop: ast.AST, index: ModuleIndex) -> bool:
    """A `for` loop or comprehension with at most one step: its iterable (through
    `enumerate`, `list`, ...) is a literal of at most one element or `range(1)`, or a name
    whose every binding in its scope is such a literal and that nothing can grow (no method
    call on it, not passed to a call other than `len`): alpa's `arr_sizes = [256 * 1024 *
    1024]` with the longer list commented out. What such a loop consumes, it consumes once."""
    n = trip_count(loop)
    if n is not None:
        return n <= 1
    it = _unwrapped(_iterable(loop))
    if not isinstance(it, ast.Name):
        return False
    scope = index.scope_of(it)
    found = index.lookup(it.id, scope)
    if not found or any(
        b.kind != "assign" or b.value is None or (literal_length(b.value) or 2) > 1 for b in found
    ):
        return False
    for use in index.names.get(it.id, ()):
        if use is it or not isinstance(use.ctx, ast.Load) or index.scope_of(use) is not scope:
            continue
        up = parent(use)
        if isinstance(up, ast.Attribute):
            return False  # `sizes.append(...)`
        if isinstance(up, ast.Call) and not (isinstance(up.func, ast.Name) and up.func.id == "len"):
            return False  # passed on: may be filled elsewhere
    return True


class LoopFacts:
    """Per-module: which functions run per step, and why (computed on first use)."""

    def __init__(self, facts) -> None:  # noqa: ANN001 - analysis.ModuleFacts
        self.facts = facts
        self.index: ModuleIndex = facts.index
        self._steps: (
            dict[ast.AST, tuple[tuple[ast.Call, ...], tuple[ast.AST, ...], ast.AST]] | None
        ) = None
        self._traced_helpers: dict[ast.AST, bool] = {}  # `_traced` of private helpers

    def _traced(self, fn: ast.AST | None, _seen: frozenset[ast.AST] = frozenset()) -> bool:
        """`fn` runs only while jit traces: it is traced by jit itself, or it is a private
        top-level helper (`_name`) that the module uses only by calling it, every call from
        such a function (v19 and v21 rows, tuning material: jax-healpy
        `_handle_face_boundaries`, reached only from the jitted `get_all_neighbours`
        through `_get_all_neighbors_xyf`, JAX407 x2: a conversion in its loop runs once per
        trace, a constant of the program)."""
        if fn is None:
            return False
        ff = self.facts.function_facts(fn)
        if ff is not None and ff.kind is TracedKind.JIT:
            return True
        if fn in _seen or len(_seen) >= MAX_CHAIN or not _private_top_level(self.index, fn):
            return False
        if not _seen:  # a question asked from outside a chain: answered once per function
            known = self._traced_helpers.get(fn)
            if known is None:
                known = self._called_only_while_tracing(fn, frozenset({fn}))
                self._traced_helpers[fn] = known
            return known
        return self._called_only_while_tracing(fn, _seen | {fn})

    def _called_only_while_tracing(self, fn: ast.AST, seen: frozenset[ast.AST]) -> bool:
        """Every use of the private helper `fn` is a call from a function `_traced` holds."""
        uses = [
            ref
            for ref in self.index.names.get(fn.name, ())  # type: ignore[attr-defined]
            if isinstance(ref.ctx, ast.Load)
        ]
        if not uses:
            return False
        for ref in uses:
            call = syntax.parent(ref)
            if not (isinstance(call, ast.Call) and call.func is ref):
                return False  # passed on, stored: run from anywhere
            if self.facts.calls.function(call) is not fn:
                return False
            if not self._traced(_enclosing_function(call), seen):
                return False
        return True

    @property
    def step_functions(
        self,
    ) -> dict[ast.AST, tuple[tuple[ast.Call, ...], tuple[ast.AST, ...], ast.AST]]:
        """def node -> (call sites, functions, loop): how it gets called per step."""
        if self._steps is None:
            self._steps = self._find()
        return self._steps

    def _find(self) -> dict:
        index = self.index
        steps: dict = {}
        frontier: list[ast.AST] = []
        calls_in: dict[ast.AST | None, list[tuple[ast.Call, ast.AST]]] = {}
        for call in index.calls:
            callee = self.facts.calls.function(call)  # the call graph (analysis/calls.py)
            if callee is None or isinstance(callee, ast.Lambda):
                continue
            if one_time_function(index, callee):
                continue
            caller = _enclosing_function(call)
            calls_in.setdefault(caller, []).append((call, callee))
            loop = enclosing_loop(call)
            if loop is not None and callee not in steps and callee is not caller:
                steps[callee] = ((call,), (callee,), loop)
                frontier.append(callee)
        depth = 1
        while frontier and depth < MAX_CHAIN:
            depth += 1
            nxt = []
            for fn in frontier:
                chain_calls, chain_fns, loop = steps[fn]
                for call, callee in calls_in.get(fn, ()):
                    if callee in steps or callee in chain_fns:
                        continue
                    steps[callee] = ((*chain_calls, call), (*chain_fns, callee), loop)
                    nxt.append(callee)
            frontier = nxt
        return steps

    def per_step(self, node: ast.AST) -> PerStep | None:
        """Why `node` runs once per step of a Python loop, or None when it does not.

        Direct: `node` is in the body of a for/while loop (or a comprehension's element) of
        its own function. Otherwise, when its function is called from such a loop of this
        module, directly or through up to MAX_CHAIN functions (resolved by name or
        `self.method`), the first loop found. One-time initializers are never per step.
        """
        own = _enclosing_function(node)
        if own is not None and _at_definition(node, own):
            return self.per_step(own)  # a default or decorator runs when the `def` runs
        loop = enclosing_loop(node)
        if loop is not None:
            if runs_once_in(loop, node, self.index):
                return None  # `if cache is None: cache = ...`: the first step only
            return PerStep(loop, traced=self._traced(own), _index=self.index, _facts=self.facts)
        if own is None or isinstance(own, ast.Lambda) or one_time_function(self.index, own):
            return None
        found = self.step_functions.get(own)
        if found is None:
            return None
        calls, functions, loop = found
        if dead_by_defaults(self.index, node, own):
            return None  # under `if flag:` with `flag=False` that no call passes
        outer = _enclosing_function(loop)
        traced = any(self._traced(f) for f in (outer, *functions))
        return PerStep(loop, calls, functions, traced, _index=self.index, _facts=self.facts)


def _type_dispatch(test: ast.AST, varying: frozenset[str]) -> bool:
    """`test` asks the type of a per-step value: `isinstance(col, Plane)`, `type(x) is T`
    (negated, or joined by `and`/`or`), where the value reads a name in `varying`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _type_dispatch(test.operand, varying)
    if isinstance(test, ast.BoolOp):
        return any(_type_dispatch(v, varying) for v in test.values)
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name):
        return test.func.id == "isinstance" and bool(test.args) and mentions(test.args[0], varying)
    if isinstance(test, ast.Compare) and isinstance(test.left, ast.Call):
        func = test.left.func
        return (
            isinstance(func, ast.Name)
            and func.id == "type"
            and bool(test.left.args)
            and mentions(test.left.args[0], varying)
        )
    return False


def runs_once_in(loop: ast.AST, node: ast.AST, index: ModuleIndex | None = None) -> bool:
    """`node` runs on one step of `loop` at most: it sits, inside the loop, under an `if`
    that holds on one step only.

    - `if NAME is None:` (or `NAME is None and ...`) whose body binds NAME before any
      `continue` can skip that, with nothing else in the loop binding NAME: once the body has
      run, NAME holds its value (JAXtar's `if batched_actual is None and batched_payloads:`,
      a conversion done once and then indexed per step), a lazy initialiser;
    - `if n == 1:` in `for n in [0, 1]:` (a literal sequence of constants in which the
      compared constant occurs once, the target not rebound in the body): ColabDesign's
      `block` draws dropout from its key on the second pass only.
    """
    if not isinstance(loop, LOOP_STATEMENTS):
        return False
    for anc in syntax.ancestors(node):
        if anc is loop:
            return False
        if not isinstance(anc, (ast.If, ast.IfExp)):
            continue
        # `a if t == 10 else b` selects like `if t == 10: a else: b`
        body = anc.body if isinstance(anc, ast.If) else [anc.body]
        orelse = anc.orelse if isinstance(anc, ast.If) else [anc.orelse]
        if any(contains(s, node) for s in orelse):
            if _arm_steps(loop, anc.test, False, index) in (0, 1):
                return True  # `else:` of `if noise_level > 0:` over `[0.0, 0.15]`
            continue
        if not any(contains(s, node) for s in body):
            continue
        if _selects_one_step(loop, anc.test, index) or _arm_steps(loop, anc.test, True, index) in (
            0,
            1,
        ):
            return True
        name = _none_tested(anc.test)
        if name is None or not isinstance(anc, ast.If):
            continue
        binding = _first_binding(anc.body, name)
        if binding is not None and all(
            contains(binding, n) for n in syntax.name_stores(loop, name)
        ):
            return True
    return False


_GROWING = frozenset({"append", "extend", "insert", "add", "update", "__setitem__"})


def _grown(index: ModuleIndex, name: ast.Name) -> bool:
    """Something in `name`'s scope may add to the sequence it names (`xs.append(...)`,
    `xs[i] = ...`, `xs += [...]`): its written-out length is not its length."""
    scope = index.scope_of(name)
    for node in syntax.walk_scope(scope.node):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in _GROWING:
                target = node.func.value
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            target = node.value
        elif isinstance(node, ast.AugAssign):
            target = node.target
        if isinstance(target, ast.Name) and target.id == name.id:
            return True
    return False


def _bounded_steps(
    it: ast.AST | None, index: ModuleIndex, facts: object = None, depth: int = 0
) -> int | None:
    """An upper bound on the items a loop walks: a name bound once to a literal that nothing
    grows (or to `a if c else b` of such), a list only appended to a known number of times,
    `zip`/`enumerate`/... over those (`zip` stops at its shortest argument), or a parameter
    that every visible call of its function gives such a value (`facts`, the ModuleFacts: its
    call graph, and the project index's word that no other module calls the function: `for batch in batches:` with `batches = (1024,) if quick else (1024, 4096, 16384)`
    handed down by `main`, v38 creature-rl-env bench_throughput.py, JAX401 x5, tuning
    material)."""
    if depth > 4:
        return None
    it = _unwrapped(it)
    if isinstance(it, ast.IfExp):
        arms = [_bounded_steps(a, index, facts, depth + 1) for a in (it.body, it.orelse)]
        return max(arms) if all(n is not None for n in arms) else None  # type: ignore[type-var]
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip":
        if it.keywords or any(isinstance(a, ast.Starred) for a in it.args):
            return None
        bounds = [_bounded_steps(a, index, facts, depth + 1) for a in it.args]
        known = [n for n in bounds if n is not None]
        return min(known) if known else None
    if not isinstance(it, ast.Name):
        return literal_length(it) if isinstance(it, ast.expr) else None
    found = index.lookup(it.id, index.scope_of(it))
    if found and len(found) == 1 and not _grown(index, it):
        if found[0].kind == "assign" and isinstance(found[0].value, ast.IfExp):
            return _bounded_steps(found[0].value, index, facts, depth + 1)
        if found[0].kind == "param" and facts is not None:
            return _parameter_steps(it, index, facts, depth)
    spelled = _spelled_iterable(it, index)
    if spelled is not it and not _grown(index, it):
        return literal_length(spelled) or None  # `xs = []` then filled: `_appended_bound`
    return _appended_bound(index, it)


def _parameter_steps(name: ast.Name, index: ModuleIndex, facts: object, depth: int) -> int | None:
    """The most items any visible call gives the parameter `name` of a private or nested
    function (None when one is unknown, the function is used other than called by name,
    `CallGraph.parameter_arguments`, or another module of the project is known to call it:
    the project index's `passed` entry; a public top-level function may be called from
    anywhere, so its parameters say nothing)."""
    fn = index.enclosing_function(name)
    if fn is None:
        return None
    if syntax.parent(fn) is index.tree and not getattr(fn, "name", "").startswith("_"):
        return None  # a public function: another module may call it with anything
    entry = (getattr(facts, "seeds", None) or {}).get(PASSED_ARGUMENTS)
    elsewhere = entry.as_map() if hasattr(entry, "as_map") else {}
    if getattr(fn, "name", None) in elsewhere:
        return None  # called from elsewhere too, with what this module cannot see
    passed = facts.calls.parameter_arguments(fn, name.id)  # type: ignore[attr-defined]
    if not passed:
        return None
    bounds = [_bounded_steps(a, index, facts, depth + 1) for a in passed]
    return max(bounds) if all(n is not None for n in bounds) else None  # type: ignore[type-var]


def _appended_bound(index: ModuleIndex, name: ast.Name) -> int | None:
    """At most how many items the list `name` holds where a loop walks it: bound once in its
    scope to a written-out list, then only grown by `name.append(...)` statements that run
    at most once each time the binding does (in the binding's own loop, if any, and
    function), and read nowhere but as what a `for` walks (`policy_fn_list = []`, one
    append, then `for policy_fn, folder in zip(policy_fn_list, policy_folder_list):` builds
    its jitted functions once: v36 robot_training biped.py:890, JAX401 x2, tuning material).
    Anything else that reads it (a call that may fill it, a subscript store, `+=`): None."""
    found = index.lookup(name.id, index.scope_of(name))
    if not found or len(found) != 1 or found[0].kind != "assign":
        return None
    binding = found[0]
    if not isinstance(binding.value, (ast.List, ast.Tuple)) or any(
        isinstance(e, ast.Starred) for e in binding.value.elts
    ):
        return None
    home = enclosing_loop(binding.node, comprehensions=False)  # type: ignore[arg-type]
    count = len(binding.value.elts)
    for ref in index.names.get(name.id, ()):
        if (
            not isinstance(ref.ctx, ast.Load)
            or index.lookup(name.id, index.scope_of(ref)) is not found
        ):
            continue
        up = syntax.parent(ref)
        call = syntax.parent(up) if isinstance(up, ast.Attribute) else None
        if (
            isinstance(call, ast.Call)
            and call.func is up
            and up.attr == "append"  # type: ignore[union-attr]
            and isinstance(syntax.parent(call), ast.Expr)
            and index.scope_of(ref) is index.scope_of(name)
            and enclosing_loop(call, comprehensions=True) is home
        ):
            count += 1
        elif not _walked(ref):
            return None
    return count


def _walked(ref: ast.Name) -> bool:
    """`ref` is what a `for` walks, or an argument of `zip`/`enumerate`/... there."""
    node: ast.AST = ref
    while True:
        up = syntax.parent(node)
        if isinstance(up, (ast.For, ast.AsyncFor)):
            return up.iter is node
        if not (
            isinstance(up, ast.Call)
            and isinstance(up.func, ast.Name)
            and (up.func.id == "zip" or up.func.id in SEQUENCE_WRAPPERS)
            and node in up.args
        ):
            return False
        node = up


def _spelled_iterable(it: ast.expr, index: ModuleIndex | None) -> ast.expr:
    """The literal a loop walks: `it` itself, or what a name bound once to a literal holds
    (`for noise_level in NOISE_LEVELS:` with `NOISE_LEVELS = [0.0, 0.15]`)."""
    if isinstance(it, ast.Name) and index is not None:
        found = index.lookup(it.id, index.scope_of(it))
        if found is not None and len(found) == 1 and found[0].kind == "assign":
            value = found[0].value
            if isinstance(value, (ast.List, ast.Tuple, ast.Set)) or (
                value is not None and sliced_literal(value) is not None
            ):
                return value  # a literal, or one cut by literal bounds (`["x", "y"][:1]`)
    return it


_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _arm_steps(loop: ast.AST, test: ast.AST, holds: bool, index: ModuleIndex | None) -> int | None:
    """On how many steps of `for target in <literal of constants>` (or a name bound once to
    one) `test`, a comparison of the target with a constant (`noise_level > 0`), is `holds`;
    None when that cannot be worked out (another test, the target rebound in the body)."""
    if not (
        isinstance(loop, (ast.For, ast.AsyncFor))
        and isinstance(loop.target, ast.Name)
        and isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and type(test.ops[0]) in _COMPARE
    ):
        return None
    target = loop.target.id
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Name) and left.id == target and isinstance(right, ast.Constant):
        const, flipped = right.value, False
    elif isinstance(right, ast.Name) and right.id == target and isinstance(left, ast.Constant):
        const, flipped = left.value, True
    else:
        return None
    if not all(n is loop.target for n in syntax.name_stores(loop, target)):
        return None
    it = _spelled_iterable(loop.iter, index)
    if not isinstance(it, (ast.List, ast.Tuple)) or not all(
        isinstance(e, ast.Constant) for e in it.elts
    ):
        return None
    op = _COMPARE[type(test.ops[0])]
    count = 0
    for e in it.elts:
        v = e.value  # type: ignore[attr-defined]
        try:
            result = op(const, v) if flipped else op(v, const)
        except TypeError:
            return None
        count += bool(result) == holds
    return count


def _selects_one_step(loop: ast.AST, test: ast.AST, index: ModuleIndex | None = None) -> bool:
    """`test` is `target == c` (or `c == target`, or one of those `and` something), `target`
    the loop's own name, not rebound in the body, and the loop visits `c` once:
    - `for target in <literal of constants>` in which `c` occurs once (or a name bound once
      to one: `for noise_level in NOISE_LEVELS:` with `NOISE_LEVELS = [0.0, 0.15]`);
    - `for target in range(...)` and `c` an int (a range repeats no value);
    - `for target in <anything else>` and `c` a string: a dispatch over names
      (`for name in list_transformers(): if name == "VIT": ...`, a registry's keys, a
      dict, a config's list of model names). A sequence that names one model twice would
      run the arm twice; nothing in the code says so, and a reuse claim needs evidence.
    """
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_selects_one_step(loop, v, index) for v in test.values)
    if not (
        isinstance(loop, (ast.For, ast.AsyncFor))
        and isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    counter = _enumerate_counter(loop)
    if counter is None and not isinstance(loop.target, ast.Name):
        return False
    own = counter if counter is not None else loop.target
    target = own.id  # type: ignore[attr-defined]
    sides = [test.left, test.comparators[0]]
    names = [x for x in sides if isinstance(x, ast.Name) and x.id == target]
    consts = [x for x in sides if isinstance(x, ast.Constant)]
    if len(names) != 1 or len(consts) != 1:
        return False
    if not all(n is own for n in syntax.name_stores(loop, target)):
        return False
    c = consts[0].value
    if counter is not None:
        return isinstance(c, int) and not isinstance(c, bool)  # the count visits each int once
    it = _spelled_iterable(loop.iter, index)
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
        if not all(isinstance(e, ast.Constant) for e in it.elts):
            return False
        return [e.value for e in it.elts].count(c) <= 1  # type: ignore[attr-defined]
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
        return isinstance(c, int) and not isinstance(c, bool)
    return isinstance(c, str)


def _enumerate_counter(loop: ast.For | ast.AsyncFor) -> ast.Name | None:
    """The counter of `for i, x in enumerate(xs):` (a plain name, first of the target tuple):
    it takes each int once, like a `range` target (v26 rows, tuning material: deq-jax
    train.py:338, `if epoch == 1 and step == 0:` initialises once, JAX201)."""
    target, it = loop.target, loop.iter
    if not (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and isinstance(target.elts[0], ast.Name)
        and isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "enumerate"
    ):
        return None
    return target.elts[0]


def _none_tested(test: ast.AST) -> str | None:
    """NAME of a test that holds only when NAME is None (`x is None`, `x is None and c`)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for v in test.values:
            found = _none_tested(v)
            if found is not None:
                return found
        return None
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.left, ast.Name)
        and syntax.is_none_literal(test.comparators[0])
    ):
        return test.left.id
    return None


def _first_binding(body: list[ast.stmt], name: str) -> ast.stmt | None:
    """The top-level statement of `body` that assigns `name` a value that is not None, when
    no statement before it can `continue` the loop (or be skipped by one)."""
    for stmt in body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
            name in target_names(t) for t in targets if t is not None
        ):
            value = stmt.value
            return None if value is None or syntax.is_none_literal(value) else stmt
        if any(isinstance(n, ast.Continue) for n in ast.walk(stmt)):
            return None
    return None


def dead_by_defaults(index: ModuleIndex, node: ast.AST, fn: ast.AST) -> bool:
    """`node` sits in a branch of `fn` that no call of `fn` takes: the branch tests a
    parameter (`if random_color:`, `if not flag:`) whose literal default picks the other arm,
    and every use of `fn` in the module is a call that leaves it at that default (bonsai's
    `show_mask(mask, ax, *, random_color=False)`, only ever called without the flag).
    False whenever `fn` escapes (passed on, exported as a value) or has no visible call."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    defaults = _literal_defaults(fn)
    if not defaults:
        return False
    tested: dict[str, bool] = {}  # parameter -> the truth value that runs `node`
    child: ast.AST = node
    for anc in syntax.ancestors(node):
        if anc is fn:
            break
        if isinstance(anc, ast.If) and child is not anc.test:
            in_body = any(s is child for s in anc.body)
            test, wanted = anc.test, in_body
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test, wanted = test.operand, not wanted
            if isinstance(test, ast.Name) and test.id in defaults:
                tested.setdefault(test.id, wanted)
        child = anc
    dead = {p for p, wanted in tested.items() if bool(defaults[p]) is not wanted}
    rebound = {
        n.id
        for n in ast.walk(fn)
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
    }
    dead -= rebound  # `flag = flag or cfg.flag`: the test no longer reads the default
    if not dead:
        return False
    calls = _only_calls(index, fn)
    if not calls:
        return False
    params = positional_params(fn)
    for call in calls:
        if any(kw.arg is None for kw in call.keywords) or any(
            isinstance(a, ast.Starred) for a in call.args
        ):
            return False
        passed = {kw.arg for kw in call.keywords} | set(params[: len(call.args)])
        if dead <= passed:
            return False
        dead -= passed
    return bool(dead)


def _literal_defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, object]:
    """Parameters with a literal default (`flag=False`, `n=0`, `mode=None`): their value."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return {a.arg: d.value for a, d in pairs if isinstance(d, ast.Constant)}


def _only_calls(index: ModuleIndex, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Call]:
    """Every call of a plain (undecorated, non-method) `fn` in the module, or [] when its
    name is used any other way (passed on, stored, exported)."""
    if fn.decorator_list or isinstance(parent(fn), ast.ClassDef):
        return []
    out: list[ast.Call] = []
    for ref in index.names.get(fn.name, ()):
        if not isinstance(ref.ctx, ast.Load) or index.resolve_function(ref) is not fn:
            continue
        up = parent(ref)
        if not (isinstance(up, ast.Call) and up.func is ref):
            return []
        out.append(up)
    if fn.name in _exported(index):
        return []
    return out


def _exported(index: ModuleIndex) -> set[str]:
    """Names listed in the module's `__all__`."""
    out: set[str] = set()
    for stmt in index.tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets
        ):
            if isinstance(stmt.value, (ast.List, ast.Tuple)):
                out |= {
                    e.value
                    for e in stmt.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                }
    return out


def list_grows_per_step(loop: ast.AST, name: str) -> bool:
    """The Python list `name` gets longer from step to step of `loop`: the loop appends to it
    (`append`/`extend`/`insert`) and never resets its length. A reset is an unconditional
    rebinding in the loop's body to a list of bounded length: a fresh display (`x = []`), or a
    slice with a bound that is a constant or the same on every step (`x = x[-1:]`, `x = x[:k]`,
    cleanba's `obs = obs[-args.async_update:]`); after it, the length at a call is
    the reset length plus that step's appends, not the count of steps so far (Stoix sebulba
    `traj_storage = traj_storage[-1:]`), unless the count appended per step changes
    (`_appends_vary`)."""
    appends = any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend", "insert")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == name
        for node in ast.walk(loop)
    )
    if not appends:
        return False
    if not any(_resets(stmt, name, loop) for stmt in _unconditional(loop)):
        return True
    return _appends_vary(loop, name)


def _appends_vary(loop: ast.AST, name: str) -> bool:
    """Some append to `name` sits in an inner `for` whose iterable changes from step to step
    of `loop` (`for _ in range(i): x.append(...)`): the count appended per step, and so the
    length after a reset, changes. A count that follows only the list's own length
    (`range(n + int(len(x) == 0))`, a bootstrap step on the first fill), or the length of
    another list cut back on every step (cleanba's `len(obs)` counting the appends to
    `actions`), does not count: those take a few lengths, not one per step."""
    windows = {
        stmt.targets[0].id  # type: ignore[attr-defined]
        for stmt in _unconditional(loop)
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and _resets(stmt, stmt.targets[0].id, loop)
    }
    varying = loop_varying_names(loop, exclude=frozenset({name} | windows))
    for node in ast.walk(loop):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend", "insert")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
        ):
            continue
        cur = parent(node)
        while cur is not None and cur is not loop:
            if isinstance(cur, (ast.For, ast.AsyncFor)) and mentions(cur.iter, varying):
                return True
            cur = parent(cur)
    return False


def _unconditional(loop: ast.AST) -> list[ast.stmt]:
    """The statements every step of `loop` runs (its body, through `with` blocks)."""
    out: list[ast.stmt] = []
    todo = list(getattr(loop, "body", []))
    while todo:
        stmt = todo.pop(0)
        out.append(stmt)
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            todo[:0] = stmt.body
    return out


def _resets(stmt: ast.stmt, name: str, loop: ast.AST) -> bool:
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and stmt.targets[0].id == name
    ):
        return False
    value = stmt.value
    if isinstance(value, (ast.List, ast.Tuple)):
        return not any(isinstance(e, ast.Starred) for e in value.elts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list":
        return not value.args and not value.keywords
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
        s = value.slice
        if s.step is not None:
            return False
        lo, hi = _int_constant(s.lower), _int_constant(s.upper)
        if s.upper is None and lo is not None and lo < 0:
            return True  # x[-k:]: at most k elements
        if hi is not None and hi >= 0 and (s.lower is None or lo is not None):
            return True  # x[:k], x[j:k]: at most k elements
        # the same bound on every step (`x[-args.window:]`, `x[:self.k]`): at most that many
        # elements, so the length no longer follows the count of steps (the bound's sign is
        # not known, and growth unproven stays silent)
        stored = _stored_in(loop)
        lower, upper = s.lower, s.upper
        if upper is None and isinstance(lower, ast.UnaryOp) and isinstance(lower.op, ast.USub):
            return _same_every_step(lower.operand, stored, name)
        if upper is not None and (lower is None or lo is not None):
            return _int_constant(upper) is None and _same_every_step(upper, stored, name)
    return False


def _stored_in(loop: ast.AST) -> frozenset[str]:
    """The names and dotted attributes (`self.k`) that `loop` binds anywhere in it."""
    out: set[str] = set()
    for node in ast.walk(loop):
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            d = dotted(node)
            if d:
                out.add(d)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
    return frozenset(out)


def _same_every_step(expr: ast.AST, stored: frozenset[str], name: str) -> bool:
    """`expr` takes the same value on every step: constants, names and attribute chains the
    loop never binds (nor any prefix of them), and arithmetic of those; no call, no subscript
    (their results may change), and not the list itself (`x[-len(x) // 2:]`)."""
    if isinstance(expr, ast.Constant):
        return type(expr.value) is int
    if isinstance(expr, ast.UnaryOp):
        return _same_every_step(expr.operand, stored, name)
    if isinstance(expr, ast.BinOp):
        return _same_every_step(expr.left, stored, name) and _same_every_step(
            expr.right, stored, name
        )
    if isinstance(expr, (ast.Name, ast.Attribute)):
        d = dotted(expr)
        if not d or d.split(".")[0] == name:
            return False
        parts = d.split(".")
        return not any(".".join(parts[: i + 1]) in stored for i in range(len(parts)))
    return False


def _int_constant(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _targets(node: ast.AST) -> list[ast.expr]:
    """The binding targets of an assignment, augmented or annotated assignment, `for` loop or
    walrus."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
        return [node.target]
    if isinstance(node, ast.NamedExpr):
        return [node.target]
    return []
