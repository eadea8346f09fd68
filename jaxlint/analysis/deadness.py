"""Dead results: a call whose value no code ever reads.

`value_is_dead(call, index)` is True when the call is a whole expression statement (its
value is discarded), or the whole right-hand side of an assignment to plain names whose
value no load can see: the use-def map of the scope's flow graph (analysis/flow/graph.py)
says no load (and no `x += ...`) is reached by this binding, and, at module level, the
binding does not reach the end of the module (a name still bound there may be imported). The
PRNG analysis uses it so that a key consumption whose result is dead counts as neither use of
a "consumed twice" pair (JAX201): a discarded `split` or sample correlates with nothing, so
drawing from the same key again, before or after it, is harmless (Mava's `eval_keys = split(key_e,
n)` overwritten in the training loop before the evaluator reads it; mctx's duplicated `a, b,
c = split(key, 3)` line).

Program order is the graph's (loops, `break`/`continue`, `try` handlers and `finally`,
`match`, a `for` whose first step the source proves); what is not program order stays here
and is conservative (False whenever unsure): a name the graph does not track (global,
nonlocal, written from a nested scope) is read, and so is a name that a function or class
nested in the scope loads (a closure reads it whenever it runs). Class bodies and lambdas
are not followed.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex, Scope
from jaxlint.analysis.jax_api import ARGUMENT_PRESERVING_TRANSFORMS
from jaxlint.analysis.syntax import FUNCTION_NODES


def value_is_dead(call: ast.AST, index: ModuleIndex, *, scripts: bool = True) -> bool:
    """True when nothing can read the value `call` evaluates to (see the module docstring);
    `index` is the module's (its flow graphs answer). A module-level name still bound at the
    end counts as read (an importer, or someone looking at it after a script or a notebook
    cell ran), except the keys a `split`/`fold_in` makes in a script (`_dead_after`): an
    unread key correlates nothing even when looked at, while unread random numbers may be
    displayed (`a` and `b` drawn from one key in a notebook cell). `scripts=False` turns that
    exception off (a jit wrapper's unread name: someone may still call it)."""
    parent = syntax.parent(call)
    if isinstance(parent, ast.Expr) and parent.value is call:
        return True
    waited = _waited_for_only(call, parent)
    if waited is not None:
        return value_is_dead(waited, index, scripts=scripts)  # `f(x).block_until_ready()`
    if isinstance(parent, ast.Assign) and parent.value is call:
        targets = parent.targets
    elif isinstance(parent, ast.AnnAssign) and parent.value is call:
        targets = [parent.target]
    else:
        return False
    names: list[str] = []
    for t in targets:
        found = syntax.plain_target_names(t)
        if found is None:
            return False  # stored into an object: whoever holds it may read it
        names.extend(found)
    scripts = scripts and isinstance(call, ast.Call) and index.qualname(call.func) in KEY_MAKERS
    return bool(names) and all(_dead_after(parent, n, index, scripts) for n in names)


def _waited_for_only(value: ast.AST, parent: ast.AST | None) -> ast.AST | None:
    """The call that waits for `value` and returns it, when that is all that happens to it:
    `value.block_until_ready()`, `jax.block_until_ready(value)` (waiting reads no number: a
    compile warm-up whose result is dropped; v20 rows, tuning material: JAX-AMG
    demo/solver_cache_benchmark.py:50, feedbax train.py:445-449, JAX201 x3)."""
    if (
        isinstance(parent, ast.Attribute)
        and parent.attr == "block_until_ready"
        and isinstance(syntax.parent(parent), ast.Call)
        and syntax.parent(parent).func is parent  # type: ignore[union-attr]
        and not syntax.parent(parent).args  # type: ignore[union-attr]
    ):
        return syntax.parent(parent)
    if (
        isinstance(parent, ast.Call)
        and len(parent.args) == 1
        and parent.args[0] is value
        and isinstance(parent.func, ast.Attribute)
        and parent.func.attr == "block_until_ready"
        and isinstance(parent.func.value, ast.Name)
        and parent.func.value.id == "jax"
    ):
        return parent
    return None


def result_never_read(call: ast.AST, index: ModuleIndex) -> bool:
    """`value_is_dead(call)`, or the call is the whole right-hand side of `self._x = call`
    (a private attribute, not a dunder) and nothing in `module` loads an attribute `_x`:
    a jit wrapper built in `__init__` and never called (MLLM-JAX's gemma sampler, whose
    `self._compiled_sample_fn = jax.jit(self._sample_fn)` has its calls commented out)."""
    if value_is_dead(call, index, scripts=False):
        return True
    parent = syntax.parent(call)
    if not (isinstance(parent, ast.Assign) and parent.value is call and len(parent.targets) == 1):
        return False
    target = parent.targets[0]
    if not (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
        and target.attr.startswith("_")
        and not target.attr.startswith("__")
    ):
        return False
    attr = target.attr
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, ast.Constant) and node.value == attr:
            return False  # `getattr(self, "_x")`
    return True


