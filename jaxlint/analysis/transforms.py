"""Which functions JAX traces, how, and which of their parameters stay static.

A J-context (jit-like) traces abstract values: every host conversion and Python branch on
them fails. A G-context (only under bare grad & co.) carries concrete primals: only
`float()`/`complex()`/NumPy conversion fail. Host callbacks run on concrete values.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from types import MappingProxyType
from typing import Literal

from jaxlint.analysis.deadness import result_never_read
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import (
    ARGNUMS_GRADS,
    BRANCH_TRANSFORMS,
    FIRST_ARG_GRADS,
    FUNCTION_PASS_THROUGH,
    GRAD_LIKE,
    HOST_CALLBACKS,
    JIT_FACTORIES,
    JIT_LIKE,
    MODULE_BASES,
    PARTIAL,
    PASS_THROUGH_DECORATORS,
    PYTREE_CLASS_DECORATORS,
    REGISTER_NODE,
)
from jaxlint.analysis.syntax import (
    FUNCTION_NODES,
    all_params,
    ancestors,
    is_none_literal,
    keyword,
    literal_ints,
    literal_strs,
    parent,
    positional_params,
)

# decorators that rewrite the Python of the function they compile when given
# `autograph=True` (catalyst's AutoGraph: item assignment, loops and branches)
AUTOGRAPH_DECORATORS = frozenset({"catalyst.qjit", "pennylane.qjit"})
STATIC_ANNOTATIONS = {"bool", "int", "str", "float", "complex", "tuple", "type", "Callable"}


class TracedKind(Enum):
    """How a transform traces a function."""

    JIT = "jit"  # abstract values: host conversions and Python branches on them fail
    GRAD = "grad"  # concrete primals (bare grad & co.): only float()/NumPy conversion fail


TransformKind = Literal["jit", "grad", "host"]  # what a transform name does (`classify`)


@dataclass(frozen=True)
class Applied:
    """Every transform this module applies to one function, joined: the function's own
    transforms decide what is traced (analysis/traced.py builds the traced table on it)."""

    node: ast.AST
    kind: TracedKind
    via: str  # the transform, e.g. "jax.jit"
    traced_params: frozenset[str]
    unknown_static: bool = False  # static args not resolvable: stay silent
    applied: frozenset[str] = frozenset()  # every transform applied to it
    # parameters that every traced application binds to a value that is not None
    # (`partial(f, n=size)` handed to a transform): `if n is None:` never runs under tracing
    not_none: frozenset[str] = frozenset()
    # the parameters a grad-like transform differentiates (`argnums`, equinox's first
    # argument, every primal of `jvp`/`vjp`/`linearize`), joined over its applications;
    # empty where no grad applies or its `argnums` are not literal (analysis/differentiation.py)
    differentiated: frozenset[str] = frozenset()


def function_name(node: ast.AST) -> str:
    return getattr(node, "name", "<lambda>")


def is_method(index: ModuleIndex, fn: ast.AST) -> bool:
    scope = index.scopes.get(fn)
    return bool(scope and scope.class_scope is not None and positional_params(fn)[:1])


def function_args(call: ast.Call, spec: tuple[int | str, ...]) -> list[ast.expr]:
    out = []
    for item in spec:
        if isinstance(item, int):
            if item < len(call.args) and not isinstance(call.args[item], ast.Starred):
                out.append(call.args[item])
        else:
            value = keyword(call, item)
            if value is not None:
                out.append(value)
    return out


@dataclass
class StaticOptions:
    """What a jit-like call's keywords make static (shared with the rules that need it)."""

    positions: set[int] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    unknown: bool = False  # non-literal values or **kwargs: anything could be static
    donates: bool = False
    # what `donate_argnums` / `donate_argnames` name (JAX506 reads them);
    # `donate_unknown`: a non-literal value or `**kwargs`, anything could be donated
    donate_positions: set[int] = field(default_factory=set)
    donate_names: set[str] = field(default_factory=set)
    donate_unknown: bool = False


