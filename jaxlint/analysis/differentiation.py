"""Which functions of a module run under a grad-like transform, and which of their values are
differentiated (carry a tangent or a cotangent).

A function is differentiated when a grad-like transform (`jax.grad`, `value_and_grad`,
`jacfwd`/`jacrev`/`hessian`, `jvp`/`vjp`/`linearize`, equinox's and nnx's grads) is applied
to it in this module (`Transforms.applied`: the parameters its `argnums` name), or when a
differentiated function calls it (the call graph, analysis/calls.py) with an argument that
depends on a differentiated value: the helper's parameter is then differentiated too, and
the helper's `chain` names the callers from the grad's entry.

Inside one function a value depends on a differentiated parameter when it is computed from
one, flow-insensitively (any assignment in the function's own scope whose value reads a
differentiated name makes its targets differentiated). Reads that carry no derivative are
left out: shape metadata (`x.shape`, `x.ndim`, `x.dtype`, `x.size`, `len(x)`) and
`jax.lax.stop_gradient(x)`. What is not followed stays not differentiated (silent):
closures that read an enclosing function's values, bodies of `lax.scan`/`fori_loop`/`cond`,
functions of other modules.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property

from jaxlint.analysis import syntax
from jaxlint.analysis.calls import CallGraph, CallKind
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import GRAD_LIKE, NO_DERIVATIVE, PARTIAL
from jaxlint.analysis.syntax import FUNCTION_NODES, positional_params, walk_scope
from jaxlint.analysis.transforms import Transforms, function_name

__all__ = [
    "Differentiated",
    "Differentiation",
    "custom_vjp_function",
    "derivative_rule_of",
    "handed_to_backward",
]

# attributes and calls whose result carries no derivative of their argument
_METADATA_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size"})
_NO_DERIVATIVE_CALLS = NO_DERIVATIVE | {"len", "jax.numpy.shape"}
# the calls whose callee receives the caller's values as its arguments
_FOLLOWED = frozenset({CallKind.FUNCTION, CallKind.METHOD, CallKind.PARTIAL, CallKind.TRANSFORMED})


@dataclass(frozen=True)
class Differentiated:
    """A function run under a grad-like transform: `params` are its parameters that carry a
    derivative, `via` the transform, `chain` the functions from the transformed one to this
    one (empty: the grad is applied to this function itself)."""

    node: ast.AST
    via: str
    params: frozenset[str]
    chain: tuple[str, ...] = ()
    entry: str = ""  # the name of the function the transform is applied to

    @property
    def confidence(self) -> str:
        return "medium" if self.chain else "high"

    def describe(self) -> str:
        if self.chain:
            return f"differentiated via {' -> '.join(n + '()' for n in self.chain)}"
        return f"`{self.entry}` is differentiated by `{self.via}`"


class Differentiation:
    """The differentiated functions of one module (computed once, on the first question)."""

    def __init__(self, index: ModuleIndex, transforms: Transforms, calls: CallGraph) -> None:
        self.index = index
        self.transforms = transforms
        self.calls = calls
        self._names: dict[ast.AST, frozenset[str]] = {}

    def get(self, fn: ast.AST | None) -> Differentiated | None:
        return self.table.get(fn) if fn is not None else None

    def depends(self, fn: ast.AST, expr: ast.AST) -> bool:
        """`expr`, evaluated in `fn`'s scope, depends on a differentiated value of `fn`."""
        if fn not in self.table:
            return False
        return _reads_any(expr, self._differentiated_names(fn), self.index)

    @cached_property
    def table(self) -> Mapping[ast.AST, Differentiated]:
        out: dict[ast.AST, Differentiated] = {}
        todo: deque[ast.AST] = deque()
        for fn, app in self.transforms.applied.items():
            grads = sorted(app.applied & GRAD_LIKE.keys())
            if not grads or not app.differentiated:
                continue
            name = function_name(fn)
            out[fn] = Differentiated(fn, grads[0], app.differentiated, (), name)
            todo.append(fn)
        while todo:
            caller = todo.popleft()
            row = out[caller]
            names = self._differentiated_names(caller, row.params)
            for callee, params in self._callees(caller, names):
                old = out.get(callee)
                if old is not None and params <= old.params:
                    continue
                if old is None:
                    chain = (*(row.chain or (row.entry,)), function_name(callee))
                    out[callee] = Differentiated(callee, row.via, params, chain, row.entry)
                else:
                    out[callee] = Differentiated(
                        callee, old.via, old.params | params, old.chain, old.entry
                    )
                self._names.pop(callee, None)
                todo.append(callee)
        return out

    def _differentiated_names(
        self, fn: ast.AST, params: frozenset[str] | None = None
    ) -> frozenset[str]:
        found = self._names.get(fn)
        if found is not None:
            return found
        if params is None:
            params = self.table[fn].params
        names = set(params)
        assignments = list(_assignments(fn))
        changed = True
        while changed:
            changed = False
            for targets, value in assignments:
                if targets <= names or not _reads_any(value, names, self.index):
                    continue
                names |= targets
                changed = True
        self._names[fn] = frozenset(names)
        return self._names[fn]

    def _callees(
        self, fn: ast.AST, names: frozenset[str]
    ) -> Iterator[tuple[ast.AST, frozenset[str]]]:
        """The functions `fn` calls with a differentiated argument, and the parameters those
        arguments bind."""
        for node in walk_scope(fn):
            if not isinstance(node, ast.Call) or node is fn:
                continue
            t = self.calls.target(node)
            if t is None or t.kind not in _FOLLOWED or t.function is None:
                continue
            callee = t.function
            if not isinstance(callee, FUNCTION_NODES) or callee is fn:
                continue
            params = positional_params(callee, bound=t.bound_self)
            bound: set[str] = set()
            for i, arg in enumerate((*t.partial_args, *t.args)):
                if isinstance(arg, ast.Starred):
                    break
                if i < len(params) and _reads_any(arg, names, self.index):
                    bound.add(params[i])
            for key, arg in (*t.partial_keywords, *t.keywords):
                if _reads_any(arg, names, self.index):
                    bound.add(key)
            if bound:
                yield callee, frozenset(bound)