def names_dead_after(stmt: ast.stmt, names: list[str], index: ModuleIndex) -> bool:
    """True when each of `names`, bound by `stmt`, is dead after it (as for `value_is_dead`);
    for a call whose value is bound only in part (analysis/flow/key_products.py)."""
    return all(_dead_after(stmt, n, index) for n in names)


def loads_of_binding(
    stmt: ast.stmt, name: str, index: ModuleIndex, *, own_module: bool = False
) -> list[ast.Name] | None:
    """The loads of `name` that may see the value `stmt` binds to it, all in `stmt`'s own
    scope; None when that is unknown or some reader is elsewhere (a nested function, a
    class body, an importer of a module-level name): the def-use side of the flow graph.
    `own_module`: the loads of this module only, for a module-level name that reaches the
    end of the module too (a question about what this module's own code reads)."""
    graphs = flow_graphs(index)
    scope = graphs.owner(stmt)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        return None
    graph = graphs.graph(scope)
    if name not in graph.tracked or _nested_reads(scope, name, index):
        return None
    if (
        not own_module
        and isinstance(scope, ast.Module)
        and graph.reaches_exit(name, stmt) is not False
    ):
        return None
    # the loads the graph of `scope` holds are filed by the index under `scope` or, for a
    # def's decorators and defaults and a class's bases, under a scope directly inside it:
    # asking only those keeps the question linear in the scope, not in the module (every
    # copy of `params` in a 3,000-line module was asked about once per binding)
    held = index.scopes[scope]
    near = index.names_in(name, held)
    for child in held.children:
        near += index.names_in(name, child)
    return [
        load
        for load in near
        if isinstance(load.ctx, ast.Load)
        and graphs.owner(load) is scope
        and graphs.reached_by(load, stmt)
    ]


def loads_of_value(
    value: ast.AST, index: ModuleIndex, *, own_module: bool = False
) -> list[ast.Name] | None:
    """`loads_of_binding` for a value that is the whole right-hand side of an assignment to
    one plain name (`x = value`); None for any other place."""
    stmt = syntax.parent(value)
    if not (
        isinstance(stmt, ast.Assign)
        and stmt.value is value
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return None
    return loads_of_binding(stmt, stmt.targets[0].id, index, own_module=own_module)


def _dead_after(stmt: ast.stmt, name: str, index: ModuleIndex, scripts: bool = False) -> bool:
    """No load can see the value `stmt` binds to `name` (see the module docstring)."""
    graphs = flow_graphs(index)
    scope = graphs.owner(stmt)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        return False  # class bodies (attributes) and lambdas: not followed
    graph = graphs.graph(scope)
    if name not in graph.tracked or _nested_reads(scope, name, index):
        return False
    read = graph.binding_read(name, stmt)
    if read is None or (read and not _only_ignored_arguments(stmt, name, index)):
        return False
    if isinstance(scope, ast.Module) and graph.reaches_exit(name, stmt) is not False:
        # still bound at the end: an importer may read it, unless (`scripts`) it holds keys
        # a module-level `split` made: a module that splits keys when it is loaded is a
        # script or a notebook (a library would dispatch device work on every import), and
        # nothing imports a script for its keys (v29 cr-sparse
        # examples/0200_cs/cosamp_step_by_step.py:47, a `keys = split(key, 4)` nothing
        # reads; JAX201 medium, tuning material)
        return scripts
    return True


def _only_ignored_arguments(stmt: ast.stmt, name: str, index: ModuleIndex) -> bool:
    """Every load that sees the value `stmt` binds to `name` hands it to a parameter its
    callee never reads: a def of this module called by name whose parameter is loaded
    nowhere in its body (v36 riemannian-score-sde `scripts/examples/so3.ipynb`:
    `sample_unif_scipy(next_key, B)` draws from scipy and ignores `state`; JAX201, tuning
    material). Anything else (a load of another kind, a callee not resolved, `*args`,
    `**kwargs`, `locals()`) is a read."""
    # asked of every live key binding: the use-def question only where some load of the name
    # in the scope is such an argument at all (most bindings have none: answered at once)
    if not any(
        isinstance(load.ctx, ast.Load) and _ignored_argument(load, index)
        for load in index.names_in(name, index.scope_of(stmt))
    ):
        return False
    loads = loads_of_binding(stmt, name, index)
    return bool(loads) and all(_ignored_argument(load, index) for load in loads or ())


def _ignored_argument(load: ast.Name, index: ModuleIndex) -> bool:
    call = syntax.parent(load)
    if isinstance(call, ast.keyword):
        call = syntax.parent(call)
    if not isinstance(call, ast.Call):
        return False
    if _dead_partial_argument(load, call, index):
        return True
    fn: ast.AST | None = None
    if isinstance(call.func, ast.Name):
        fn = index.resolve_function(call.func)
    elif (
        # `jax.vmap(lambda _k: fresh())(keys)`: the transform hands each argument to the
        # function's parameter in the same place (v37 qqt-gpu-sim jax_env.py:76 `init_batch`
        # splits its key and maps a lambda that ignores the keys; JAX201 x7, tuning material)
        isinstance(call.func, ast.Call)
        and (index.qualname(call.func.func) or "") in ARGUMENT_PRESERVING_TRANSFORMS
        and call.func.args
    ):
        inner = call.func.args[0]
        fn = inner if isinstance(inner, ast.Lambda) else index.resolve_function(inner)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    args = fn.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}  # named ones
    param = next((p for p, a in syntax.bind_arguments(call, fn).items() if a is load), None)
    if param is None or param not in params:
        return False  # into `*args` or `**kwargs`, or after a starred argument
    # the index's loads of the parameter (and of `locals`/`vars`) in `fn` or a def inside it
    inside = index.scopes[fn]
    for ident in (param, "locals", "vars"):
        if any(
            not isinstance(r.ctx, ast.Store) for r in index.names_in(ident, inside, nested=True)
        ):
            return False
    return True