# keyword -> (how its value is read, the field it fills, the field set when it is unknown)
_OPTION_KEYWORDS = {
    "static_argnums": (literal_ints, "positions", "unknown"),
    "static_broadcasted_argnums": (literal_ints, "positions", "unknown"),
    "static_argnames": (literal_strs, "names", "unknown"),
    "donate_argnums": (literal_ints, "donate_positions", "donate_unknown"),
    "donate_argnames": (literal_strs, "donate_names", "donate_unknown"),
}


def read_static_options(call: ast.Call) -> StaticOptions:
    out = StaticOptions()
    for kw in call.keywords:
        if kw.arg is None:  # `**options`: anything could be static or donated
            out.unknown = out.donates = out.donate_unknown = True
            continue
        row = _OPTION_KEYWORDS.get(kw.arg)
        if row is None:
            continue
        read, into, unknown = row
        out.donates |= into.startswith("donate")
        values = read(kw.value)
        if values is None:
            setattr(out, unknown, True)
        else:
            getattr(out, into).update(values)
    return out


@dataclass
class Application:
    """A transform applied to a function: what it makes static."""

    qualname: str
    kind: TransformKind
    static_names: set[str] = field(default_factory=set)
    static_positions: set[int] = field(default_factory=set)
    unknown_static: bool = False
    in_axes: ast.expr | None = None
    argnums: tuple[int, ...] | None = None  # grad: the differentiated positions (None: 0)
    argnums_unknown: bool = False


