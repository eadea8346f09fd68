"""Which key consumptions are proven to draw: a mixin of `KeyFlow` (flow/keys.py).

A consumption of a key that is not a `jax.random` draw of the module itself (a helper, a
method, a constructor, a library initialiser) is only inferred to draw: the helper may use
the key under one branch only, a flax `init` may take every parameter from a checkpoint
(`lambda *_: w`) or make only LayerNorm scales (ones). JAX201 reports such a reuse at medium
confidence, unless the consumption is *proven to draw* (`proven_draw`):

- a user function, method or constructor (`__init__`) whose key parameter reaches, on every
  path of its body (not under a branch, a loop, a conditional expression, after an early
  `return`, nor rebound first), a `jax.random` draw whose result is used (`deadness`), or a
  call that is itself proven to draw (`drawing_params`, a fixed point bounded like the
  consuming parameters'); across modules through the summary's `key_draws`;
- a method that splits a key kept on `self` on every path and uses a half (`drawing_attrs`);
- a library call of key_draw_facts.py: an equinox layer built with `key=`; a flax `init` of
  a Module class of this module whose `__call__` (or `setup`) creates, on every path, a
  parameter with a random initialiser (a flax layer with its default or a random
  initialiser, `self.param(name, init)` with a random `init`, or a submodule of this module
  that does), or an `init` of a flax library layer itself (`nn.Dense(4)`: made by a
  constructor in place, a name bound once to one, or the loop variable over a list of them)
  with its default or a random initialiser; a flax `apply(..., rngs={"dropout": k})` into such a class whose `__call__`
  always runs an `nn.Dropout` that the call's arguments make non-deterministic.

Unknown stays unproven (medium).
"""

from __future__ import annotations

import ast
from functools import cached_property

from jaxlint.analysis import syntax
from jaxlint.analysis.calls import CallGraph, CallKind
from jaxlint.analysis.deadness import value_is_dead
from jaxlint.analysis.flow.graph import DefKind, FlowGraphs, flow_graphs
from jaxlint.analysis.flow.key_drawfree import DrawFree
from jaxlint.analysis.flow.key_terms import NON_CONSUMING, key_name, random_function, walk_function
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.key_draw_facts import (
    EQUINOX_DRAWING_CONSTRUCTORS,
    EQUINOX_GIVEN_WEIGHTS,
    EVOSAX_KEYLESS_INITS,
    FLAX_DROPOUT,
    FLAX_RANDOM_LAYERS,
    RANDOM_INITIALIZERS,
)

_MAX_DEPTH = 3  # module classes inside module classes followed for a flax `init`
_INITS = frozenset({"init", "init_with_output"})


def unconditional(graphs: FlowGraphs, node: ast.AST, fn: ast.AST) -> bool:
    """`node` (a call) is evaluated whenever `fn` runs to its end: the flow graph of `fn` runs
    its first load on every path from the entry to a `return` or the end of the body (not
    under a branch, a loop, a handler, a conditional part of an expression, a nested function,
    nor after an early `return`), and `fn` is not a generator or a coroutine (whose body may
    never run)."""
    if _is_generator(fn):
        return False
    use = _first_load(node)
    if use is None or graphs.owner(use) is not fn:
        return False
    return graphs.graph(fn).always_evaluated(use)


def _first_load(node: ast.AST) -> ast.Name | None:
    """The load evaluated first when `node` is: the root name of a call's callee (`jax` in
    `jax.random.normal(k)`, `nn` in `nn.Dense(4)(x)`), else of its first argument."""
    parts: list[ast.AST] = [node]
    if isinstance(node, ast.Call):
        parts = [node.func, *node.args, *(kw.value for kw in node.keywords)]
    for cur in parts:
        while True:
            if isinstance(cur, ast.Name):
                return cur if isinstance(cur.ctx, ast.Load) else None
            if isinstance(cur, (ast.Attribute, ast.Subscript, ast.Starred)):
                cur = cur.value
            elif isinstance(cur, ast.Call):
                cur = cur.func
            else:
                break
    return None


def _is_generator(fn: ast.AST) -> bool:
    """`fn` is a generator or a coroutine (kept on the node, like the parent links)."""
    found: bool | None = getattr(fn, "jl_generator", None)
    if found is None:
        found = any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in walk_function(fn))
        fn.jl_generator = found  # type: ignore[attr-defined]
    return found


