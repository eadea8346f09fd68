"""Which calls run a function jitted in this module, and what that jit makes static.

A second, narrower view beside `analysis.transforms`: transforms answers "is this function
traced, and how", while this module answers questions about one *jit application* the code
can see -- the decorator or `f = jax.jit(g, ...)` behind a call, its `static_argnums` /
`static_argnames` / donation options, and which arguments of a call land on static
parameters. Several rule families need it (recompiles, unhashable static arguments,
donation, timings, dtypes), so it lives here as a fact and not inside one rule module.

    spec = jitted_callee(facts, call)          # JitSpec | None
    spec.static_arguments(call)                # [(parameter, argument)] at static positions
    jit_application(index, call)               # `jax.jit(E, ...)` and friends: (qualname, options, E)
    fresh_callable(facts, target)              # E makes a new function object each time

The per-module tables (`JitSites`, one per `ModuleFacts`, `facts.jit_sites`) hold the values
assigned to `self.<attr>` per class and the answer of `jitted_callee` per call, so the rules
that ask about the same call share one answer instead of re-walking the class each time.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import GRAD_LIKE, JIT_FACTORIES, JIT_LIKE, NNX_IN_PLACE, PARTIAL
from jaxlint.analysis.syntax import (
    ancestors,
    enclosing_function,
    keyword,
    parent,
    positional_params,
)
from jaxlint.analysis.transforms import read_static_options

if TYPE_CHECKING:
    from jaxlint.analysis import ModuleFacts

DONATING = frozenset({"jax.jit", "jax.pmap", "jax.experimental.pjit.pjit"})
FUNCTION_TRANSFORMS = frozenset(JIT_LIKE) | frozenset(GRAD_LIKE)
_NAME, _ATTRIBUTE = ast.Name, ast.Attribute


@dataclass
class JitSpec:
    """A locally visible `jax.jit` application: decorator or `f = jax.jit(g, ...)`.

    Specs returned by `jitted_callee` are shared by every rule that asks about the same call:
    read them, do not change them."""

    qualname: str
    options: ast.Call | None  # the call that carries the keywords (None: bare `@jax.jit`)
    wrapper: ast.expr  # the decorator / the jit expression applied to the function
    fn: ast.AST | None = None  # the def being jitted, when known
    bound_method: bool = False  # `jax.jit(self.method)`: `self` is not an argument
    self_passed: bool = False  # a jitted method called as `self.m(...)`: `self` is argument 0
    static_positions: set[int] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)
    unknown_static: bool = False
    donates: bool = False
    donate_positions: set[int] = field(default_factory=set)
    donate_names: set[str] = field(default_factory=set)
    donate_unknown: bool = False

    @property
    def params(self) -> list[str] | None:
        if self.fn is None:
            return None
        params = positional_params(self.fn)
        return params[1:] if self.bound_method else params

    @property
    def name(self) -> str:
        if isinstance(self.fn, ast.Lambda):
            return "<lambda>"
        return getattr(self.fn, "name", "the jitted function")

    def static_arguments(self, call: ast.Call) -> list[tuple[str, ast.expr]]:
        """(parameter, argument) pairs of `call` that land on static parameters."""
        return self._arguments_at(call, self.static_positions, self.static_names)

    def donated_arguments(self, call: ast.Call) -> list[tuple[str, ast.expr]]:
        """(parameter, argument) pairs of `call` that land on donated parameters (empty when
        what is donated is not written literally: `donate_unknown`). `jax.jit` maps
        `donate_argnums` and `donate_argnames` onto each other through the signature, as it
        does the static options."""
        if self.donate_unknown:
            return []
        return self._arguments_at(call, self.donate_positions, self.donate_names)

    def _arguments_at(
        self, call: ast.Call, at_positions: set[int], at_names: set[str]
    ) -> list[tuple[str, ast.expr]]:
        params = self.params
        names = set(at_names)
        positions = set(at_positions)
        if params is not None:
            n = len(params)
            positions = {p + n if p < 0 else p for p in positions}
            names |= {params[p] for p in positions if 0 <= p < n}
            positions |= {i for i, p in enumerate(params) if p in names}
        out = []
        offset = 1 if self.self_passed else 0
        for j, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break
            i = j + offset
            if i in positions:
                label = params[i] if params is not None and i < len(params) else f"#{i}"
                out.append((label, arg))
        for kw in call.keywords:
            if kw.arg and kw.arg in names:
                out.append((kw.arg, kw.value))
        return out


def jit_wrapper(index: ModuleIndex, expr: ast.AST) -> tuple[str, ast.Call | None] | None:
    """`jax.jit`, `jax.jit(static_argnums=...)`, `partial(jax.jit, ...)` (no function yet):
    (qualname, the call carrying the keywords or None)."""
    q = index.qualname(expr)
    if q in JIT_FACTORIES:
        return q, None
    if isinstance(expr, ast.Call):
        fq = index.qualname(expr.func)
        if fq in PARTIAL and expr.args:
            inner = index.qualname(expr.args[0])
            if inner in JIT_FACTORIES and len(expr.args) == 1:
                return inner, expr
        if fq in JIT_FACTORIES and not expr.args and not keyword(expr, "fun"):
            return fq, expr
    return None


def jit_application(index: ModuleIndex, call: ast.Call) -> tuple[str, ast.Call, ast.expr] | None:
    """`jax.jit(E, ...)`, `partial(jax.jit, ...)(E)`, `jax.jit(...)(E)`: (qualname, the call
    carrying the keywords, E)."""
    q = index.qualname(call.func)
    if q in JIT_FACTORIES:
        target = call.args[0] if call.args else keyword(call, "fun")
        if target is None or isinstance(target, ast.Starred):
            return None
        return q, call, target
    if isinstance(call.func, ast.Call) and len(call.args) == 1 and not call.keywords:
        wrapped = jit_wrapper(index, call.func)
        if wrapped is not None and wrapped[1] is not None:
            return wrapped[0], wrapped[1], call.args[0]
    return None


def _read_options(spec: JitSpec, options: ast.Call | None) -> JitSpec:
    if options is None:
        return spec
    static = read_static_options(options)
    spec.static_positions |= static.positions
    spec.static_names |= static.names
    spec.unknown_static |= static.unknown
    spec.donates |= static.donates
    spec.donate_positions |= static.donate_positions
    spec.donate_names |= static.donate_names
    spec.donate_unknown |= static.donate_unknown
    return spec


def jit_spec_of_def(index: ModuleIndex, fn: ast.AST) -> JitSpec | None:
    """The jit decorator of a `def` (`@jax.jit`, `@partial(jax.jit, ...)`, `@jit(...)`)."""
    for dec in getattr(fn, "decorator_list", ()):
        wrapped = jit_wrapper(index, dec)
        if wrapped is not None:
            q, options = wrapped
            return _read_options(JitSpec(q, options, dec, fn), options)
    return None


def jit_spec_of_value(index: ModuleIndex, value: ast.AST | None) -> JitSpec | None:
    """`jax.jit(g, ...)` and friends as an assigned value."""
    if not isinstance(value, ast.Call):
        return None
    app = jit_application(index, value)
    if app is None:
        return None
    q, options, target = app
    fn = index.resolve_function(target)
    bound = (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
        and fn is not None
    )
    if isinstance(target, ast.Attribute) and not bound:
        fn = None
    return _read_options(JitSpec(q, options, value, fn, bound_method=bound), options)


def jitted_callee(facts: ModuleFacts, call: ast.Call) -> JitSpec | None:
    """The jit application behind `call.func` when it is visible in this module."""
    return facts.jit_sites.callee(call)


def donation_takes_effect(facts: ModuleFacts, call: ast.Call) -> bool:
    """A donating jitted call deletes its donated arguments only when it is dispatched: inside
    a function JAX traces under jit the call is inlined into the outer program, its
    `donate_argnums` are ignored and the argument is a tracer that stays readable (checked on
    0.12.1 by a v41 reader; v41 BoltzmannSim `src/base.py:958`, `multiphase.py:549, 618`:
    `collision(..., donate_argnums=(1,))` called in a `@jit` step, JAX506 x3)."""
    fn = enclosing_function(call)
    facts_of = facts.function_facts(fn) if fn is not None else None
    return facts_of is None or not facts_of.is_jit


class JitSites:
    """The jit applications of one module, computed on demand and kept with its facts."""

    def __init__(self, facts: ModuleFacts) -> None:
        self.facts = facts
        self.index = facts.index
        self._callees: dict[ast.Call, JitSpec | None] = {}

    def callee(self, call: ast.Call) -> JitSpec | None:
        """See `jitted_callee` (one answer per call, shared by the rules that ask)."""
        if call not in self._callees:
            self._callees[call] = self._callee(call)
        return self._callees[call]

    def _callee(self, call: ast.Call) -> JitSpec | None:
        index = self.index
        func = call.func
        cls = type(func)  # exact classes: the parser makes no subclasses
        if cls is _NAME:
            b = index.binding(func.id, index.scope_of(func))  # type: ignore[attr-defined]
            if b is None and self._some_binding_jits(func):  # type: ignore[arg-type]
                # several bindings (`def step` then `step = jax.jit(step, donate_argnums=0)`):
                # the one the use-def map says reaches this call, if there is one (asked only
                # when one of them is a jit: the flow graph of a scope is not free)
                b = self.facts.flow.reaching_binding(func)  # type: ignore[arg-type]
            if b is None:
                return None
            if b.kind == "def":
                spec = jit_spec_of_def(index, b.node)
                if spec is not None and self.facts.transforms.outer_wrapper(b.node, spec.wrapper):
                    return None  # the call runs a wrapper first: it decides what jit sees
                return spec
            if b.kind == "assign":
                return jit_spec_of_value(index, b.value)
            return None
        if cls is _ATTRIBUTE and type(func.value) is _NAME:  # type: ignore[attr-defined]
            if func.value.id not in ("self", "cls"):  # type: ignore[attr-defined]
                return None
            cls = self._class_of(call)
            if cls is None:
                return None
            return self._method_callee(cls, func.attr)
        return None

    def _some_binding_jits(self, name: ast.Name) -> bool:
        """One of the bindings `name` has where it is called is a jit application: a def
        with a jit decorator or `name = jax.jit(...)` (and friends)."""
        index = self.index
        for b in index.lookup(name.id, index.scope_of(name)) or ():
            if b.kind == "def" and jit_spec_of_def(index, b.node) is not None:
                return True
            if b.kind == "assign" and isinstance(b.value, ast.Call):
                if jit_application(index, b.value) is not None:
                    return True
        return False

    def _method_callee(self, cls: ast.ClassDef, attr: str) -> JitSpec | None:
        """`self.<attr>(...)`: a jitted value stored on `self`, or a jitted method."""
        values = self.self_assignments(cls, attr)
        if len(values) == 1:
            return jit_spec_of_value(self.index, values[0])
        if not values:
            for stmt in cls.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == attr:
                    spec = jit_spec_of_def(self.index, stmt)
                    if spec is not None and self.facts.transforms.outer_wrapper(stmt, spec.wrapper):
                        return None  # the call runs a wrapper first: it decides what jit sees
                    if spec is not None:
                        spec.self_passed = True
                    return spec
        return None

    def _class_of(self, node: ast.AST) -> ast.ClassDef | None:
        scope = self.index.scope_of(node)
        while scope is not None and scope.kind != "function":
            scope = scope.parent
        cls = scope.class_scope if scope is not None else None
        return cls.node if cls is not None else None  # type: ignore[return-value]

    def self_assignments(self, cls: ast.ClassDef, attr: str) -> list[ast.expr]:
        """Values assigned to `self.<attr>` anywhere in the class (the call graph's table:
        one walk per class for every analysis that asks)."""
        return [v for v in self.facts.calls.self_assignments(cls).get(attr, []) if v is not None]


# -- what a jitted expression makes: a new function object each time? -----------------------


def fresh_callable(facts: ModuleFacts, target: ast.expr) -> tuple[str, str] | None:
    """What kind of new function object `target` makes on each evaluation, and a name stem
    (the jit cache is keyed on the function object, so each one compiles again)."""
    index = facts.index
    if isinstance(target, ast.Lambda):
        body = target.body
        stem = "fn"
        if isinstance(body, ast.Call):
            stem = _stem(body.func) or stem
        return "a lambda", stem
    if isinstance(target, ast.Call):
        return _fresh_from_call(index, target)
    if isinstance(target, ast.Name):
        b = index.binding(target.id, index.scope_of(target))
        if (
            b is not None
            and b.kind == "def"
            and enclosing_function(b.node, stop_at_class=True) is not None
            and not _is_class_member(b.node)
            and facts.loops.per_step(b.node) is not None  # the def runs every step
        ):
            return f"the nested function `{target.id}`, defined anew every step", target.id
        return None
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        return _fresh_bound_method(index, target)
    return None


def _fresh_from_call(index: ModuleIndex, target: ast.Call) -> tuple[str, str] | None:
    fq = index.qualname(target.func)
    if fq in PARTIAL and target.args:
        return "a `functools.partial`", _stem(target.args[0]) or "fn"
    if fq in FUNCTION_TRANSFORMS and target.args:
        short = fq.rsplit(".", 1)[-1]
        inner = _stem(target.args[0]) or "fn"
        return f"`{short}(...)` (a new function object)", f"{short}_{inner}"
    cls = local_class(index, target.func)
    if cls is not None:
        return f"a new `{cls.name}` instance", cls.name.lower()
    return None


def _fresh_bound_method(index: ModuleIndex, target: ast.Attribute) -> tuple[str, str] | None:
    base = target.value.id  # type: ignore[attr-defined]
    if target.attr == "__call__" and index.qualname(target.value) is None:
        return f"the bound method `{base}.__call__`", base
    if base in ("self", "cls"):
        fn = index.resolve_function(target)
        if fn is not None and not _is_static_method(index, fn):
            return f"the bound method `{base}.{target.attr}`", target.attr
        return None
    # the binding that reaches this use (the flow graph): a name rebound per loop (`env =
    # Env()` before each of two loops of one function) is still a fresh instance at each
    found = index.lookup(base, index.scope_of(target))
    b = flow_graphs(index).certain_binding(target.value, found) if found else None  # type: ignore[arg-type]
    if (
        b is not None
        and b.kind == "assign"
        and isinstance(b.value, ast.Call)
        and local_class(index, b.value.func) is not None
    ):
        cls = local_class(index, b.value.func)
        if cls is not None and has_method(cls, target.attr):
            return f"the bound method `{base}.{target.attr}`", target.attr
    return None


def _stem(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def local_class(index: ModuleIndex, func: ast.AST) -> ast.ClassDef | None:
    """The class of this module that a call `func(...)` instantiates (by name)."""
    if not isinstance(func, ast.Name):
        return None
    b = index.binding(func.id, index.scope_of(func))
    if b is not None and b.kind == "class":
        return b.node  # type: ignore[return-value]
    return None


def has_method(cls: ast.ClassDef, name: str) -> bool:
    """`cls` defines `name` in its own body."""
    return any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name for s in cls.body
    )


_FLATTENING = frozenset({"tree_flatten", "tree_unflatten", "tree_flatten_with_keys"})


def defines_flattening(cls: ast.ClassDef) -> bool:
    """`cls` writes its own pytree flatten/unflatten functions (`tree_flatten`, or private
    `_tree_flatten`/`_tree_unflatten`): it is registered as a pytree, here or by another
    module (v24 isofit-jax old/isojax.py registers `RTEcalc` with `RTEcalc._tree_flatten`,
    JAX409 x7, tuning material), so `jit` takes its `self` apart like any pytree."""
    return any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name.lstrip("_") in _FLATTENING
        for s in cls.body
    )


def _is_class_member(fn: ast.AST) -> bool:
    return isinstance(parent(fn), ast.ClassDef)


def _is_static_method(index: ModuleIndex, fn: ast.AST) -> bool:
    return any(
        index.qualname(d) in ("staticmethod", "classmethod")
        for d in getattr(fn, "decorator_list", ())
    )


def nnx_transformed(index: ModuleIndex, func: ast.expr) -> bool:
    """Calling `func` runs a function under an nnx transform: `nnx.jit(f)(...)`, a name
    bound to `nnx.jit(f)`, or a def decorated `@nnx.jit` (`@nnx.jit(...)`,
    `@partial(nnx.jit, ...)`)."""
    if isinstance(func, ast.Call):
        return _nnx_transform(index, func)
    if isinstance(func, ast.Name):
        b = index.binding(func.id, index.scope_of(func))
        if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
            return _nnx_transform(index, b.value)
    fn = index.resolve_function(func)
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return any(_nnx_transform(index, d) for d in fn.decorator_list)
    return False


def _nnx_transform(index: ModuleIndex, node: ast.expr) -> bool:
    """`node` is `nnx.jit`, `nnx.jit(...)` or `partial(nnx.jit, ...)`."""
    if isinstance(node, ast.Call):
        if index.qualname(node.func) in PARTIAL:
            return bool(node.args) and index.qualname(node.args[0]) in NNX_IN_PLACE
        node = node.func
    return index.qualname(node) in NNX_IN_PLACE


def made_per_run(fn: ast.AST | None) -> bool:
    """`fn` is a new function object each time the statement that makes it runs: a lambda,
    or a def inside a loop. JAX caches a trace on the function object, so jitting a new one
    traces afresh and reads the globals as they are then (`jax.jit(lambda v: v * scale)`
    after `scale = ...` in one loop step sees each new value); a module-level def outside
    loops is made once, and jitting it again reuses its trace (checked on JAX 0.12: stale
    `[2.0, 2.0, 2.0]` against the lambda's `[2.0, 4.0, 8.0]`)."""
    if isinstance(fn, ast.Lambda):
        return True
    return isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        isinstance(a, (ast.For, ast.AsyncFor, ast.While)) for a in ancestors(fn)
    )