class Transforms:
    """Where this module applies transforms: `applied` maps def/lambda nodes to what every
    transform applied to them makes traced, `host` holds the host callbacks. A syntactic fact,
    final once built; which functions end up traced (Module methods, other modules' seeds,
    helpers) is decided in analysis/traced.py."""

    def __init__(self, index: ModuleIndex, jit_decorators: tuple[str, ...] = ()) -> None:
        self.index = index
        self.jit_decorators = set(jit_decorators)
        self._applied: dict[ast.AST, Applied] = {}
        self._host: set[ast.AST] = set()
        # def -> (parameter position, parameter name, the transform it returns)
        self.factories: dict[ast.AST, tuple[int, str, Application]] = self._find_factories()
        self._find()
        self.applied: Mapping[ast.AST, Applied] = MappingProxyType(self._applied)
        self.host: frozenset[ast.AST] = frozenset(self._host)

    # -- classification -----------------------------------------------------------
    def classify(self, qualname: str | None) -> TransformKind | None:
        if qualname is None:
            return None
        if qualname in JIT_LIKE or qualname in self.jit_decorators:
            return "jit"
        if qualname in GRAD_LIKE:
            return "grad"
        if qualname in HOST_CALLBACKS:
            return "host"
        return None

    def fn_spec(self, qualname: str) -> tuple[int | str, ...]:
        return (
            JIT_LIKE.get(qualname)
            or GRAD_LIKE.get(qualname)
            or HOST_CALLBACKS.get(qualname)
            or (0,)
        )

    def application(self, expr: ast.AST, _depth: int = 0) -> Application | None:
        """`jax.jit`, `jax.jit(static_argnames=...)`, `partial(jax.jit, ...)` as a transform.

        Also a name bound once to one of these (`my_jit = partial(jax.jit, static_argnums=0)`).
        """
        q = self.index.qualname(expr)
        kind = self.classify(q)
        if kind:
            return Application(q, kind)  # type: ignore[arg-type]
        factory = self._factory_app(expr)
        if factory is not None:
            return factory[1]
        if isinstance(expr, ast.Name) and _depth < 4:
            b = self.index.binding(expr.id, self.index.scope_of(expr))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                return self.application(b.value, _depth + 1)
        if isinstance(expr, ast.Call):
            fq = self.index.qualname(expr.func)
            if fq in PARTIAL and expr.args:
                inner = self.application(expr.args[0])
                if inner:
                    self._read_static(inner, expr)
                return inner
            kind = self.classify(fq)
            if kind and not self._has_function_arg(expr, fq):  # decorator factory form
                app = Application(fq, kind)  # type: ignore[arg-type]
                self._read_static(app, expr)
                return app
        return None

    def _factory_app(self, expr: ast.AST) -> tuple[tuple[int, str], Application] | None:
        """`expr` names a jit factory of this module: its parameter and a fresh Application."""
        if not self.factories or isinstance(expr, FUNCTION_NODES):
            return None
        fn = self.index.resolve_function(expr)
        found = self.factories.get(fn) if fn is not None else None
        if found is None or fn is None:
            return None
        pos, name, app = found
        if isinstance(expr, ast.Attribute) and is_method(self.index, fn):
            pos -= 1  # `self.jit(f)`: `self` is not among the call's arguments
        copy = Application(
            app.qualname,
            app.kind,
            set(app.static_names),
            set(app.static_positions),
            app.unknown_static,
            app.in_axes,
        )
        return (pos, name), copy

    def _find_factories(self) -> dict[ast.AST, tuple[int, str, Application]]:
        """Functions of this module that return a jit-like transform of one of their own
        parameters (`def apply(fn): return jax.jit(fn)`). The project's own jit wrapper:
        decorating with it or calling it traces the function it is given, like a name in the
        `jit-decorators` setting, but found in the code instead of configured."""
        out: dict[ast.AST, tuple[int, str, Application]] = {}
        candidates = self._returning_jit()
        for fn in self.index.functions:
            if fn not in candidates:
                continue  # no `return jit(...)` below it: the walk below would find nothing
            if isinstance(fn, ast.Lambda) or getattr(fn, "decorator_list", None):
                continue
            params = positional_params(fn)
            scope = self.index.scopes.get(fn)
            for node in _own_returns(fn):
                call = node.value
                if not isinstance(call, ast.Call):
                    continue
                q = self.index.qualname(call.func)
                if self.classify(q) != "jit":
                    continue
                for arg in function_args(call, self.fn_spec(q)):  # type: ignore[arg-type]
                    if not isinstance(arg, ast.Name) or arg.id not in params:
                        continue
                    if scope is not None and len(scope.bindings.get(arg.id, ())) != 1:
                        continue  # rebound in the wrapper: not the function it was given
                    app = Application(q, "jit")  # type: ignore[arg-type]
                    self._read_static(app, call)
                    out[fn] = (params.index(arg.id), arg.id, app)
                    break
                if fn in out:
                    break
        return out

    def _returning_jit(self) -> set[ast.AST]:
        """The functions around each `return <jit-like call>` (all of them, a superset of the
        ones whose `_own_returns` yields it): `_find_factories` walks only these, instead of
        every function of the module (found from the index's list of calls)."""
        out: set[ast.AST] = set()
        for call in self.index.calls:
            ret = parent(call)
            if (
                type(ret) is not ast.Return
                or self.classify(self.index.qualname(call.func)) != "jit"
            ):
                continue
            out.update(a for a in ancestors(ret) if isinstance(a, FUNCTION_NODES))
        return out

    def _has_function_arg(self, call: ast.Call, qualname: str | None) -> bool:
        return bool(qualname and function_args(call, self.fn_spec(qualname)))

    def _read_static(self, app: Application, call: ast.Call) -> None:
        static = read_static_options(call)
        app.static_positions |= static.positions
        app.static_names |= static.names
        app.unknown_static |= static.unknown
        for kw in call.keywords:
            if kw.arg == "in_axes":
                app.in_axes = kw.value
            elif kw.arg == "argnums" and app.qualname in ARGNUMS_GRADS:
                app.argnums = literal_ints(kw.value)
                app.argnums_unknown = app.argnums is None
        direct = self.index.qualname(call.func) == app.qualname  # not `partial(jax.vmap, ...)`
        if direct and app.qualname.endswith("vmap") and app.in_axes is None and len(call.args) > 1:
            app.in_axes = call.args[1]
        if direct and app.qualname in ARGNUMS_GRADS and len(call.args) > 1:
            app.argnums = literal_ints(call.args[1])
            app.argnums_unknown = app.argnums is None

    # -- discovery ---------------------------------------------------------------------
    def _find(self) -> None:
        for fn in self.index.functions:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue  # a lambda: no decorators
            apps = [a for a in (self.application(d) for d in fn.decorator_list) if a]
            if apps:
                self._apply(fn, apps, bound=0, bound_names=set())
        qualname, classify, factories = self.index.qualname, self.classify, self.factories
        for call in self.index.calls:
            q = qualname(call.func)
            kind = classify(q)
            if kind is None:
                if factories:  # else no call is one of a jit factory of this module
                    self._apply_factory(call)
                continue
            if self._applied_by_outer(call):
                continue  # `jit(vmap(grad(f)), ...)` is one chain, walked from the outer call
            if q in JIT_FACTORIES and result_never_read(call, self.index):
                # a jit wrapper nothing calls traces nothing (`lax.fori_loop`, `lax.cond`,
                # `lax.scan` run their bodies at once, whether or not the result is read)
                continue
            app = Application(q, kind)  # type: ignore[arg-type]
            self._read_static(app, call)
            for arg in function_args(call, self.fn_spec(q)):  # type: ignore[arg-type]
                self._apply_to_expr(arg, [app])

    def _applied_by_outer(self, call: ast.Call) -> bool:
        """`call` (a transform) is the function argument of another transform call: the
        function it makes runs only as that transform's argument, so its own application
        is part of the outer chain (`jax.jit(jax.vmap(f, in_axes=(0, None)),
        static_argnums=1)` makes `f`'s second argument static; alone, the vmap would leave
        it concrete too, but a `vmap(grad(f))` alone would not know the jit's statics)."""
        outer = parent(call)
        if not isinstance(outer, ast.Call):
            return False
        q = self.index.qualname(outer.func)
        kind = self.classify(q)
        if kind is None or kind == "host":
            return False
        return any(a is call for a in function_args(outer, self.fn_spec(q)))  # type: ignore[arg-type]

    def _apply_factory(self, call: ast.Call) -> None:
        """`apply(f)` where `apply` is a jit factory of this module: `f` is traced."""
        factory = self._factory_app(call.func)
        if factory is None:
            return
        (pos, name), app = factory
        arg = keyword(call, name)
        if (
            arg is None
            and 0 <= pos < len(call.args)
            and not isinstance(call.args[pos], ast.Starred)
        ):
            if not any(isinstance(a, ast.Starred) for a in call.args[:pos]):
                arg = call.args[pos]
        if arg is not None:
            self._apply_to_expr(arg, [app])

    def _apply_to_expr(self, expr: ast.AST, apps: list[Application]) -> None:
        """Resolve a function-valued expression and record the transforms on it."""
        if isinstance(expr, (ast.List, ast.Tuple)):  # lax.switch branches
            for elt in expr.elts:
                self._apply_to_expr(elt, apps)
            return
        if isinstance(expr, ast.Name) and apps and apps[-1].qualname in BRANCH_TRANSFORMS:
            # `ops = [op_a, op_b]; lax.switch(i, ops, x)`: a name bound once to a display of
            # the branches (v38 momemura `src/optimization/macro_mutations.py:238`, ten
            # mutation operators; JAX407 on a conversion its loop makes at trace time)
            b = self.index.binding(expr.id, self.index.scope_of(expr))
            if b is not None and b.kind == "assign" and isinstance(b.value, (ast.List, ast.Tuple)):
                for elt in b.value.elts:
                    self._apply_to_expr(elt, apps)
                return
        bound, bound_names = 0, set()
        not_none: set[str] = set()
        if isinstance(expr, ast.Call):
            fq = self.index.qualname(expr.func)
            inner_kind = self.classify(fq)
            if inner_kind and inner_kind != "host":
                # jit(grad(f)), jit(vmap(f)): the outer transform decides what is abstract
                inner = Application(fq, inner_kind)  # type: ignore[arg-type]
                self._read_static(inner, expr)
                for arg in function_args(expr, self.fn_spec(fq)):  # type: ignore[arg-type]
                    self._apply_to_expr(arg, [*apps, inner])
                return
            if fq in FUNCTION_PASS_THROUGH:
                # jit(checkify(f)): the wrapper calls `f` with the arguments it is given
                for arg in function_args(expr, FUNCTION_PASS_THROUGH[fq]):
                    self._apply_to_expr(arg, apps)
                return
            if fq in PARTIAL and expr.args:
                bound = len(expr.args) - 1
                bound_names = {kw.arg for kw in expr.keywords if kw.arg}
                not_none = {
                    kw.arg for kw in expr.keywords if kw.arg and not is_none_literal(kw.value)
                }
                fn_node = self.index.resolve_function(expr.args[0])
                if fn_node is not None:
                    names = positional_params(fn_node)
                    not_none |= {n for n, a in zip(names, expr.args[1:]) if not is_none_literal(a)}
                if any(kw.arg is None for kw in expr.keywords) or any(
                    isinstance(a, ast.Starred) for a in expr.args
                ):
                    # partial(f, *a, **kw): which parameters are bound is unknown: stay silent
                    apps = [
                        *apps,
                        Application("functools.partial", apps[-1].kind, unknown_static=True),
                    ]
                expr = expr.args[0]
        fn = self.index.resolve_function(expr)
        if fn is None:
            fn = self._instance_method(expr)
            bound += fn is not None  # `obj.method`: `self` is bound, not an argument
        if fn is not None:
            if (
                isinstance(expr, ast.Attribute)
                and isinstance(expr.value, ast.Name)
                and expr.value.id in ("self", "cls")
                and is_method(self.index, fn)
            ):
                bound += 1  # a bound method: `self` is not an argument of the transform
            self._apply(fn, apps, bound, bound_names, not_none)

    def _instance_method(self, expr: ast.AST) -> ast.AST | None:
        """`jax.jit(wf.__call__)` / `jax.jit(model.step)` where `wf = Waveform(...)` is the
        one binding of `wf` and `Waveform` a plain class of this module defining the method
        (not a static or class method): the method, run with `self` bound."""
        if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
            return None
        b = self.index.binding(expr.value.id, self.index.scope_of(expr.value))
        if b is None or b.kind != "assign" or not isinstance(b.value, ast.Call):
            return None
        func = b.value.func
        if not isinstance(func, ast.Name):
            return None
        cls_b = self.index.binding(func.id, self.index.scope_of(func))
        if cls_b is None or cls_b.kind != "class" or not isinstance(cls_b.node, ast.ClassDef):
            return None
        if not self.is_plain_class(cls_b.node):
            return None
        for stmt in cls_b.node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == expr.attr:
                if stmt.decorator_list:
                    return None  # staticmethod, classmethod, property: not a plain method
                return stmt
        return None

    def _apply(
        self,
        fn: ast.AST,
        apps: list[Application],
        bound: int,
        bound_names: set[str],
        not_none: set[str] | None = None,
    ) -> None:
        kinds = {a.kind for a in apps}
        if "host" in kinds:
            self._host.add(fn)
            self._applied.pop(fn, None)
            return
        if fn in self._host:
            return
        kind = TracedKind.JIT if "jit" in kinds else TracedKind.GRAD
        main = next(a for a in apps if a.kind == kind.value)
        positional = positional_params(fn)
        static: set[str] = set(positional[:bound]) | bound_names
        unknown = False
        # Only when the transforms are bare vmaps do in_axes=None args stay concrete.
        jit_apps = [a for a in apps if a.kind == "jit"]
        for a in apps:
            unknown |= a.unknown_static or self._axes_unknown(a)
            free = positional[bound:]
            for pos in a.static_positions:
                if -len(free) <= pos < len(free):
                    static.add(free[pos])
            static |= a.static_names
        if (
            jit_apps
            and len(jit_apps) == len(apps)
            and all(a.qualname.endswith("vmap") for a in apps)
        ):
            # bare vmaps, nested or not (`vmap(vmap(f, in_axes=(0, None)), in_axes=(0, None))`):
            # an argument that every one of them leaves unmapped reaches `fn` as it was given
            unmapped = [self._vmap_static(a, positional[bound:]) for a in apps]
            static |= set.intersection(*unmapped)
        if main.qualname == "equinox.filter_jit":
            static |= scalar_params(fn)
        traced = set(all_params(fn)) - static
        if kind is TracedKind.GRAD:
            # a bare grad differentiates only `argnums`; the rest stay concrete
            free = positional[bound:]
            for a in apps:
                if a.qualname in ARGNUMS_GRADS and not a.argnums_unknown:
                    nums = a.argnums if a.argnums is not None else (0,)
                    traced &= {free[i] for i in nums if -len(free) <= i < len(free)}
                elif a.qualname in FIRST_ARG_GRADS:
                    traced &= set(free[:1])
        differentiated = _differentiated(apps, positional[bound:]) - static
        if is_method(self.index, fn) and positional:
            traced.discard(positional[0])  # self: JAX409 reports jit on methods
            differentiated.discard(positional[0])
        names = frozenset(a.qualname for a in apps)
        existing = self._applied.get(fn)
        if existing is not None:  # another application of the same function: join them
            upgrade = existing.kind is TracedKind.GRAD and kind is TracedKind.JIT
            self._applied[fn] = replace(
                existing,
                kind=TracedKind.JIT if upgrade else existing.kind,
                via=main.qualname if upgrade else existing.via,
                traced_params=existing.traced_params | traced,
                unknown_static=existing.unknown_static or unknown,
                applied=existing.applied | names,
                not_none=existing.not_none & (not_none or set()),
                differentiated=existing.differentiated | differentiated,
            )
            return
        self._applied[fn] = Applied(
            fn,
            kind,
            main.qualname,
            frozenset(traced),
            unknown_static=unknown,
            applied=names,
            not_none=frozenset(not_none or ()),
            differentiated=frozenset(differentiated),
        )

    def _axes(self, node: ast.AST | None) -> list[object] | None:
        """`literal_axes`, through a name bound once (`axes = (0, 0) + (None,)`)."""
        if isinstance(node, ast.Name):
            found = self.index.lookup(node.id, self.index.scope_of(node)) or []
            if len(found) != 1 or found[0].kind != "assign" or found[0].value is None:
                return None
            node = found[0].value
        return literal_axes(node)

    def _axes_unknown(self, app: Application) -> bool:
        """A vmap whose `in_axes` is neither an int, None nor written out (`in_axes=axes`,
        built in branches): which arguments stay unmapped, and so concrete, is unknown, like
        a jit's unresolvable statics (v38 candidate lorrax `psp/run_sternheimer.py:199`: the
        static `fft_grid` passed with `None` in a `base_axes` built in an `if`/`else`, JAX120,
        tuning material)."""
        node = app.in_axes
        if not app.qualname.endswith("vmap") or node is None or isinstance(node, ast.Constant):
            return False
        return self._axes(node) is None

    def _vmap_static(self, app: Application, positional: list[str]) -> set[str]:
        axes = self._axes(app.in_axes)
        if axes is None:
            return set()
        return {positional[i] for i, a in enumerate(axes) if i < len(positional) and a is None}

    def module_library(self, cls: ast.ClassDef) -> str | None:
        """`flax.linen`, `flax.nnx` or `equinox` when `cls` is a Module of that library
        (directly or through base classes defined in this module)."""
        return module_library(self.index, cls)

    def rewrites_item_assignment(self, node: ast.AST) -> bool:
        """`node` is inside a function whose Python the decorator rewrites (catalyst's
        `@qjit(autograph=True)`: AutoGraph turns `result[i] = x` on a traced array into
        `result = result.at[i].set(x)`, and Python control flow into lax), so an item
        assignment there is no TypeError (catalyst's test_autograph.py)."""
        for anc in ancestors(node):
            if not isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for dec in anc.decorator_list:
                if (
                    isinstance(dec, ast.Call)
                    and self.index.qualname(dec.func) in AUTOGRAPH_DECORATORS
                    and any(
                        kw.arg == "autograph"
                        and isinstance(kw.value, ast.Constant)
                        and kw.value.value is True
                        for kw in dec.keywords
                    )
                ):
                    return True
        return False

    def is_plain_class(self, cls: ast.ClassDef, _depth: int = 0) -> bool:
        """A class that is provably not a Module or other framework object: no bases, or
        only `object`, ABCs, typing helpers and plain classes of this module."""
        for base in cls.bases:
            q = self.index.qualname(base)
            if q in ("object", "abc.ABC", "typing.Generic", "typing.Protocol"):
                continue
            if isinstance(base, ast.Subscript):  # Generic[T]
                q = self.index.qualname(base.value)
                if q in ("typing.Generic", "typing.Protocol"):
                    continue
            if isinstance(base, ast.Name) and _depth < 8:
                b = self.index.binding(base.id, self.index.scope_of(base))
                if b is not None and b.kind == "class" and b.node is not cls:
                    if self.is_plain_class(b.node, _depth + 1):  # type: ignore[arg-type]
                        continue
            return False
        for kw in cls.keywords:
            if kw.arg == "metaclass" and self.index.qualname(kw.value) != "abc.ABCMeta":
                return False
        return not self._registered_pytree(cls)

    def _registered_pytree(self, cls: ast.ClassDef) -> bool:
        """JAX knows `cls` as a pytree: `@register_pytree_node_class` (or a registered
        dataclass or static class), or `register_pytree_node(Cls, ...)` in the module. A
        jitted method then gets `self` flattened and rebuilt, a copy of the trace's own
        (v22 rows: jax_roche vector.py, `self.x *= other` in a jitted `__rmul__` of a
        registered `Vec3`, JAX502 x12)."""
        if any(
            self.index.qualname(d.func if isinstance(d, ast.Call) else d) in PYTREE_CLASS_DECORATORS
            for d in cls.decorator_list
        ):
            return True
        return cls.name in self._registered_by_call

    @cached_property
    def _registered_by_call(self) -> frozenset[str]:
        """The names `register_pytree_node(Cls, ...)` calls of the module register (one walk
        of its calls, however many classes are asked about)."""
        return frozenset(
            call.args[0].id
            for call in self.index.calls
            if self.index.qualname(call.func) in REGISTER_NODE
            and call.args
            and isinstance(call.args[0], ast.Name)
        )

    def outer_wrapper(self, fn: ast.AST, decorator: ast.expr) -> ast.expr | None:
        """A decorator applied after `decorator` (listed above it) that may change the
        arguments: calling the function's name runs it first, so it decides what the inner
        transform sees (a padding or bucketing wrapper fixes the shapes jit compiles for).
        Known pass-throughs (`staticmethod`, `functools.wraps(...)`, JAX transforms) are not."""
        decorators: list[ast.expr] = getattr(fn, "decorator_list", [])
        if decorator not in decorators:
            return None
        for dec in decorators[: decorators.index(decorator)]:
            target = dec.func if isinstance(dec, ast.Call) else dec
            q = self.index.qualname(target)
            if q in PASS_THROUGH_DECORATORS or self.application(dec) is not None:
                continue
            return dec
        return None