def _rebound_before(graphs: FlowGraphs, fn: ast.AST, name: str, node: ast.AST) -> bool:
    """Parameter `name` may hold another value where `node` reads it: some load of `name` in
    `node` is reached (use-def map of `fn`'s flow graph) by a definition other than the
    parameter itself, or the name is not tracked there (unknown counts as rebound). The
    targets of the statement holding `node` are bound after it (`key, sub = split(key)`
    draws from the parameter)."""
    graph = graphs.graph(fn)
    loads = [
        n
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    if not loads:
        return True
    for use in loads:
        if graphs.owner(use) is not fn:
            continue  # read inside a nested scope of the call (a lambda): not this draw's key
        defs = graph.reaching(use)
        if not defs or any(d.kind is not DefKind.PARAM for d in defs):
            return True
    return False


def _params(fn: ast.AST) -> list[str]:
    args = fn.args  # type: ignore[attr-defined]
    return [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]


class KeyDraws:
    """The proven-draw facts of `KeyFlow`: `drawing_params`, `drawing_attrs`, `proven_draw`."""

    # set by KeyFlow.__init__ (or provided by it)
    index: ModuleIndex
    calls: CallGraph
    consuming_params: dict[ast.AST, set[str]]
    consuming_attrs: dict[ast.AST, set[str]]
    imported_draws: dict[str, frozenset[str]]
    imported_drawfree: frozenset[str]
    imported_linen: frozenset[str]
    drawing_params: dict[ast.AST, set[str]]
    drawing_attrs: dict[ast.AST, set[str]]
    _flax_cache: dict[int, bool]

    def resolve_callee(self, call: ast.Call) -> ast.AST | None:  # KeyFlow's
        raise NotImplementedError

    def _direct_consumption(self, call: ast.Call) -> str | None:  # KeyFlow's
        raise NotImplementedError

    def _imported_helper(self, func: ast.AST) -> str | None:  # KeyFlow's
        raise NotImplementedError

    def _callee_arguments(self, call: ast.Call, target: ast.AST) -> list[tuple[str, ast.AST]]:
        raise NotImplementedError

    def _imported_arguments(self, call: ast.Call, local: str) -> list[tuple[str, ast.AST]]:
        raise NotImplementedError

    @property
    def flow(self) -> FlowGraphs:
        """The module's flow graphs (program order is asked of them only)."""
        return flow_graphs(self.index)

    # -- the fixed point over this module's functions ---------------------------------------
    def _summarize_draws(self) -> None:
        """`drawing_params`: the key parameters each function draws from on every path;
        `drawing_attrs`: the `self.<attr>` keys a method splits and uses on every path."""
        graphs = self.flow
        bodies = []
        for fn, params in self.consuming_params.items():
            calls = [n for n in walk_function(fn) if isinstance(n, ast.Call)]
            bodies.append((fn, params, calls))
        for _ in range(4):
            changed = False
            for fn, params, calls in bodies:
                known = self.drawing_params.get(fn, set())
                for call in calls:
                    for name in params - known:
                        if (
                            self._draws_in(call, name, fn)
                            and unconditional(graphs, call, fn)
                            and not _rebound_before(graphs, fn, name, call)
                        ):
                            known = known | {name}
                            changed = True
                if known:
                    self.drawing_params[fn] = known
            if not changed:
                break
        for fn, attrs in self.consuming_attrs.items():
            for attr in attrs:
                if self._method_draws_attr(fn, attr):
                    self.drawing_attrs.setdefault(fn, set()).add(attr)

    def _draws_in(self, call: ast.Call, name: str, fn: ast.AST) -> bool:
        """Inside a callee: `call` draws from parameter `name` and its result is used."""
        if self._direct_consumption(call) == name:
            return not value_is_dead(call, self.index)
        return self._draws_through(call, name)

    def _method_draws_attr(self, fn: ast.AST, attr: str) -> bool:
        """`rng, sub = split(self.<attr>)` on every path of the method, a half of it read."""
        for node in walk_function(fn):
            if (
                isinstance(node, ast.Call)
                and random_function(self.index, node) == "split"
                and key_name(node.args[0] if node.args else None) == f"self.{attr}"
                and not value_is_dead(node, self.index)
                and unconditional(self.flow, node, fn)
            ):
                return True
        return False

    # -- at a call site ----------------------------------------------------------------------
    def proven_draw(self, call: ast.Call, name: str) -> bool:
        """`call` (a consumption of the key `name`) is proven to draw from it: a `jax.random`
        draw of this module, or one of the proofs of the module docstring."""
        if self._direct_consumption(call) == name:
            return True
        return self._draws_through(call, name)

    def _draws_through(self, call: ast.Call, name: str) -> bool:
        if self._library_draws(call, name):
            return True
        target = self.resolve_callee(call)
        if target is not None:
            drawn = self.drawing_params.get(target, set())
            if drawn and any(
                p in drawn and key_name(arg) == name
                for p, arg in self._callee_arguments(call, target)
            ):
                # a function's draws reach the caller through its result only: a dropped
                # result is no draw in use (a method or constructor keeps them on the object)
                t = self.calls.target(call)
                kind = t.kind if t is not None else None
                return kind is CallKind.METHOD or not value_is_dead(call, self.index)
            attrs = self.drawing_attrs.get(target, set())
            func = call.func
            if (
                attrs
                and isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and name in {f"{func.value.id}.{a}" for a in attrs}
            ):
                return True
            return False
        if self.imported_draws:
            local = self._imported_helper(call.func)
            given = self.imported_draws.get(local, frozenset()) if local else frozenset()
            if given and any(
                p in given and key_name(arg) == name
                for p, arg in self._imported_arguments(call, local)  # type: ignore[arg-type]
            ):
                return not value_is_dead(call, self.index)
        return False

    # -- modules that draw nothing (flow/key_drawfree.py) --------------------------------------
    @cached_property
    def _drawfree(self) -> DrawFree:
        return DrawFree(self.calls, self.imported_drawfree)

    def init_draws_nothing(self, call: ast.Call) -> bool:
        """`m.init(key, x)` where `m` is proven to be a flax Module that creates no random
        parameter and asks for no stream (a class of this module or of another project
        module, or a flax norm layer with its constant initialisers): `init` never reads
        `key`, so handing it the key consumes nothing. Likewise `es.init(key, ...)` of an
        evosax strategy whose state never reads its key (`EVOSAX_KEYLESS_INITS`)."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in _INITS:
            return False
        if any(kw.arg in ("method", None) for kw in call.keywords):
            return False
        cls = self._module_instance_class(func.value)
        if cls is not None:
            return self._drawfree.class_draws_nothing(cls)
        made = self._library_layers(func.value)
        if made and func.attr == "init" and all(self._keyless_strategy(m) for m in made):
            return True
        return bool(made) and all(self._drawfree.constructor_draws_nothing(m) for m in made)

    def _keyless_strategy(self, made: ast.Call) -> bool:
        """`made` builds an evosax strategy whose `init` never reads its key."""
        q = self.index.qualname(made.func) or ""
        return q.startswith("evosax.") and q.rsplit(".", 1)[-1] in EVOSAX_KEYLESS_INITS

    # -- library facts (key_draw_facts.py) ---------------------------------------------------
    def folds_module_paths(self, call: ast.Call) -> bool:
        """`call` is a flax.linen `init` / `init_with_output` / `apply` of a proven linen
        Module (a class of this module deriving from `nn.Module`, or a linen library layer):
        flax never draws from the key it is given, only from keys it derives by folding in
        each module's path and a counter (`LazyRng`). So a `jax.random` sampler or `split`
        called on the same key gives numbers independent of the parameters and masks (v15
        rows, tuning material: jaxpp examples/basic.py:238/241, `uniform(rng, shape)` then
        `model.init(rng, ...)`; checked with flax 0.12: correlation of data and kernel ~0).
        Two such calls on one key fold in the same paths: same-shaped layers get the same
        weights, which stays a reuse."""
        func = _module_method(call)
        if func is None:
            return False
        cls = self._module_instance_class(func.value)
        if cls is not None:
            return self.calls.transforms.module_library(cls) == "flax.linen"
        if _linen_signature(call, func):
            return True
        layers = self._library_layers(func.value)
        return bool(layers) and all(
            (self.index.qualname(m.func) or "").startswith("flax.linen.")
            or self._imported_linen_class(m.func)
            for m in layers
        )

    def _imported_linen_class(self, func: ast.AST) -> bool:
        """`func` names a flax.linen Module class of another project module, by the name this
        module imports it with and still binds to that import (`ModuleSummary.linen_modules`,
        v22 rows: jax_nbody_emulator's tests)."""
        if not isinstance(func, ast.Name) or func.id not in self.imported_linen:
            return False
        b = self.index.binding(func.id, self.index.scope_of(func))
        return b is not None and b.kind == "import"

    def _library_draws(self, call: ast.Call, name: str) -> bool:
        q = self.index.qualname(call.func)
        if q in EQUINOX_DRAWING_CONSTRUCTORS:
            if len(call.args) > EQUINOX_DRAWING_CONSTRUCTORS[q] or any(
                kw.arg in EQUINOX_GIVEN_WEIGHTS or kw.arg is None for kw in call.keywords
            ):
                return False
            return any(kw.arg == "key" and key_name(kw.value) == name for kw in call.keywords)
        func = _module_method(call)
        if func is None:
            return False
        cls = self._module_instance_class(func.value)
        if cls is None and func.attr in _INITS:
            layers = self._library_layers(func.value)
            if not layers or not all(self._random_layer(made) for made in layers):
                return False
            return key_name(self._params_key(call)) == name
        if cls is None or self.calls.transforms.module_library(cls) != "flax.linen":
            return False
        if func.attr in _INITS:
            key = call.args[0] if call.args else None
            if isinstance(key, ast.Dict):
                key = next(
                    (
                        v
                        for k, v in zip(key.keys, key.values)
                        if isinstance(k, ast.Constant) and k.value == "params"
                    ),
                    None,
                )
            return key_name(key) == name and self._flax_draws(cls, 0)
        rngs = next((kw.value for kw in call.keywords if kw.arg == "rngs"), None)
        if not isinstance(rngs, ast.Dict):
            return False
        dropout = next(
            (
                v
                for k, v in zip(rngs.keys, rngs.values)
                if isinstance(k, ast.Constant) and k.value == "dropout"
            ),
            None,
        )
        return key_name(dropout) == name and self._active_dropout(cls, call)

    @staticmethod
    def _params_key(call: ast.Call) -> ast.AST | None:
        """The key an `init` call makes parameters from: its first argument, or the
        `"params"` entry of a dict of keys."""
        key = call.args[0] if call.args else None
        if isinstance(key, ast.Dict):
            key = next(
                (
                    v
                    for k, v in zip(key.keys, key.values)
                    if isinstance(k, ast.Constant) and k.value == "params"
                ),
                None,
            )
        return key

    def _library_layers(self, expr: ast.AST) -> list[ast.Call]:
        """The constructor calls a flax library layer instance `expr` may come from (issue 24,
        `init` of `nn.Dense` itself): `nn.Dense(4).init(...)`, a name bound once to a
        constructor call, or the loop variable of a `for` or comprehension over a name bound
        once to a list/tuple of constructor calls or a comprehension of one. Empty when any
        source is unknown (then `_random_layer` proves nothing)."""
        if isinstance(expr, ast.Call):
            return [expr]
        if not isinstance(expr, ast.Name):
            return []
        source = self._iterated_source(expr)
        if source is not None:
            return self._elements(source)
        value = self._single_assignment(expr)
        return [value] if isinstance(value, ast.Call) else []

    def _single_assignment(self, name: ast.Name) -> ast.AST | None:
        """The value of `name = value`, the only binding of `name` where it is read."""
        found = self.index.lookup(name.id, self.index.scope_of(name))
        if not found or len(found) != 1 or found[0].kind != "assign":
            return None
        return found[0].value

    def _iterated_source(self, name: ast.Name) -> ast.AST | None:
        """The iterable of the comprehension or `for` whose plain target is `name`."""
        for node in syntax.ancestors(name):
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                for gen in node.generators:
                    if isinstance(gen.target, ast.Name) and gen.target.id == name.id:
                        return gen.iter
            elif isinstance(node, ast.For):
                if not (isinstance(node.target, ast.Name) and node.target.id == name.id):
                    return None
                rebound = any(
                    isinstance(n, ast.Name) and n.id == name.id and isinstance(n.ctx, ast.Store)
                    for stmt in node.body
                    for n in ast.walk(stmt)
                )
                return None if rebound else node.iter
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return None
        return None

    def _elements(self, source: ast.AST) -> list[ast.Call]:
        """Every element of a list/tuple display (or comprehension) of constructor calls,
        directly or through a name bound once to one; empty when one is not a call."""
        if isinstance(source, ast.Name):
            source = self._single_assignment(source)  # type: ignore[assignment]
        if isinstance(source, (ast.List, ast.Tuple)):
            elts = source.elts
            if elts and all(isinstance(e, ast.Call) for e in elts):
                return list(elts)  # type: ignore[arg-type]
            return []
        if isinstance(source, ast.ListComp) and isinstance(source.elt, ast.Call):
            return [source.elt]
        return []

    def _module_instance_class(self, expr: ast.AST) -> ast.ClassDef | None:
        """The call graph's `instance_class`, and a name bound once by unpacking a display of
        constructors (`actor, critic = MLP(4), MLP(1)`)."""
        cls = self.calls.instance_class(expr)
        if cls is not None or not isinstance(expr, ast.Name):
            return cls
        found = self.index.lookup(expr.id, self.index.scope_of(expr))
        if not found or len(found) != 1 or not isinstance(found[0].node, ast.Assign):
            return None
        stmt = found[0].node
        if len(stmt.targets) != 1 or not isinstance(stmt.value, (ast.Tuple, ast.List)):
            return None
        target = stmt.targets[0]
        if not isinstance(target, (ast.Tuple, ast.List)) or len(target.elts) != len(
            stmt.value.elts
        ):
            return None
        for t, v in zip(target.elts, stmt.value.elts):
            if isinstance(t, ast.Name) and t.id == expr.id and isinstance(v, ast.Call):
                return self.calls.instance_class(v)
        return None

    def _flax_draws(self, cls: ast.ClassDef, depth: int) -> bool:
        """A flax.linen Module class of this module whose `init` creates a random parameter
        on every path (see the module docstring)."""
        if id(cls) in self._flax_cache:
            return self._flax_cache[id(cls)]
        self._flax_cache[id(cls)] = False  # cycles: unproven
        out = depth <= _MAX_DEPTH and self._find_flax_draw(cls, depth)
        self._flax_cache[id(cls)] = out
        return out

    def _find_flax_draw(self, cls: ast.ClassDef, depth: int) -> bool:
        methods = {
            s.name: s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        call_fn = methods.get("__call__")
        if call_fn is None:
            return False
        setup = methods.get("setup")
        if setup is not None:
            for node in walk_function(setup):
                if (
                    isinstance(node, ast.Call)
                    and self._random_param(node)
                    and unconditional(self.flow, node, setup)
                ):
                    return True  # flax runs `setup` before any method of a bound module
        for node in walk_function(call_fn):
            if not isinstance(node, ast.Call):
                continue
            if self._random_param(node):
                if unconditional(self.flow, node, call_fn):
                    return True
                continue
            made = self._layer_made(node.func, cls, call_fn)
            if made is None or not unconditional(self.flow, node, call_fn):
                continue
            if self._random_layer(made):
                return True
            sub = self.calls.instance_class(made)
            if (
                sub is not None
                and sub is not cls
                and self.calls.transforms.module_library(sub) == "flax.linen"
                and self._flax_draws(sub, depth + 1)
            ):
                return True
        return False

    def _layer_made(self, func: ast.AST, cls: ast.ClassDef, fn: ast.AST) -> ast.Call | None:
        """The constructor call of the layer instance `func` calls: `nn.Dense(4)` in
        `nn.Dense(4)(x)`, in `dense(x)` after `dense = nn.Dense(4)`, in `self.dense(x)` after
        `self.dense = nn.Dense(4)` (once, in `setup`)."""
        if isinstance(func, ast.Call):
            return func
        if isinstance(func, ast.Name):
            b = self.index.binding(func.id, self.index.scope_of(func))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                return b.value
            return None
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            values = self.calls.self_assignments(cls).get(func.attr, [])
            if len(values) == 1 and isinstance(values[0], ast.Call):
                return values[0]
        return None

    def _random_layer(self, made: ast.Call) -> bool:
        q = self.index.qualname(made.func)
        if q not in FLAX_RANDOM_LAYERS:
            return False
        keyword, positional = FLAX_RANDOM_LAYERS[q]
        if len(made.args) > positional or any(kw.arg is None for kw in made.keywords):
            return False
        init = next((kw.value for kw in made.keywords if kw.arg == keyword), None)
        return init is None or self._random_initializer(init)

    def _random_param(self, call: ast.Call) -> bool:
        """`self.param(name, init, ...)` with a random `init`."""
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "param"
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            return False
        init = call.args[1] if len(call.args) > 1 else None
        init = init or next(
            (kw.value for kw in call.keywords if kw.arg in ("init_fn", "init")), None
        )
        return init is not None and self._random_initializer(init)

    def _random_initializer(self, init: ast.AST) -> bool:
        """`nn.initializers.normal(0.02)`, `jax.nn.initializers.lecun_normal()`,
        `jax.random.normal` itself, or a function (or lambda) of this module that draws from
        its first parameter."""
        if isinstance(init, ast.Call):
            return self.index.qualname(init.func) in RANDOM_INITIALIZERS
        q = self.index.qualname(init)
        if q and q.startswith("jax.random.") and q.rsplit(".", 1)[1] not in NON_CONSUMING:
            return True
        fn = init if isinstance(init, ast.Lambda) else self.index.resolve_function(init)
        if fn is None:
            return False
        params = _params(fn)
        return bool(params) and params[0] in self.drawing_params.get(fn, set())

    def _active_dropout(self, cls: ast.ClassDef, apply: ast.Call) -> bool:
        """`__call__` runs, on every path, an `nn.Dropout` with a constant rate in (0, 1)
        whose `deterministic` the `apply` call's constant keywords make False."""
        call_fn = next(
            (
                s
                for s in cls.body
                if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__call__"
            ),
            None,
        )
        if call_fn is None:
            return False
        given = {
            kw.arg: kw.value.value
            for kw in apply.keywords
            if kw.arg and isinstance(kw.value, ast.Constant)
        }
        params = set(_params(call_fn))
        for node in walk_function(call_fn):
            if not isinstance(node, ast.Call):
                continue
            made = self._layer_made(node.func, cls, call_fn)
            if made is None or self.index.qualname(made.func) != FLAX_DROPOUT:
                continue
            if not unconditional(self.flow, node, call_fn):
                continue
            rate = made.args[0] if made.args else None
            rate = rate or next((kw.value for kw in made.keywords if kw.arg == "rate"), None)
            if not (
                isinstance(rate, ast.Constant)
                and isinstance(rate.value, (int, float))
                and 0 < rate.value < 1
            ):
                continue
            if any(kw.arg in ("rng_collection", None) for kw in made.keywords):
                continue
            flag = next((kw.value for kw in node.keywords if kw.arg == "deterministic"), None)
            flag = flag or next(
                (kw.value for kw in made.keywords if kw.arg == "deterministic"), None
            )
            if flag is not None and _false_under(flag, params, given):
                return True
        return False


def _false_under(flag: ast.AST, params: set[str], given: dict) -> bool:
    """`flag` is False given the constant keyword arguments `given` of the `apply` call:
    `False`, `not train` with `train=True`, `eval_mode` with `eval_mode=False`."""
    if isinstance(flag, ast.Constant):
        return flag.value is False
    if isinstance(flag, ast.UnaryOp) and isinstance(flag.op, ast.Not):
        inner = flag.operand
        return isinstance(inner, ast.Name) and inner.id in params and given.get(inner.id) is True
    return isinstance(flag, ast.Name) and flag.id in params and given.get(flag.id) is False


def _linen_signature(call: ast.Call, func: ast.Attribute) -> bool:
    """The call's own arguments are flax.linen's, whatever the object is (`model =
    build_model()`): `apply(..., rngs={"dropout": k})` or `apply(..., mutable=[...])` (named
    streams and mutable collections are linen's `apply` keywords; haiku's `apply` takes one
    key positionally, equinox and nnx have none), or `init({"params": k1, "dropout": k2},
    x)` (haiku's `init` takes one key). v23 rows, tuning material: SELFEMO
    wound_classification_jax nets/Hybrid.py:376-392, `x = normal(k, ...)` then
    `model.apply(..., rngs={"dropout": k})` of a factory-built model, JAX201 x3."""
    if func.attr == "apply":
        return any(
            (kw.arg == "rngs" and isinstance(kw.value, ast.Dict)) or kw.arg == "mutable"
            for kw in call.keywords
        )
    return bool(call.args) and isinstance(call.args[0], ast.Dict)


def _module_method(call: ast.Call) -> ast.Attribute | None:
    """`call`'s function when it is a module's `init` / `init_with_output` / `apply` run on
    the module's own `__call__` (no `method=`, no `**kwargs` that may hold one)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in (*_INITS, "apply"):
        return None
    if any(kw.arg in ("method", None) for kw in call.keywords):
        return None
    return func
