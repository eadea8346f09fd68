"""Which functions JAX traces, how, and which of their parameters are traced: the one table.

Computed once per module by a fixed pipeline; this module is the only writer of the table,
and what it hands out is frozen (`TracedFunction`):

1. transform applications: `analysis/transforms.py` (`Transforms.applied`), where this
   module applies `jit`, `grad`, `vmap`, ... and what each makes static -- a syntactic fact;
2. flax/equinox Module methods (`__call__`, `@nn.compact`): traced when the Module is
   applied, with medium confidence (`_module_methods`);
3. the project's seeds: top-level functions that other modules call with traced arguments
   (`analysis/project.py`'s `Seed`s), medium confidence (`_seed`);
   -> `TracedFunctions.entries`, no flow analysis needed;
4. the entries' parameters narrowed by what their kinds prove (`analysis/kinds.py`) and by
   what their own bodies use as sizes (`_refine`);
5. helpers: a function a traced function calls with traced arguments is traced too (medium
   confidence, the chain of callers in its messages). Found with the taint analysis to a fixed
   point (`_solve`): `flow/taint.py` evaluates one function body at a time and calls `reach`
   at each call; it reads this table and never writes it.
   -> `TracedFunctions.table` (also `get`, `compiled`, `traced_callee`).

Why helpers need the flow analysis: whether a call passes a traced value is a taint level,
and a helper's return level feeds its callers, so steps 5 and the levels are one fixed point.
The levels stay the taint analysis' own output (`ModuleFacts.taint`, the same run).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from jaxlint.analysis import syntax
from jaxlint.analysis.calls import LOCAL_DEFS, CallGraph, CallKind
from jaxlint.analysis.differentiation import custom_vjp_function
from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import (
    COMPILING,
    EAGER_TRANSFORMS,
    GRAD_LIKE,
    JAX_ARRAY_MODULES,
    JIT_LIKE,
    SHAPE_FIRST,
    SHAPE_KEYWORDS,
    SHAPE_SECOND,
    STAGING,
)
from jaxlint.analysis.kinds import ParamKinds, ValueKind
from jaxlint.analysis.param_constants import not_none_argument
from jaxlint.analysis.project_seed import narrow_literals
from jaxlint.analysis.seed_keys import UNAPPLIED_MODULES
from jaxlint.analysis.syntax import all_params, parent, positional_params
from jaxlint.analysis.transforms import (
    TracedKind,
    Transforms,
    function_name,
    required_params,
    scalar_params,
)
from jaxlint.core.diagnostic import Confidence

__all__ = ["BodyAnalysis", "Confidence", "TracedFunction", "TracedFunctions", "TracedKind"]

MODULE_CALL = "Module.__call__"  # the end of `via` for a Module method (not a transform)
_PYTHON = (ValueKind.STATIC, ValueKind.CALLABLE)
# a call of a helper: (the function that runs, its positional argument nodes, its keyword
# argument nodes, whether the first parameter is a bound `self`)
HelperCall = tuple[ast.AST, list[ast.expr], dict[str, ast.expr], bool]
# the call targets whose def sees a traced caller's arguments (not a class's `__init__`)
_HELPER_KINDS = frozenset(
    {
        CallKind.FUNCTION,
        CallKind.METHOD,
        CallKind.MODULE_CALL,
        CallKind.TRANSFORMED,
        CallKind.PARTIAL,
        CallKind.MAPPED,
    }
)
_MODULE_CALL = frozenset({CallKind.MODULE_CALL})


class BodyAnalysis(Protocol):
    """What the pipeline needs of the flow analysis that walks function bodies (the taint
    analysis, `flow/taint.py`; wired in `ModuleFacts`)."""

    @property
    def current_function(self) -> ast.AST | None: ...

    @property
    def kinds(self) -> ParamKinds: ...

    def level(self, node: ast.AST) -> Level: ...

    def is_bool_mask(self, node: ast.AST, _depth: int = 0) -> bool: ...

    def closes_over_traced(self, fn: ast.AST) -> bool: ...

    def analyze(self, fn: ast.AST) -> tuple[set[ast.AST], bool]:
        """Walk `fn`: the traced functions whose closure grew, whether its return grew."""
        ...


BodyT = TypeVar("BodyT", bound=BodyAnalysis)


@dataclass(frozen=True)
class TracedFunction:
    """A traced function: how it is traced and which of its parameters hold tracers."""

    node: ast.AST
    kind: TracedKind
    via: str  # the transform, e.g. "jax.jit" (the caller's, for a helper)
    traced_params: frozenset[str]
    confidence: Confidence = "high"  # medium: a Module method, a seed, or a helper
    chain: tuple[str, ...] = ()  # the callers it is traced through (a helper or a seed)
    unknown_static: bool = False  # static args not resolvable: stay silent
    applied: frozenset[str] = frozenset()  # every transform applied to it
    # parameters that every traced application binds to a value that is not None
    # (`partial(f, n=size)` handed to a transform): `if n is None:` never runs under tracing
    not_none: frozenset[str] = frozenset()
    # a method that every traced call runs on an object the calling traced function built
    # itself and never lets go of (`block = Block(...); y = block(x)` in a scan body): what
    # it stores on `self` dies with the trace (`_fresh_receiver`)
    fresh_self: bool = False
    # parameters every traced application binds to one literal, as another module's calls
    # show it (`Seed.bound_literals`: `backend="jax"` left at its default); the module's own
    # applications are `param_constants.constant_params`
    bound_literals: tuple[tuple[str, object], ...] = ()
    # the taint level each parameter starts at (NONE left out): what the transform and the
    # parameter kinds give an entry, what traced callers pass a helper
    # (a factory: mappingproxy is unhashable before Python 3.12, and 3.11's dataclasses refuse
    # an unhashable default)
    levels: Mapping[str, Level] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def name(self) -> str:
        return function_name(self.node)

    @property
    def static_params(self) -> frozenset[str]:
        """The parameters that are not traced (static, or Python values by evidence)."""
        return frozenset(all_params(self.node)) - self.traced_params

    @property
    def is_jit(self) -> bool:
        return self.kind is TracedKind.JIT and not self.unknown_static

    @property
    def is_grad(self) -> bool:
        return self.kind is TracedKind.GRAD and not self.unknown_static

    def describe(self) -> str:
        if self.chain:
            return f"traced via {' -> '.join(n + '()' for n in self.chain)}"
        return f"`{self.name}` is transformed by `{self.via}`"


@dataclass
class _Draft:
    """A table row while the pipeline runs (private: only this module edits it)."""

    node: ast.AST
    kind: TracedKind
    via: str
    traced_params: set[str]
    confidence: Confidence = "high"
    chain: tuple[str, ...] = ()
    unknown_static: bool = False
    applied: set[str] = field(default_factory=set)
    not_none: set[str] = field(default_factory=set)
    fresh_self: bool = False
    bound_literals: dict[str, object] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return function_name(self.node)

    def freeze(self, levels: Mapping[str, Level]) -> TracedFunction:
        return TracedFunction(
            self.node,
            self.kind,
            self.via,
            frozenset(self.traced_params),
            self.confidence,
            self.chain,
            self.unknown_static,
            frozenset(self.applied),
            frozenset(self.not_none),
            self.fresh_self,
            tuple(sorted(self.bound_literals.items(), key=repr)),
            MappingProxyType(dict(levels)),
        )


def _frozen(
    drafts: Mapping[ast.AST, _Draft], levels: Mapping[ast.AST, Mapping[str, Level]]
) -> Mapping[ast.AST, TracedFunction]:
    return MappingProxyType({fn: d.freeze(levels.get(fn, {})) for fn, d in drafts.items()})


class TracedFunctions(Generic[BodyT]):
    """The traced-function table of one module (see the module docstring for the pipeline)."""

    def __init__(
        self,
        index: ModuleIndex,
        transforms: Transforms,
        seeds: Mapping[str, Any] | None,
        taint: Callable[[TracedFunctions[BodyT]], BodyT],
        calls: CallGraph | None = None,
    ) -> None:
        self.index = index
        self.transforms = transforms
        # what each call runs (analysis/calls.py; `ModuleFacts.calls`, shared with the rules)
        self.calls = calls if calls is not None else CallGraph(index, transforms)
        self._seeds = seeds
        self._make_taint = taint
        self._drafts: dict[ast.AST, _Draft] = {}
        self._changed: set[ast.AST] = set()
        self._callers: dict[ast.AST, set[ast.AST]] = {}
        # parameters and the levels that reach them from traced callers (the entries': what
        # their kinds prove), read by the taint analysis as each function's start state
        self._levels: dict[ast.AST, dict[str, Level]] = {}
        # helper parameters that every traced call site passes a boolean mask to
        self.mask_params: dict[ast.AST, dict[str, bool]] = {}

    # -- the results ---------------------------------------------------------------------
    @cached_property
    def entries(self) -> Mapping[ast.AST, TracedFunction]:
        """Steps 1-3: the functions traced by a transform, as Module methods, or by other
        modules' calls, before any flow analysis (cheap: no taint)."""
        for fn, app in self.transforms.applied.items():
            self._drafts[fn] = _Draft(
                fn,
                app.kind,
                app.via,
                set(app.traced_params),
                unknown_static=app.unknown_static,
                applied=set(app.applied),
                not_none=set(app.not_none),
            )
        for cls in self.index.classes:
            self._module_methods(cls)
        if self._seeds:
            self._seed(self._seeds)
        return _frozen(self._drafts, self._levels)

    @cached_property
    def table(self) -> Mapping[ast.AST, TracedFunction]:
        """The final table: steps 4-5 done (the taint analysis has run to its fixed point)."""
        return self._solved[0]

    @property
    def taint(self) -> BodyT:
        """The taint analysis of the same fixed point (the levels of every expression)."""
        return self._solved[1]

    def get(self, fn: ast.AST | None) -> TracedFunction | None:
        return self.table.get(fn) if fn is not None else None

    def decorated(self, fn: ast.AST, kinds: tuple[str, ...] = ("jit", "grad")) -> bool:
        """`fn` carries a transform decorator of one of `kinds` (`@jax.jit`, `@partial(jax.jit,
        ...)`, a name bound to one): every call of it runs it transformed
        (`Transforms.application`)."""
        return any(
            (app := self.transforms.application(d)) is not None and app.kind in kinds
            for d in getattr(fn, "decorator_list", ())
        )

    def staged(self, fn: ast.AST) -> bool:
        """Its operations are staged into one program (jit, a lax control-flow body, ...:
        `jax_api.STAGING`), itself, through its callers or an enclosing function, as the
        pipeline stands: a jax.numpy call on Python values gives a tracer there."""
        return self._under(fn, self._drafts, STAGING)

    def compiled(self, fn: ast.AST) -> bool:
        """Traced under a caching transform (`jit`, `pmap`, `filter_jit`, `nnx.jit`), itself
        or through an enclosing function or the caller chain: globals it reads are baked in."""
        return self._under(fn, self.table, COMPILING)

    def _under(self, fn: ast.AST, rows: Mapping[ast.AST, Any], transforms: frozenset[str]) -> bool:
        """`fn` or a function around it has a row (of `rows`) traced as JIT through one of
        `transforms` (its own transform, or its caller's for a helper)."""
        cur: ast.AST | None = fn
        while cur is not None:
            row = rows.get(cur)
            if (
                row is not None
                and row.kind is TracedKind.JIT
                and (row.via in transforms or row.applied & transforms)
            ):
                return True
            cur = self.index.enclosing_function(cur)
        return False

    def runs_op_by_op(self, fn: TracedFunction) -> bool:
        """`vmap(f)(x)` and nothing compiles `f` (no jit, pmap or lax control flow around it,
        no traced caller): JAX runs it one operation at a time, so a Python loop in it runs
        step by step instead of being unrolled into one program (neural-tangents' cookbook
        `vmap(train_network)`; jax_api.EAGER_TRANSFORMS)."""
        if fn.chain or self.compiled(fn.node):
            return False
        applied = fn.applied | {fn.via}
        return bool(applied) and applied <= EAGER_TRANSFORMS

    def enters_compiled(self, call: ast.Call) -> bool:
        """`call` runs its function through a caching transform: `_loss_fn(x)` with
        `_loss_fn = jit(loss_fn)`, or a call of a def decorated with one. A plain call of
        `loss_fn` runs it eagerly: the globals it reads are read afresh (qdpy-numpyro's
        `print(loss_fn(true_params))` before the data are rebound)."""
        t = self.calls.target(call)
        if t is None or t.function is None:
            return False
        if t.kind is CallKind.TRANSFORMED:
            return t.transform in COMPILING
        return any(
            (app := self.transforms.application(d)) is not None and app.qualname in COMPILING
            for d in getattr(t.function, "decorator_list", [])
        )

    def outlives_trace(self, name: ast.Name, fn: ast.AST | None) -> str | None:
        """ "module" or "function" when `name`, used in the traced function `fn`, resolves to
        an enclosing scope's binding that outlives `fn`'s trace; None for a local one. A list
        (or a `nonlocal` variable) owned by an enclosing traced function and updated by a
        helper it calls directly lives in the same trace: that is ordinary Python, not a leak
        (only a separately traced body, such as a `scan` or `cond` body, leaks into it)."""
        scope = self.index.scopes.get(fn) if fn is not None else None
        if scope is None or (name.id in scope.bindings and name.id not in scope.globals):
            return None
        s = scope.parent
        if name.id in scope.globals and name.id not in scope.nonlocals:
            s = self.index.scopes[self.index.tree]
        while s is not None:
            if s.kind != "class" and name.id in s.bindings:
                if s.parent is None:
                    return "module"
                owner, current = self.get(s.node), self.get(fn)
                if owner is not None and owner.is_jit and current is not None and current.chain:
                    return None  # same trace: a helper called (not transformed) in the owner
                return "function"
            s = s.parent
        return None

    def traced_callee(self, call: ast.Call) -> ast.AST | None:
        """The traced function a call runs: `f(...)` for a traced def `f`, or `g(...)` where
        `g = jax.jit(f)` (or another transform of `f`)."""
        t = self.calls.target(call)
        fn: ast.AST | None = None
        if t is not None and t.kind in LOCAL_DEFS:
            fn = t.function
        elif t is not None and t.kind is CallKind.TRANSFORMED and t.through_name:
            if t.transform is None or self.transforms.classify(t.transform) == "jit":
                fn = t.function  # `g = jax.jit(f)`, or `g = apply(f)` with a jit factory
        return fn if fn is not None and fn in self.table else None

    # -- steps 2 and 3 ---------------------------------------------------------------------
    def _module_methods(self, cls: ast.ClassDef) -> None:
        """`__call__` / `@nn.compact` methods of flax and equinox Modules: traced when applied."""
        lib = self.transforms.module_library(cls)
        if lib is None:
            return
        unapplied = (self._seeds or {}).get(UNAPPLIED_MODULES)
        if unapplied is not None and (cls.name in unapplied.names or "*" in unapplied.names):
            return  # nothing in the project applies it under a transform (applied_modules.py)
        for stmt in cls.body:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if stmt in self._drafts:
                continue
            compact = any(
                (self.index.qualname(d) or "").endswith(".compact") for d in stmt.decorator_list
            )
            if stmt.name != "__call__" and not compact:
                continue
            if self._runs_own_compiled_step(cls, stmt):
                continue
            params = positional_params(stmt)
            # A Module's `__call__` is not itself a transform: it is traced only when the
            # module is applied under one, with what the caller passes. Its required inputs
            # are the arrays; keyword arguments with a default (`train=False`, `seqhw=None`,
            # `**kwargs`) carry Python configuration (a jitted `apply` must mark them static
            # for `seqhw or self.seqhw` to work at all), so they need evidence to be traced.
            traced = set(required_params(stmt)) - set(params[:1]) - scalar_params(stmt)
            self._drafts[stmt] = _Draft(
                stmt, TracedKind.JIT, f"{lib}.{MODULE_CALL}", traced, confidence="medium"
            )

    def _runs_own_compiled_step(self, cls: ast.ClassDef, method: ast.AST) -> bool:
        """`method` uses `self.<m>` (calls it, aliases it, vmaps it) where `m` is a method of
        `cls` that this module compiles itself (`@eqx.filter_jit def _train_step`): the
        Module is a trainer whose `__call__` is the host loop around its own compiled step,
        not a model applied under jit (v20 rows, tuning material: feedbax TaskTrainer.__call__ with tqdm, checkpoints
        and `.item()` on each step's losses, JAX101 x4 and JAX110). A model calling a jitted
        helper of its own is rare and would still be traced through the helper."""
        compiled = {
            stmt.name
            for stmt in cls.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (app := self.transforms.applied.get(stmt)) is not None
            and app.kind is TracedKind.JIT
        }
        if not compiled:
            return False
        return any(
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr in compiled
            for node in syntax.walk(method)
        )

    def _seed(self, seeds: Mapping[str, Any]) -> None:
        """Top-level functions that other modules call with traced arguments (the project
        index's `Seed`s): traced at those parameters, with medium confidence, unless a
        transform of this module already decides what is static."""
        defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        for stmt in self.index.tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs[stmt.name] = stmt  # the last definition wins, as at run time
        for name, seed in seeds.items():
            fn = defs.get(name)
            if fn is None or fn in self._drafts or fn in self.transforms.host:
                continue
            if seed.kind == TracedKind.GRAD.value and custom_vjp_function(self.index, fn):
                continue  # bare grad (from another module) runs no custom_vjp body on tracers
            args = fn.args
            positional = positional_params(fn)
            names = set(all_params(fn))
            traced: set[str] = set()
            for pos in seed.positions:
                if pos < len(positional):
                    traced.add(positional[pos])
                elif args.vararg is not None:
                    traced.add(args.vararg.arg)
            for kw in seed.keywords:
                if kw in names and kw not in {a.arg for a in args.posonlyargs}:
                    traced.add(kw)
                elif args.kwarg is not None:
                    traced.add(args.kwarg.arg)
            if traced:
                self._drafts[fn] = _Draft(
                    fn,
                    TracedKind(seed.kind),
                    seed.via,
                    traced,
                    confidence="medium",
                    chain=tuple(seed.chain),
                    bound_literals=seed.bound_literals(fn),
                )

    # -- steps 4 and 5 ---------------------------------------------------------------------
    @cached_property
    def _solved(self) -> tuple[Mapping[ast.AST, TracedFunction], BodyT]:
        entries = list(self.entries)  # steps 1-3 leave their rows in the drafts
        taint = self._make_taint(self)
        self._refine(entries, taint)
        self._solve(entries, taint)
        return _frozen(self._drafts, self._levels), taint

    def _refine(self, entries: list[ast.AST], taint: BodyT) -> None:
        """Step 4: each entry's traced parameters, narrowed by the evidence, and the levels the
        taint analysis starts them at."""
        submodules = self._submodule_calls()
        for fn in entries:
            facts = self._drafts[fn]
            module_call = facts.via.endswith(MODULE_CALL) and not facts.chain
            if fn in submodules:
                # applied by another Module of this file: what it gets is known there, so
                # its inputs are traced only as far as the callers' arguments are
                facts.traced_params = set()
            elif module_call:
                # not a transform: what is traced is assumed; code that needs a parameter
                # concrete (`np.arange(qlen)`, `x.shape != out_shape`) says it is Python
                facts.traced_params -= self._concrete_params(fn, facts.traced_params)
                facts.traced_params = taint.kinds.module_inputs(fn, facts.traced_params)
            # the kinds the evidence proves (analysis/kinds.py decides; the transform's
            # non-static parameters are its input)
            direct = not facts.chain and facts.confidence == "high" and not module_call
            levels = taint.kinds.entry_levels(fn, facts.traced_params, direct=direct)
            facts.traced_params = {p for p, lv in levels.items() if lv >= Level.TREE}
            self._levels[fn] = {p: lv for p, lv in levels.items() if lv > Level.NONE}

    def _solve(self, entries: list[ast.AST], taint: BodyT) -> None:
        """Step 5: analyse the traced functions until no helper's inputs or return grow."""
        queue = list(entries)
        budget = 30 * (len(queue) + 5)
        queued = set(queue)
        while queue and budget > 0:
            budget -= 1
            fn = queue.pop(0)
            queued.discard(fn)
            self._changed = set()
            closures, returns_grew = taint.analyze(fn)
            changed = self._changed | closures
            if returns_grew:
                changed |= self._callers.get(fn, set())
            # in source order, not the set's (id-based) order: which caller reaches a helper
            # first names the chain in its messages, and that must not vary between runs
            for other in sorted(changed, key=lambda n: (n.lineno, n.col_offset)):  # type: ignore[attr-defined]
                if other not in queued:
                    queue.append(other)
                    queued.add(other)

    # -- what the taint analysis reads while it runs -----------------------------------------
    def current(self, fn: ast.AST | None) -> _Draft | None:
        """The row of `fn` as the pipeline stands (during the fixed point)."""
        return self._drafts.get(fn) if fn is not None else None

    def is_traced_now(self, fn: ast.AST | None) -> bool:
        return fn in self._drafts

    def levels_now(self, fn: ast.AST) -> Mapping[str, Level]:
        """The levels `fn`'s parameters start at, as the pipeline stands."""
        return self._levels.get(fn, {})

    # -- helpers: the propagation ------------------------------------------------------------
    def reach(self, taint: BodyT, node: ast.Call, q: str | None) -> None:
        """A call in the function the taint analysis walks: hand the levels of its arguments to
        the helper it calls, and make the helper traced if it was not."""
        current = taint.current_function
        caller = self._drafts.get(current) if current is not None else None
        if caller is None or current is None:
            return
        found = self._helper_call(node, q, current)
        if found is None:
            return
        target, arg_nodes, kw_nodes, strip_self = found
        if caller.kind is TracedKind.GRAD and custom_vjp_function(self.index, target):
            return  # bare grad runs its rules on concrete primals, never its body on tracers
        created = target not in self._drafts
        passed = self._narrow_not_none(node, target, arg_nodes, kw_nodes, strip_self, caller)
        self._narrow_literals(node, target, strip_self)
        levels = [taint.level(a) for a in arg_nodes]
        given = (*levels, *(taint.level(v) for v in kw_nodes.values()))
        # values of unknown kind (FIELD) alone make no helper traced (unknown stays silent);
        # they reach the parameters of one that is
        if not any(lv >= Level.TREE or lv == Level.CONTAINER for lv in given) and not (
            Level.FIELD in given and self.is_traced_now(target)
        ):
            # a nested function of this traced function runs on its tracers when called
            if not (
                self.index.enclosing_function(target) is current
                and taint.closes_over_traced(target)
            ):
                return
        params = positional_params(target, bound=strip_self)  # `self` takes no argument
        incoming: dict[str, Level] = {}
        for name, a, lv in zip(params, arg_nodes, levels):
            if isinstance(a, ast.Starred):
                break
            incoming[name] = lv
        for name, v in kw_nodes.items():
            incoming[name] = taint.level(v)
        for name, lv in list(incoming.items()):
            if lv == Level.CONTAINER:  # a list/dict of tracers is a pytree of tracers there
                incoming[name] = Level.TREE
            if lv > Level.NONE and taint.kinds.helper_param(target, name) in _PYTHON:
                del incoming[name]  # declared a Python value (`n: int`, `mode: str | None`)
        masks = self.mask_params.setdefault(target, {})
        for name, a in [*zip(params, arg_nodes), *kw_nodes.items()]:
            if isinstance(a, ast.Starred):
                break
            masks[name] = masks.get(name, True) and taint.is_bool_mask(a)
        fresh = strip_self and self._fresh_receiver(node, target, current)
        self._summarize(caller, current, target, incoming, fresh)
        if created and target in self._drafts:  # its first traced application: what it binds
            self._drafts[target].not_none = passed

    def _fresh_receiver(self, node: ast.Call, target: ast.AST, current: ast.AST) -> bool:
        """The method `target` runs here on a local of `current` that `current` built from
        the method's own class (`block = Block(...)`, its only binding) and only calls or
        reads attributes of: never passed on, returned, stored, or seen by a nested function.
        Such an object ends with the trace, so `self.x = tracer` in the method leaks nothing
        (v29 NuX, tuning material: ResBlock objects made and dropped inside one scan body,
        JAX502 x5)."""
        func = node.func
        recv = func.value if isinstance(func, ast.Attribute) else func
        cls = parent(target)
        if not isinstance(recv, ast.Name) or not isinstance(cls, ast.ClassDef):
            return False
        index = self.index
        b = index.binding(recv.id, index.scope_of(recv))
        if b is None or b.kind != "assign" or index.scope_of(recv) is not index.scopes.get(current):
            return False
        made = b.value
        if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name)):
            return False
        maker = index.binding(made.func.id, index.scope_of(made))
        if maker is None or maker.node is not cls:
            return False
        for use in index.names.get(recv.id, ()):
            if index.enclosing_function(use) is not current:
                if index.binding(use.id, index.scope_of(use)) is b:
                    return False  # a nested function sees it
                continue
            if isinstance(use.ctx, ast.Store):
                continue  # its one binding
            up = parent(use)
            if not (
                (isinstance(up, ast.Attribute) and up.value is use)
                or (isinstance(up, ast.Call) and up.func is use)
            ):
                return False
        return True

    def _helper_call(self, node: ast.Call, q: str | None, current: ast.AST) -> HelperCall | None:
        """The helper a call runs, with the arguments it gets: `helper(x)`, `jax.grad(loss)(p)`,
        `jax.tree.map(f, tree)`, `g(p)` with `g = jax.grad(loss)`, or a submodule applied
        (what the call runs is the call graph's, analysis/calls.py)."""
        t = self.calls.target(node)
        if t is None or t.kind not in _HELPER_KINDS:
            return None
        if t.kind is CallKind.TRANSFORMED:
            allowed = GRAD_LIKE if t.through_name else (*GRAD_LIKE, *JIT_LIKE)
            if t.transform not in allowed:
                return None
        target = t.function
        if target is None or target in self.transforms.host or target is current:
            return None
        return target, list(t.args), t.keyword_map, t.bound_self

    def _narrow_not_none(
        self,
        node: ast.Call,
        target: ast.AST,
        arg_nodes: list[ast.expr],
        kw_nodes: dict[str, ast.expr],
        strip_self: bool,
        caller: _Draft,
    ) -> set[str]:
        """Parameters every traced application binds to a value: traced here too, only what
        this call passes (not None: `not_none_argument`) stays bound. Returns what it passes."""
        if any(isinstance(a, ast.Starred) for a in arg_nodes) or any(
            kw.arg is None for kw in node.keywords
        ):
            passed: set[str] = set()
        else:
            names = positional_params(target, bound=strip_self)
            pairs = [*zip(names, arg_nodes), *kw_nodes.items()]
            passed = {
                n
                for n, a in pairs
                if not_none_argument(self.index, a, caller.node, caller.not_none)
            }
        bound_facts = self._drafts.get(target)
        if bound_facts is not None and bound_facts.not_none and not bound_facts.not_none <= passed:
            bound_facts.not_none &= passed
            self._changed.add(target)
        return passed

    def _narrow_literals(self, node: ast.Call, target: ast.AST, strip_self: bool) -> None:
        """Only the seeded literals this in-module traced application binds alike stay."""
        facts = self._drafts.get(target)
        if facts is not None and facts.bound_literals:
            kept = narrow_literals(self.index, facts.bound_literals, node, target, strip_self)
            if kept != facts.bound_literals:
                facts.bound_literals = kept
                self._changed.add(target)

    def _summarize(
        self,
        caller: _Draft,
        current: ast.AST,
        target: ast.AST,
        incoming: dict[str, Level],
        fresh: bool = False,
    ) -> None:
        """Record what reaches `target` from this call: its traced parameters, its row (a new
        helper gets the caller's transform and the chain), and this caller to re-analyse
        when `target`'s return level grows."""
        existing = self._drafts.get(target)
        known = self._levels.setdefault(target, {})
        if existing is not None and existing.chain == () and existing.confidence == "high":
            if caller.kind is TracedKind.JIT and existing.kind is TracedKind.GRAD:
                # `jax.grad(loss)(...)` inside a jitted step: the primals are abstract too,
                # the non-differentiated arguments included
                existing.kind = TracedKind.JIT
                existing.chain = (*(caller.chain or (caller.name,)), function_name(target))
                existing.via = caller.via
                existing.unknown_static |= caller.unknown_static  # v40 tmdsimpy JAX110
                self._changed.add(target)
            if existing.kind is TracedKind.JIT and existing.chain:
                for name, lv in incoming.items():
                    if lv >= Level.TREE and lv > known.get(name, Level.NONE):
                        known[name] = lv
                        existing.traced_params.add(name)
                        self._changed.add(target)
                self._callers.setdefault(target, set()).add(current)
            return  # otherwise a transform of its own decides what is static
        grew = False
        for name, lv in incoming.items():
            if lv >= Level.FIELD and lv > known.get(name, Level.NONE):
                known[name] = lv  # FIELD too: a jax.numpy result of it is traced there
                grew = True
        self._callers.setdefault(target, set()).add(current)
        if existing is None:
            chain = caller.chain or (caller.name,)
            self._drafts[target] = _Draft(
                target,
                caller.kind,
                caller.via,
                {n for n, lv in known.items() if lv >= Level.TREE},
                confidence="medium",
                chain=(*chain, function_name(target)),
                unknown_static=caller.unknown_static,
                fresh_self=fresh,
            )
            grew = True
        else:
            existing.fresh_self = existing.fresh_self and fresh
            if caller.kind is TracedKind.JIT and existing.kind is TracedKind.GRAD:
                existing.kind = TracedKind.JIT
                existing.unknown_static |= caller.unknown_static
                grew = True
            existing.traced_params |= {n for n, lv in known.items() if lv >= Level.TREE}
        if grew:
            self._changed.add(target)

    # -- Module calls ----------------------------------------------------------------------
    def _submodule_calls(self) -> set[ast.AST]:
        """`__call__`s of Modules that another Module method of this file applies."""
        out: set[ast.AST] = set()
        if not any(f.via.endswith(MODULE_CALL) for f in self._drafts.values()):
            return out  # no Module methods here: nothing to look for
        for call in self.index.calls:
            if isinstance(call.func, ast.Attribute) and call.func.attr in ("apply", "init"):
                continue
            target = self.calls.function(call, _MODULE_CALL)
            if target is None:
                continue
            caller = self.current(self.index.enclosing_function(call))
            if caller is not None and caller.via.endswith(MODULE_CALL):
                out.add(target)
        return out

    def _concrete_params(self, fn: ast.AST, names: set[str]) -> set[str]:
        """Parameters `fn`'s own body uses as a size: `range(n)`, a shape or size parameter of a
        jax or NumPy function (`np.arange(qlen)`), a slice bound, or compared with a `.shape`."""
        out: set[str] = set()
        for node in syntax.walk(fn):
            if not (isinstance(node, ast.Name) and node.id in names and node.id not in out):
                continue
            if self.index.enclosing_function(node) is not fn:
                continue
            use: ast.AST = node
            parent = syntax.parent(node)
            if isinstance(parent, ast.Subscript) and parent.value is node:
                use, parent = parent, syntax.parent(parent)  # out_shape[-1]
            if isinstance(parent, ast.Slice):
                out.add(node.id)
            elif (
                isinstance(parent, ast.BinOp)
                and isinstance(parent.op, ast.Add)
                and any(o is not use and _is_shape_tuple(o) for o in (parent.left, parent.right))
            ):
                out.add(node.id)  # `batch_shape + param.shape`: a tuple concatenation
            elif isinstance(parent, ast.Compare):
                others = [parent.left, *parent.comparators]
                if any(o is not use and _is_shape_read(o) for o in others):
                    out.add(node.id)
            elif isinstance(parent, (ast.Call, ast.keyword)):
                call = parent if isinstance(parent, ast.Call) else syntax.parent(parent)
                if not isinstance(call, ast.Call) or call.func is use:
                    continue
                q = self.index.qualname(call.func) or ""
                short = q.rsplit(".", 1)[-1]
                pos = next((i for i, a in enumerate(call.args) if a is use), -1)
                # a size or shape (a conversion like `np.tanh(x)` is the bug, not evidence)
                array_fn = q.startswith((*JAX_ARRAY_MODULES, "numpy."))
                if isinstance(parent, ast.keyword):
                    shape_use = array_fn and parent.arg in SHAPE_KEYWORDS
                else:
                    shape_use = array_fn and (
                        (short in SHAPE_FIRST and pos == 0) or (short in SHAPE_SECOND and pos == 1)
                    )
                if shape_use or q == "range":
                    out.add(node.id)
        return out


def _is_shape_read(node: ast.AST) -> bool:
    """`x.shape`, `x.shape[-1]`, `x.ndim`, `len(x)`."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr in ("shape", "ndim", "size")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _is_shape_tuple(node: ast.AST) -> bool:
    """`x.shape` or a tuple display: what `+` concatenates only to a tuple."""
    return isinstance(node, ast.Tuple) or (isinstance(node, ast.Attribute) and node.attr == "shape")