def _differentiated(apps: list[Application], free: list[str]) -> set[str]:
    """The parameters (of `free`, those the transforms pass arguments to) that the grad-like
    transforms among `apps` differentiate; none for a grad whose `argnums` are not literal."""
    out: set[str] = set()
    for a in apps:
        if a.kind != "grad":
            continue
        if a.qualname in ARGNUMS_GRADS:
            if a.argnums_unknown:
                continue
            nums = a.argnums if a.argnums is not None else (0,)
            out |= {free[i] for i in nums if -len(free) <= i < len(free)}
        elif a.qualname in FIRST_ARG_GRADS:
            out |= set(free[:1])
        else:  # jvp, vjp, linearize: every primal is differentiated
            out |= set(free)
    return out


def literal_axes(node: ast.AST | None, depth: int = 0) -> list[object] | None:
    """`in_axes` as a list of constants: `(0, None)`, `[0] + [None] * 9` (ott's k_means);
    None when it is not written out."""
    if node is None or depth > 4:
        return None
    if isinstance(node, (ast.Tuple, ast.List)):
        if not all(isinstance(e, ast.Constant) for e in node.elts):
            return [e.value if isinstance(e, ast.Constant) else object() for e in node.elts]
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal_axes(node.left, depth + 1), literal_axes(node.right, depth + 1)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        seq, count = node.left, node.right
        if isinstance(seq, ast.Constant):
            seq, count = count, seq
        items = literal_axes(seq, depth + 1)
        if items is not None and isinstance(count, ast.Constant) and type(count.value) is int:
            return items * max(0, min(count.value, 64))
    return None


