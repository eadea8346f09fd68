"""Facts computed once per module and shared by every rule (never redone in a rule)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from jaxlint.analysis.calls import CallGraph, CallKind, CallTarget
from jaxlint.analysis.flow.taint import Level, TaintAnalysis
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.pytrees import PytreeFields
from jaxlint.analysis.traced import TracedFunction, TracedFunctions, TracedKind
from jaxlint.analysis.transforms import Transforms

if TYPE_CHECKING:
    from jaxlint.analysis.constants import ModuleConstants
    from jaxlint.analysis.differentiation import Differentiation
    from jaxlint.analysis.flow.graph import FlowGraphs
    from jaxlint.analysis.flow.keys import KeyFlow
    from jaxlint.analysis.guards import VersionGuards
    from jaxlint.analysis.jit_sites import JitSites
    from jaxlint.analysis.loops import LoopFacts
    from jaxlint.analysis.module_flags import ModuleFlags
    from jaxlint.analysis.values import ValueKinds

__all__ = [
    "CallGraph",
    "CallKind",
    "CallTarget",
    "Level",
    "ModuleFacts",
    "ModuleIndex",
    "PytreeFields",
    "TaintAnalysis",
    "TracedFunction",
    "TracedFunctions",
    "TracedKind",
    "Transforms",
]


class ModuleFacts:
    """Lazily computed: a rule set that needs no taint pays for no taint analysis."""

    def __init__(
        self,
        tree: ast.Module,
        jit_decorators: tuple[str, ...] = (),
        seeds: Mapping[str, Any] | None = None,
    ) -> None:
        self.tree = tree
        self.jit_decorators = jit_decorators
        # project.Seed per top-level function: traced arguments from other modules
        self.seeds = seeds
        self._x64: bool | None = None
        self._x64_called: bool | None = None
        self._callers: dict[frozenset[str], frozenset[ast.AST]] = {}
        # some rule asks the key flow for `reuses` or `collisions` (`Rule.key_reuses`); False:
        # its walk covers only the top-level defs that may return a consumed key
        # (`KeyFlow(reuses=False)`; those two are then walked for on the first question)
        self.key_reuses = True

    @cached_property
    def index(self) -> ModuleIndex:
        return ModuleIndex(self.tree)

    @cached_property
    def flow(self) -> FlowGraphs:
        """Program order (analysis/flow/graph.py): a control-flow graph and use-def map per
        scope, each built on the first question about that scope."""
        from jaxlint.analysis.flow.graph import flow_graphs

        return flow_graphs(self.index)

    @cached_property
    def transforms(self) -> Transforms:
        """Where this module applies transforms (syntax only)."""
        return Transforms(self.index, self.jit_decorators)

    @cached_property
    def calls(self) -> CallGraph:
        """What every call of the module runs (analysis/calls.py): the one call graph."""
        return CallGraph(self.index, self.transforms)

    @cached_property
    def traced(self) -> TracedFunctions[TaintAnalysis]:
        """Which functions are traced, how, with which parameters: the one table
        (analysis/traced.py; `entries` needs no flow analysis, `table` runs the taint)."""
        return TracedFunctions(self.index, self.transforms, self.seeds, self._taint_for, self.calls)

    def _taint_for(self, traced: TracedFunctions[TaintAnalysis]) -> TaintAnalysis:
        from jaxlint.analysis.seed_keys import PASSED_ARGUMENTS, STATIC_HELPERS

        seeds = self.seeds or {}
        helpers, passed = seeds.get(STATIC_HELPERS), seeds.get(PASSED_ARGUMENTS)
        static = frozenset(helpers.names) if helpers is not None else frozenset()
        return TaintAnalysis(
            self.index,
            traced,
            lambda: self.pytrees,
            static,
            passed.as_map() if passed is not None else None,
        )

    def field_reads(self) -> frozenset[str]:
        """The attribute names the taint analysis, if it ran, read on traced values without
        knowing their kind (`Level.FIELD`); empty when no rule asked for it (then no finding
        of this lint rests on it, and another module's `LeafAttributes` changes none)."""
        traced = self.__dict__.get("traced")
        if traced is None or "_solved" not in traced.__dict__:
            return frozenset()
        return frozenset(traced.taint.field_reads)

    @property
    def taint(self) -> TaintAnalysis:
        """Traced levels of every expression: the same fixed point as `traced.table`."""
        return self.traced.taint

    @cached_property
    def differentiation(self) -> Differentiation:
        """Which functions run under a grad-like transform and which of their values carry a
        derivative (analysis/differentiation.py; syntax and the call graph, no taint)."""
        from jaxlint.analysis.differentiation import Differentiation

        return Differentiation(self.index, self.transforms, self.calls)

    @cached_property
    def jit_sites(self) -> JitSites:
        from jaxlint.analysis.jit_sites import JitSites

        return JitSites(self)

    @cached_property
    def loops(self) -> LoopFacts:
        """Which functions run once per step of a Python loop, and why."""
        from jaxlint.analysis.loops import LoopFacts

        return LoopFacts(self)

    @cached_property
    def pytrees(self) -> PytreeFields:
        """Static fields and leaves of the module's classes, and the names that the modules it
        imports declare static or as leaves (the project index's `StaticAttributes`)."""
        from jaxlint.analysis.seed_keys import IMPORTED_LEAVES, IMPORTED_STATIC

        imported = (self.seeds or {}).get(IMPORTED_STATIC)
        leaves = (self.seeds or {}).get(IMPORTED_LEAVES)
        return PytreeFields(
            self.index,
            frozenset(imported.names) if imported is not None else frozenset(),
            frozenset(leaves.names) if leaves is not None else frozenset(),
        )

    @cached_property
    def constants(self) -> ModuleConstants:
        """Static values of names: this module's constants and those of the project modules
        it imports (the project index's `ImportedConstants`)."""
        from jaxlint.analysis.constants import IMPORTED_CONSTANTS, ModuleConstants

        imported = (self.seeds or {}).get(IMPORTED_CONSTANTS)
        return ModuleConstants(self.index, imported.as_map() if imported is not None else {})

    @cached_property
    def values(self) -> ValueKinds:
        from jaxlint.analysis.values import ValueKinds

        return ValueKinds(self.index, lambda node: self.taint.is_traced(node))

    @cached_property
    def keys(self) -> KeyFlow:
        from jaxlint.analysis.flow.keys import KEY_HELPERS, KeyFlow
        from jaxlint.analysis.seed_keys import KEY_PROPERTIES, RETURN_USES

        helpers = (self.seeds or {}).get(KEY_HELPERS)
        uses = (self.seeds or {}).get(RETURN_USES)
        return_uses = uses.as_map() if uses is not None else None
        found = (self.seeds or {}).get(KEY_PROPERTIES)
        properties = frozenset(found.names) if found is not None else frozenset()
        if helpers is None:
            return KeyFlow(
                self.index,
                None,
                self.calls,
                return_uses=return_uses,
                key_properties=properties,
                reuses=self.key_reuses,
            )
        return KeyFlow(
            self.index,
            helpers.as_map(),
            self.calls,
            helpers.products_map(),
            helpers.draws_map(),
            frozenset(helpers.drawfree),
            return_uses,
            frozenset(helpers.linen),
            properties,
            self.key_reuses,
        )

    @cached_property
    def construction_only(self) -> frozenset[str]:
        """The public methods (`Class.method`) of this module's classes that only the class's
        own construction calls, as the project index found (`ConstructionOnly`): helpers of
        `__init__` like its private ones (analysis/instance_state.py); empty without an index."""
        from jaxlint.analysis.seed_keys import CONSTRUCTION_ONLY

        entry = (self.seeds or {}).get(CONSTRUCTION_ONLY)
        return frozenset(entry.names) if entry is not None else frozenset()

    @cached_property
    def guards(self) -> VersionGuards:
        from jaxlint.analysis.guards import VersionGuards

        return VersionGuards(self.index)

    def x64_may_be_on(self, path: str) -> bool:
        """64-bit mode may be on where this module runs (analysis/x64.py): the module turns
        it on, or its project -- conftest, package `__init__`, CI/tox/pytest configuration --
        does. `path` is this module's file; the answer is kept with the facts."""
        if self._x64 is None:
            from jaxlint.analysis.x64 import module_enables_x64, project_enables_x64

            self._x64 = module_enables_x64(self.index) or project_enables_x64(path)
        return self._x64

    def x64_on_when_called(self, path: str) -> bool:
        """64-bit mode may be on when this module's functions run: a program of the project
        turns it on inside a function before it calls into the modules it imports
        (analysis/x64.py `program_enables_x64`); module-level code runs before that."""
        if self._x64_called is None:
            from jaxlint.analysis.x64 import program_enables_x64

            self._x64_called = program_enables_x64(path)
        return self._x64_called

    def in_old_jax_branch(self, node: ast.AST) -> bool:
        """Whether `node` runs only on an older JAX (a version-compatibility fallback)."""
        return self.guards.in_old_jax_branch(node)

    @cached_property
    def module_flags(self) -> ModuleFlags:
        from jaxlint.analysis.module_flags import ModuleFlags

        return ModuleFlags(self.index)

    def never_runs(self, node: ast.AST) -> bool:
        """Whether `node` never runs: an `if` on a constant module switch (`DEBUG = False`)
        keeps it from running (analysis/module_flags.py), or no path of the flow graph
        reaches it (after an `exit()`, a `return`, a `raise`)."""
        return self.module_flags.never_runs(node) or self.flow.unreachable(node)

    def qualname(self, node: ast.AST) -> str | None:
        return self.index.qualname(node)

    @cached_property
    def reads_clock(self) -> bool:
        """Whether the module calls a clock or `timeit` (`time.perf_counter()`,
        `timeit.default_timer()`, `timeit.timeit(...)`): timed code exists only then, so the
        timing analyses skip the other modules (the word `time` in a docstring lets a file
        through the text prefilter)."""
        from jaxlint.analysis.jax_api import CLOCKS, TIMEIT

        wanted = CLOCKS | TIMEIT
        # an attribute chain's qualified name ends with its attribute: most calls of a
        # module (`x.reshape(...)`) are ruled out without resolving it
        tails = frozenset(q.rsplit(".", 1)[-1] for q in wanted)
        qualname, attribute = self.index.qualname, ast.Attribute
        return any(
            (type(c.func) is not attribute or c.func.attr in tails) and qualname(c.func) in wanted
            for c in self.index.calls
        )

    def callers_of(self, qualnames: frozenset[str]) -> frozenset[ast.AST]:
        """The functions, classes, lambdas and the module whose own code (not a nested
        definition's) calls one of `qualnames` (`time.perf_counter`, ...): the timing
        analyses look only at these (they walked every function of a module that reads a
        clock somewhere, for each of two rules). Memoised per set of names."""
        found = self._callers.get(qualnames)
        if found is not None:
            return found
        from jaxlint.analysis.syntax import SCOPE_BOUNDARIES, parent

        owners: set[ast.AST] = set()
        qualname, attribute = self.index.qualname, ast.Attribute
        # an attribute chain's qualified name ends with its attribute
        tails = frozenset(q.rsplit(".", 1)[-1] for q in qualnames)
        for call in self.index.calls:
            func = call.func
            if type(func) is attribute and func.attr not in tails:
                continue
            if qualname(func) not in qualnames:
                continue
            cur = parent(call)
            while cur is not None and not isinstance(cur, SCOPE_BOUNDARIES):
                cur = parent(cur)
            owners.add(cur if cur is not None else self.tree)
        found = self._callers[qualnames] = frozenset(owners)
        return found

    def function_facts(self, fn: ast.AST | None) -> TracedFunction | None:
        """The row of a traced function in the final table (helpers included)."""
        return self.traced.get(fn)