# the `functools.partial` calls whose deadness is being decided (a partial rebinding the name
# it binds in a loop, `g = partial(h, g)`, would otherwise ask about itself); ids of live
# nodes, removed when the question is answered, so two threads (the LSP's) never share one
_PARTIALS_ASKED: set[int] = set()


def _dead_partial_argument(load: ast.Name, call: ast.Call, index: ModuleIndex) -> bool:
    """`load` is a bound argument (not the function) of a `functools.partial` call whose value
    nothing reads: a partial computes nothing when it is made, its arguments are read only
    when it is called (v38 quadruped-osc `src/algorithms/ppo/train.py:370`: `rng=split(key)`
    bound into a `render_randomization_fn` that nothing calls; JAX201 x2, tuning material)."""
    if (index.qualname(call.func) or "") != "functools.partial":
        return False
    if call.args and call.args[0] is load:
        return False  # the function itself: `partial(f, ...)` is not a read of f's value
    if id(call) in _PARTIALS_ASKED:
        return False
    _PARTIALS_ASKED.add(id(call))
    try:
        return value_is_dead(call, index, scripts=False)
    finally:
        _PARTIALS_ASKED.discard(id(call))


# calls whose value is keys, not random numbers (`value_is_dead`'s exception for scripts)
KEY_MAKERS = frozenset({"jax.random.split", "jax.random.fold_in", "jax.random.clone"})


def _nested_reads(scope: ast.AST, name: str, index: ModuleIndex) -> bool:
    """A function nested in the scope (at any depth) that reads `name` without binding its
    own: it may run at any time after the assignment and read the value. A nested class
    body that loads it counts too (the graph of the scope does not hold its loads).

    Asked of the index's loads of `name` (each one's chain of scopes up to `scope`), not by
    walking the scope: for a module-level value that walk was the whole module, once per
    question (a sixth of the lint of a 3,000-line module)."""
    target = index.scopes.get(scope)
    if target is None:
        return False
    for load in index.names_in(name, target, nested=True):
        if not isinstance(load.ctx, ast.Load):
            continue
        chain = []
        cur: Scope | None = index.scope_of(load)
        while cur is not None and cur is not target:
            chain.append(cur)
            cur = cur.parent
        if cur is None:
            continue  # not inside `scope`
        for sub in chain:  # the functions and classes between the load and `scope`
            if sub.kind == "class" or name not in _local_names(sub.node):
                return True
    return False


def _local_names(fn: ast.AST) -> set[str]:
    out = {a.arg for a in _all_args(fn.args)}  # type: ignore[attr-defined]
    if isinstance(fn, ast.Lambda):
        return out
    stack = list(fn.body)  # type: ignore[attr-defined]
    while stack:
        cur = stack.pop()
        if isinstance(cur, (ast.Global, ast.Nonlocal)):
            out.difference_update(cur.names)
            continue
        if isinstance(cur, ast.Name) and isinstance(cur.ctx, (ast.Store, ast.Del)):
            out.add(cur.id)
        if not isinstance(cur, FUNCTION_NODES):
            stack.extend(ast.iter_child_nodes(cur))
    return out


def _all_args(args: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]
