"""Which inputs a function of this module waits for on the host, as a timed region sees
its calls (analysis/pending.py): `def evaluate(x): return float(loss(x))` waits for `x`, so
`evaluate(y)` in a timed region waits for `y`; and tree maps whose function reads each leaf
on the host (`jax.tree.map(np.asarray, out)`). Apart from the region walk, so each file stays
readable."""

from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import TREE_MAP
from jaxlint.analysis.sync import SYNC_CALLS, SYNC_METHODS, derived_names, executed, waits_for
from jaxlint.analysis.syntax import attribute_root, bind_arguments

__all__ = [
    "BodyWaits",
    "helper_waits",
    "instance_of_a_class",
    "tree_map_waits",
    "waits_in_body",
]

MAX_SUMMARY_DEPTH = 3


def _calls_sync_method(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in SYNC_METHODS
        for n in ast.walk(node)
    )


# -- summaries: a function of this module that waits for what it is given ----------------


@dataclass(frozen=True)
class BodyWaits:
    """What a function's body waits for on the host: values made from these parameters, and
    from these names of enclosing scopes (a nested `def evaluate(ds)` that reads `theta`)."""

    params: frozenset[str] = frozenset()
    free: frozenset[str] = frozenset()


_SUMMARY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_NOTHING = BodyWaits()


def tree_map_waits(index: ModuleIndex, call: ast.Call) -> bool:
    """`jax.tree.map(np.asarray, tree)`, `tree_map(lambda a: a.block_until_ready(), out)`:
    a tree map whose function reads each leaf on the host."""
    if index.qualname(call.func) not in TREE_MAP or len(call.args) < 2:
        return False
    fn = call.args[0]
    if isinstance(fn, ast.Lambda):
        params = {a.arg for a in fn.args.args}
        return _calls_sync_method(fn.body) or any(
            waits_for(index, n, params) for n in ast.walk(fn.body)
        )
    q = index.qualname(fn) or ""
    return q in SYNC_CALLS or q.startswith("numpy.")


def waits_in_body(index: ModuleIndex, fn: ast.AST, depth: int = 0) -> BodyWaits:
    """Which inputs `fn`'s own body (not its nested definitions) waits for on the host:
    `def evaluate(x): return float(loss(x))` waits for `x`; a closure that does
    `np.asarray(predict(theta, ex))` waits for `theta`. Calls of other functions of the module
    count through their own summaries, a few levels deep."""
    if isinstance(fn, ast.Lambda) or depth >= MAX_SUMMARY_DEPTH:
        return _NOTHING
    known = _SUMMARY.get(fn)
    if known is not None:
        return known
    _SUMMARY[fn] = _NOTHING  # while it is computed (recursion)
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]  # type: ignore[attr-defined]
    body = list(fn.body)  # type: ignore[attr-defined]
    local = {
        n.id
        for stmt in body
        for n in executed(stmt)
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
    }
    loaded = {
        n.id
        for stmt in body
        for n in executed(stmt)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    free = set()
    for n in loaded - local - set(params):
        found = index.lookup(n, index.scope_of(fn))
        if found and all(b.kind not in ("import", "def", "class") for b in found):
            free.add(n)  # a value of an enclosing scope (not a module, function or class)
    waited_params: set[str] = set()
    waited_free: set[str] = set()
    for root in [*params, *sorted(free)]:
        if root in ("self", "cls"):
            continue
        names = derived_names(body, {root})
        if _body_waits(index, fn, body, names, depth):
            (waited_params if root in params else waited_free).add(root)
    result = BodyWaits(frozenset(waited_params), frozenset(waited_free))
    _SUMMARY[fn] = result
    return result


def _body_waits(
    index: ModuleIndex, fn: ast.AST, body: list[ast.stmt], names: set[str], depth: int
) -> bool:
    for stmt in body:
        for node in executed(stmt):
            if waits_for(index, node, names):
                return True
            if not isinstance(node, ast.Call):
                continue
            if tree_map_waits(index, node) and any(
                isinstance(n, ast.Name) and n.id in names
                for a in node.args[1:]
                for n in ast.walk(a)
            ):
                return True
            callee = index.resolve_function(node.func)
            if callee is None or callee is fn or isinstance(callee, ast.Lambda):
                continue
            inner = waits_in_body(index, callee, depth + 1)
            if not inner.params:
                continue
            for param, arg in bind_arguments(node, callee).items():
                if param in inner.params and any(
                    isinstance(n, ast.Name) and n.id in names for n in ast.walk(arg)
                ):
                    return True
    return False


def helper_waits(index: ModuleIndex, node: ast.AST) -> bool:
    """A call of a function of this module that waits on the host for an argument it is
    given (`_sync(player_batches)`, whose body blocks on `jax.tree.leaves(tree)[0]`): an
    explicit wait, as `jax.block_until_ready(player_batches)` is, for work a timed region's
    walk may not see (another module's helper made it; tuning pool orbit_wars
    `collect_timed.py:123-448`, JAX601, read false)."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    fn = index.resolve_function(node.func)
    if fn is None or isinstance(fn, ast.Lambda):
        return False
    params = waits_in_body(index, fn).params
    return bool(params) and any(p in params for p in bind_arguments(node, fn))


# calls that make the containers a `.append(x)` / `.update(x)` / `.put(x)` stores into
_CONTAINER_FACTORIES = frozenset(
    {"list", "dict", "set", "collections.deque", "collections.defaultdict"}
    | {"collections.OrderedDict", "collections.Counter", "queue.Queue", "queue.SimpleQueue"}
)
_CONTAINER_MODULES = ("collections.", "queue.", "builtins.", "multiprocessing.")


def instance_of_a_class(index: ModuleIndex, name: ast.Name) -> bool:
    """Every binding of `name` is an instance of a class, made by calling it (`stream =
    StreamingInterface(256, 256)`, a class of another module or of this one), not a container
    (`list()`, `collections.deque()`): its `update(image)` is that class's own method, which
    may read the value on the host (v42 foundry `notebooks/env/interactive.ipynb` cell 1,
    whose `update` converts the frame with `np.array`: JAX601, read false) or keep it; where
    the value goes is unknown, not a list it waits in."""
    found = index.lookup(name.id, index.scope_of(name))
    if not found:
        return False
    for b in found:
        value = b.value
        if b.kind != "assign" or not isinstance(value, ast.Call):
            return False
        q = index.qualname(value.func)
        if q in _CONTAINER_FACTORIES:
            return False
        made_by = attribute_root(value.func)
        if not isinstance(made_by, ast.Name):
            return False
        maker = index.binding(made_by.id, index.scope_of(made_by))
        if maker is None or maker.kind not in ("import", "class"):
            return False
        if maker.kind == "import" and q is not None and q.startswith(_CONTAINER_MODULES):
            return False
    return True