def _assignments(fn: ast.AST) -> Iterator[tuple[frozenset[str], ast.AST]]:
    """(target names, value) of the bindings in `fn`'s own scope."""
    for node in walk_scope(fn):
        if node is fn:
            continue
        if isinstance(node, ast.Assign):
            yield _names(node.targets), node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            yield _names([node.target]), node.value
        elif isinstance(node, ast.NamedExpr):
            yield _names([node.target]), node.value
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            yield _names([node.target]), node.iter
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            yield _names([node.optional_vars]), node.context_expr


def _names(targets: list[ast.expr]) -> frozenset[str]:
    out: set[str] = set()
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                out.add(n.id)
    return frozenset(out)


def _reads_any(expr: ast.AST, names: frozenset[str] | set[str], index: ModuleIndex) -> bool:
    """`expr` reads one of `names` other than through shape metadata or `stop_gradient`."""
    stack = [expr]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Name):
            if cur.id in names and isinstance(cur.ctx, ast.Load):
                return True
            continue
        if isinstance(cur, ast.Attribute) and cur.attr in _METADATA_ATTRIBUTES:
            continue
        if isinstance(cur, ast.Call) and index.qualname(cur.func) in _NO_DERIVATIVE_CALLS:
            continue
        if isinstance(cur, FUNCTION_NODES):
            continue
        stack.extend(ast.iter_child_nodes(cur))
    return False


# the methods of a `jax.custom_jvp` / `jax.custom_vjp` function that register its rules
_RULE_REGISTRARS = frozenset({"defjvp", "defvjp", "defjvps"})


def derivative_rule_of(index: ModuleIndex, fn: ast.AST | None) -> str | None:
    """`fn` is a custom derivative rule of a function `f` of this module: decorated with
    `@f.defjvp` (or `defvjp`/`defjvps`), or passed to `f.defvjp(fwd, bwd)` / `f.defjvp(rule)`
    by name. The answer is `ast.dump` of the expression naming `f` (compare it with a call's
    `func`), None otherwise. A rule recomputes the primal on purpose: the same inputs, and
    the same random draws, as `f` itself."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    for deco in fn.decorator_list:
        if isinstance(deco, ast.Attribute) and deco.attr in _RULE_REGISTRARS:
            return ast.dump(deco.value)
    for call, _ in _registrations(index, fn):
        return ast.dump(call.func.value)  # type: ignore[attr-defined]
    return None


def _registrations(
    index: ModuleIndex, fn: ast.FunctionDef | ast.AsyncFunctionDef
) -> Iterator[tuple[ast.Call, int]]:
    """(`f.defvjp(...)` call, position) for each registration call that passes `fn` by name."""
    for load in index.names.get(fn.name, ()):
        call = syntax.parent(load)
        if (
            isinstance(load.ctx, ast.Load)
            and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in _RULE_REGISTRARS
        ):
            for i, a in enumerate(call.args):
                if a is load:
                    yield call, i


def handed_to_backward(
    index: ModuleIndex, fn: ast.AST | None, value: ast.AST, part: ast.AST
) -> bool:
    """`part` sits in the residuals that `fn`, the forward rule of `f.defvjp(fwd, bwd)`,
    returns (`return out, (out, ts, rng)`): JAX hands them to the backward rule, which
    rebuilds the forward's random draws from the same key for the gradient to be right (v41
    xwinxu/bayeSDE `jaxsde/sde_vjp.py:196-198`, the Brownian motion of the adjoint pass:
    JAX201 "returned after ... consumed it", read false). Not the primal output (element 0),
    which goes to `f`'s callers."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if not (isinstance(value, ast.Tuple) and len(value.elts) == 2):
        return False
    if not any(n is part for n in ast.walk(value.elts[1])):
        return False
    return any(
        call.func.attr == "defvjp" and i == 0  # type: ignore[attr-defined]
        for call, i in _registrations(index, fn)
    )


_CUSTOM_VJP = frozenset({"jax.custom_vjp"})


def custom_vjp_function(index: ModuleIndex, fn: ast.AST | None) -> bool:
    """`fn` is decorated with `jax.custom_vjp` (or `partial(jax.custom_vjp, nondiff_argnums=
    ...)`). Under bare `grad` JAX never runs its body on tracers: it calls the forward rule
    with the concrete primal values and the backward rule on the cotangents, so a host
    conversion in what the body calls works there (checked with JAX 0.12.1: `float(norm(f))`
    in the solver both run; only `jit` or `vmap` around the grad traces them; tuning pool
    anulum/scpn-fusion-core `jax_free_boundary_predictive.py:644`, JAX101 x2, read false)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for deco in fn.decorator_list:
        if index.qualname(deco) in _CUSTOM_VJP:
            return True
        if (
            isinstance(deco, ast.Call)
            and index.qualname(deco.func) in PARTIAL
            and deco.args
            and index.qualname(deco.args[0]) in _CUSTOM_VJP
        ):
            return True
    return False