def _own_returns(fn: ast.AST) -> Iterator[ast.Return]:
    """The `return <value>` statements of `fn` itself (not of functions nested in it)."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Return) and cur.value is not None:
            yield cur
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, (*FUNCTION_NODES, ast.ClassDef)):
                stack.append(child)


def required_params(fn: ast.AST) -> list[str]:
    """Parameters without a default value (and `*args`): the inputs a caller must give."""
    args = fn.args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    required = [a.arg for a in positional[: len(positional) - len(args.defaults)]]
    required += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    if args.vararg is not None:
        required.append(args.vararg.arg)
    return required


def scalar_params(fn: ast.AST) -> set[str]:
    """Parameters that are Python scalars by annotation or default (static under filter_jit)."""
    args = fn.args  # type: ignore[attr-defined]
    out: set[str] = set()
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    for arg, default in pairs:
        ann = arg.annotation
        ann_name = None
        if isinstance(ann, ast.Name):
            ann_name = ann.id
        elif isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            ann_name = ann.value
        elif isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name):
            ann_name = ann.value.id
        if ann_name in STATIC_ANNOTATIONS or ann_name in ("Literal", "Optional[bool]"):
            out.add(arg.arg)
        elif isinstance(default, ast.Constant) and default.value is not None:
            out.add(arg.arg)
    return out


def is_function(node: ast.AST) -> bool:
    return isinstance(node, FUNCTION_NODES)


def module_library(index: ModuleIndex, cls: ast.ClassDef, _depth: int = 0) -> str | None:
    """`flax.linen`, `flax.nnx` or `equinox` when `cls` is a Module of that library (directly
    or through base classes defined in this module): a syntactic fact, so the project
    summary asks it without building the module's transforms."""
    for base in cls.bases:
        q = index.qualname(base)
        if q in MODULE_BASES:
            return MODULE_BASES[q]
        if isinstance(base, ast.Name) and _depth < 8:
            b = index.binding(base.id, index.scope_of(base))
            if b is not None and b.kind == "class" and b.node is not cls:
                lib = module_library(index, b.node, _depth + 1)  # type: ignore[arg-type]
                if lib:
                    return lib
    return None
