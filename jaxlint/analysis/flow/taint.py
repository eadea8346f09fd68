"""Which expressions hold traced values, per traced function: the taint lattice and its
transfer functions, run on the flow walker (`flow/walker.py`) to a fixed point over the module.

Levels (`flow/levels.py`, joined by max):
- NONE: concrete or static (shapes, dtypes, literals, module constants, static args);
- CONTAINER: a Python list/tuple/dict holding traced values (its truthiness and len are fine);
- FIELD: of unknown kind: an attribute of a traced pytree that no class declares a leaf
  (`cfg.n_layers` may be aux data), and what is computed from it alone; not traced;
- TREE: a traced argument or part of one (an array or pytree of arrays; fine in a bare `if`);
- ARRAY: certainly a traced array: the result of arithmetic, a comparison or a jnp/lax op.

The walker owns control flow; this module says what one statement or expression does, per
function. Which functions are traced, with which parameters, is `analysis/traced.py`'s: it
drives the fixed point (`_solve` calls `analyze`); this reads its rows and reports calls to it
(`reach`). Rules' queries are in `flow/taint_queries.py` (inherited).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from jaxlint.analysis.calls import CallKind
from jaxlint.analysis.flow.concrete_guards import (
    catches_tracer_errors,
    concrete_guard,
    jit_disabled,
)
from jaxlint.analysis.flow.levels import EnvLattice, Level, arith, part_of
from jaxlint.analysis.flow.taint_containers import ContainerBinds
from jaxlint.analysis.flow.taint_queries import TaintQueries
from jaxlint.analysis.flow.walker import ForwardWalker
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import (
    AOT_METHODS,
    ARRAY_ATTRS,
    ARRAY_MODULES,
    CONCRETE_METHODS,
    DICT_METHODS,
    FILTERING,
    KEY_METHODS,
    NO_DERIVATIVE,
    NUMPY_DISPATCHING,
    PYTHON_MAPS,
    STATIC_ATTRS,
    STATIC_CALLS,
    STATIC_FACTORIES,
    TREE_CONTAINERS,
    TREE_MAP,
    TREE_METHODS,
    TUPLE_RESULTS,
)
from jaxlint.analysis.kinds import (
    ARRAY_METHODS,
    STATIC_ATTRIBUTES,
    STATIC_METHODS,
    ParamKinds,
    constructed_object,
    module_param_kinds,
    never_array,
    object_params,
    static_result,
)
from jaxlint.analysis.param_constants import constant_params, decided_arms, jit_flags
from jaxlint.analysis.pytrees import PytreeFields
from jaxlint.analysis.staging import compile_time_eval, staged_call
from jaxlint.analysis.static_elements import imported_elements
from jaxlint.analysis.syntax import FUNCTION_NODES, all_params, param_defaults
from jaxlint.analysis.transforms import TracedKind

if TYPE_CHECKING:
    from jaxlint.analysis.traced import TracedFunctions

__all__ = ["Level", "TaintAnalysis"]

_MAPPED = frozenset({CallKind.MAPPED})  # `jax.tree.map(f, tree)`: f runs on the leaves
# flow facts in the taint state beside the names (no identifier has a NUL): last assigned a mask / not
MASK_KEY, NOT_MASK_KEY = "\x00mask:", "\x00other:"
OBJECT_KEY = "\x00object:"  # bound to an instance of another module's class (kinds.py)


_NAME, _CONSTANT, _ATTRIBUTE = ast.Name, ast.Constant, ast.Attribute


class _TaintFlow(ForwardWalker[dict[str, Level]]):
    """The walker with the taint analysis' transfer functions."""

    def __init__(self, analysis: TaintAnalysis) -> None:
        super().__init__(EnvLattice())
        self.a = analysis
        self.transfer = analysis.transfer  # type: ignore[method-assign]
        self.branch_test = analysis.branch_test  # type: ignore[method-assign]
        self.loop_test = analysis.expr  # type: ignore[method-assign,assignment]
        self.for_iter = analysis.for_iter  # type: ignore[method-assign]
        self.for_target = analysis.for_target  # type: ignore[method-assign]
        self.with_items = analysis.with_items  # type: ignore[method-assign]
        self.try_body = analysis.try_body  # type: ignore[method-assign]
        self.handler = analysis.handler  # type: ignore[method-assign]
        self.match_subject = analysis.match_subject  # type: ignore[method-assign]
        self.case_guard = analysis.case_guard  # type: ignore[method-assign]


class TaintAnalysis(ContainerBinds, TaintQueries):
    """Evaluates taint for every expression of every traced function; `analysis/traced.py`
    runs it to the fixed point (`analyze`, one function per call)."""

    def __init__(
        self,
        index: ModuleIndex,
        traced: TracedFunctions[TaintAnalysis],
        pytrees: Callable[[], PytreeFields] | None = None,
        static_helpers: frozenset[str] = frozenset(),
        passed: dict[str, tuple[int, frozenset[str]]] | None = None,
    ) -> None:
        self._passed = passed
        self.index = index
        # other modules' functions, as called here, that return Python values (project index)
        self.static_helpers = static_helpers
        self.calls = traced.calls
        self.traced = traced  # read while it runs: the rows, parameter levels, helper masks
        self._pytrees_factory = pytrees
        self.levels: dict[ast.AST, Level] = {}
        self.returns: dict[ast.AST, Level] = {}
        # per tuple element, for helpers whose every return is a tuple of one length
        self.return_elts: dict[ast.AST, tuple[Level, ...] | None] = {}
        self.return_keys: dict[ast.AST, dict[str, Level] | None] = {}  # per dict key
        self._keyed_names: frozenset[str] = frozenset()
        self._ret_keys: dict[str, Level] | None = None
        self.closure_env: dict[ast.AST, dict[str, Level]] = {}
        # helper parameters that every traced call site passes a boolean mask (traced.py)
        self.mask_params: dict[ast.AST, dict[str, bool]] = traced.mask_params
        # Name loads -> whether every assignment reaching it is a boolean mask (flow facts)
        self.mask_loads: dict[ast.AST, bool] = {}
        self._changed: set[ast.AST] = set()  # traced functions whose closure grew
        self._current: ast.AST | None = None
        self._ret = Level.NONE
        self._probe = 0  # inside a concreteness probe (`try: ... except ConcretizationTypeError`)
        self._flow = _TaintFlow(self)
        self._iter_levels = {}
        # attribute names read on a traced value without a class that says what they are
        # (`Level.FIELD`): another module's leaves may say (analysis/project_data.py)
        self.field_reads: set[str] = set()
        self._filtered = False  # under an equinox/nnx transform: non-array leaves are static
        self._staged = False  # its operations are staged into a program (jax_api.STAGING)
        self._concrete = False  # traced by bare `grad` & co. only (`jax_api.NO_DERIVATIVE`)
        self._not_none: set[str] = set()  # parameters bound to a value by every application
        self._constants: dict[str, ast.Constant] = {}  # ... bound to one literal by every one
        self._flags: frozenset[str] = frozenset()  # ... false in every call that runs

    @cached_property
    def kinds(self) -> ParamKinds:
        """Parameter kinds of traced functions (analysis/kinds.py, the one place), read
        against the pipeline's rows as they stand (traced.py)."""
        return module_param_kinds(self.index, self.traced.current, self._passed)

    @property
    def _quiet(self) -> int:
        """Values computed here are recorded as not traced: a concreteness probe, or a path
        that only runs on concrete values (the walker's `infeasible`)."""
        return self._probe + self._flow.infeasible

    @cached_property
    def pytrees(self) -> PytreeFields:
        """Static fields of the module's pytree classes (built on the first attribute read)."""
        return self._pytrees_factory() if self._pytrees_factory else PytreeFields(self.index)

    def _annotated_class(self, node: ast.Attribute) -> ast.ClassDef | None:
        """The class of this module that the annotation of the parameter `node` reads names."""
        if not isinstance(node.value, ast.Name) or self._current is None:
            return None
        return self.pytrees.param_class(self._current, node.value.id)

    def _static_field(self, node: ast.Attribute) -> bool:
        """`grid.num_dims` where `num_dims` is a static (meta) field of the pytree's class."""
        pytrees = self.pytrees
        if not pytrees.static and not pytrees.imported:
            return False
        return pytrees.is_static_attribute(node.attr, self._annotated_class(node))

    def _leaf_field(self, node: ast.Attribute) -> bool:
        """`state.env_map` where `env_map` is a leaf of the pytree's class (its class is
        known from the annotation, or the name is a leaf of some pytree class of this module
        or of a module it imports, and static in none): a traced value under a transform."""
        pytrees = self.pytrees
        if not pytrees.leaves and not pytrees.imported_leaves:
            return False
        return pytrees.is_leaf_attribute(node.attr, self._annotated_class(node))

    # -- one function of the fixed point (analysis/traced.py drives it) --------------------
    @property
    def current_function(self) -> ast.AST | None:
        """The function being analysed."""
        return self._current

    def closes_over_traced(self, fn: ast.AST) -> bool:
        return any(v >= Level.TREE for v in self.closure_env.get(fn, {}).values())

    def captures_traced(self, fn: ast.AST) -> bool:
        """A lambda made inside a traced function reads one of its traced values: the closure
        holds the tracer, so storing the lambda where it outlives the trace leaks it (calling
        it later raises UnexpectedTracerError). Only names the lambda reads count, not every
        traced name of the scope it was made in."""
        env = self.closure_env.get(fn)
        if not env or not isinstance(fn, ast.Lambda):
            return False
        own = set(all_params(fn))
        return any(
            isinstance(sub, ast.Name)
            and isinstance(sub.ctx, ast.Load)
            and sub.id not in own
            and env.get(sub.id, Level.NONE) >= Level.TREE
            for sub in ast.walk(fn.body)
        )

    def analyze(self, fn: ast.AST) -> tuple[set[ast.AST], bool]:
        """Walk `fn` with the parameter levels that reach it: the traced functions whose
        closure grew, and whether `fn`'s return level (or its per-element levels) changed."""
        self._changed = set()
        self._current = fn
        self._probe = 0
        facts = self.traced.current(fn)
        self._filtered = facts is not None and facts.via.startswith(FILTERING)
        self._staged = self.traced.staged(fn)
        # under bare `grad` the primals are concrete: what has no derivative is a plain array
        self._concrete = facts is not None and facts.kind is TracedKind.GRAD and not self._staged
        self._not_none = set(facts.not_none) if facts is not None else set()
        self._constants = constant_params(self.index, fn, self.kinds, self.traced)
        self._flags = jit_flags(self.index, self.traced.transforms, fn)
        self._iter_levels: dict[ast.AST, Level] = {}
        env: dict[str, Level] = dict(self.closure_env.get(fn, {}))
        for name in all_params(fn):
            env[name] = self.traced.levels_now(fn).get(name, Level.NONE)
        for name in object_params(self.index, fn):  # `A: lx.AbstractLinearOperator`
            env[OBJECT_KEY + name] = Level.CONTAINER
        self.start_keys(fn, env)
        self._ret = Level.NONE
        self._ret_elts: list[Level] | None = []  # per tuple element, [] before any return
        if isinstance(fn, ast.Lambda):
            self._ret = self.expr(fn.body, env)
            self._return_elements(fn.body)
        else:
            self._flow.walk(fn.body, env)
        prev = self.returns.get(fn)
        elts = tuple(self._ret_elts) if self._ret_elts else None
        prev_elts = self.return_elts.get(fn)
        if prev_elts is not None and elts is not None and len(prev_elts) == len(elts):
            elts = tuple(max(a, b) for a, b in zip(prev_elts, elts))
        elif prev_elts is not None and elts != prev_elts:
            elts = None  # returns of different shapes on different passes: not per element
        grew = elts != prev_elts and (elts is not None or fn in self.return_elts)
        grew = self.finish_keys(fn) or grew
        self.return_elts[fn] = elts
        if prev is None or self._ret > prev:
            self.returns[fn] = max(self._ret, prev or Level.NONE)
            grew = True
        return self._changed, grew

    def _return_elements(self, value: ast.AST | None) -> None:
        """Per-element levels of a `return a, b`: a caller unpacking `h, y = helper(x)` gets
        each element's kind (`x.shape[0]` next to `x * 2` stays a Python int)."""
        if self._ret_elts is None:
            return
        if not isinstance(value, ast.Tuple) or any(isinstance(e, ast.Starred) for e in value.elts):
            self._ret_elts = None
            return
        levels = [self.level(e) for e in value.elts]
        if not self._ret_elts:
            self._ret_elts = levels
        elif len(self._ret_elts) == len(levels):
            self._ret_elts = [max(a, b) for a, b in zip(self._ret_elts, levels)]
        else:
            self._ret_elts = None

    # -- statements -------------------------------------------------------------------------
    def transfer(self, node: ast.stmt, env: dict[str, Level]) -> None:  # noqa: C901
        """One simple statement (the walker owns control flow: analysis/flow/walker.py)."""
        if isinstance(node, ast.Assign):
            value = self.expr(node.value, env)
            for target in node.targets:
                self.bind(target, node.value, value, env)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                value = self.expr(node.value, env)
                self.bind(node.target, node.value, value, env)
        elif isinstance(node, ast.AugAssign):
            value = self.expr(node.value, env)
            target_level = self.expr(node.target, env)
            joined = arith(value, target_level)
            if isinstance(node.target, ast.Subscript):
                self.store_key(node.target, joined, env)
            if isinstance(node.target, ast.Name):
                self.unkey(node.target.id, env)
                env[node.target.id] = joined
                env.pop(MASK_KEY + node.target.id, None)
                env[NOT_MASK_KEY + node.target.id] = Level.CONTAINER
        elif isinstance(node, (ast.Expr, ast.Return)):
            if node.value is not None:
                level = self.expr(node.value, env)
                if isinstance(node, ast.Return):
                    self._ret = max(self._ret, level)
                    self._return_elements(node.value)
                    self.returned_keys(node.value, env)
            elif isinstance(node, ast.Return):
                self._return_elements(None)
                self.returned_keys(None, env)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                self.expr(d, env)
            self._closure(node, env)
            env[node.name] = Level.NONE
        elif isinstance(node, ast.ClassDef):
            env[node.name] = Level.NONE
        elif isinstance(node, (ast.Assert,)):
            self.expr(node.test, env)
            if node.msg is not None:
                self.expr(node.msg, env)
        elif isinstance(node, ast.Raise):
            if node.exc is not None:
                self.expr(node.exc, env)
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                self.expr(t, env)
        else:  # Import, Global, Pass, ...
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child, env)

    def branch_test(
        self, test: ast.expr, env: dict[str, Level]
    ) -> tuple[dict[str, Level], dict[str, Level], bool, bool]:
        """An `if` test: names it proves concrete in each arm, and arms that only run on
        concrete values (never under tracing)."""
        self.expr(test, env)
        concrete_if, concrete_else = self.concrete_guard(test)
        dead_if, dead_else = self._dead_branches(test, env, concrete_if, concrete_else)
        env_a, env_b = dict(env), dict(env)
        for name in concrete_if:
            env_a[name] = Level.NONE
        for name in concrete_else:
            env_b[name] = Level.NONE
        return env_a, env_b, not dead_if, not dead_else

    def for_iter(self, node: ast.For | ast.AsyncFor, env: dict[str, Level]) -> None:
        self._iter_levels[node] = self.expr(node.iter, env)

    def for_target(self, node: ast.For | ast.AsyncFor, env: dict[str, Level]) -> None:
        level = self._iter_levels.get(node, Level.NONE)
        self.bind_loop_target(node.target, node.iter, level, env)

    def with_items(self, node: ast.With | ast.AsyncWith, env: dict[str, Level]) -> None:
        for item in node.items:
            self.expr(item.context_expr, env)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, None, Level.NONE, env)

    def try_body(self, node: ast.AST, entering: bool) -> None:
        if catches_tracer_errors(node):  # probing for concreteness on purpose: quiet
            self._probe += 1 if entering else -1

    def handler(self, handler: ast.ExceptHandler, env: dict[str, Level]) -> None:
        if handler.type is not None:
            self.expr(handler.type, env)

    def match_subject(self, node: ast.Match, env: dict[str, Level]) -> None:
        self.expr(node.subject, env)

    def case_guard(self, case: ast.match_case, env: dict[str, Level]) -> None:
        if case.guard is not None:
            self.expr(case.guard, env)

    def _dead_branches(
        self, test: ast.AST, env: dict[str, Level], holds: set[str], fails: set[str]
    ) -> tuple[bool, bool]:
        """(body, else) runs only on concrete values, so never under tracing. A guard proving
        a traced value concrete (`if not isinstance(x, Tracer):`, `if is_concrete(x):`) marks
        an eager-only path; so do `if jax.config.jax_disable_jit:`, `if n is None:` on a
        parameter every traced application binds to a value (`partial(f, n=size)`) and `if
        flag:` on a jit flag no call that runs can make true (`jit_flags`)."""
        body = any(env.get(n, Level.NONE) >= Level.TREE for n in holds)
        orelse = any(env.get(n, Level.NONE) >= Level.TREE for n in fails)
        no_jit_if, no_jit_else = jit_disabled(self.index, test)
        fixed_if, fixed_else = decided_arms(test, self._constants, self._not_none, self._flags)
        return body or no_jit_if or fixed_if, orelse or no_jit_else or fixed_else

    def _closure(self, fn: ast.AST, env: dict[str, Level]) -> None:
        old = self.closure_env.get(fn, {})
        new = {
            k: max(v, old.get(k, Level.NONE))
            for k, v in env.items()
            if v > Level.NONE and not k.startswith("\x00")  # flow facts stay in their function
        }
        for k, v in old.items():
            new.setdefault(k, v)
        if new != old:
            self.closure_env[fn] = new
            if self.traced.is_traced_now(fn):
                self._changed.add(fn)

    def bind(
        self, target: ast.AST, value_node: ast.AST | None, level: Level, env: dict[str, Level]
    ) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = level
            self.bind_keys(target.id, value_node, env)
            self._not_none.discard(target.id)
            self._constants.pop(target.id, None)
            # which kind of value the name holds follows the latest assignment: a boolean
            # mask or not (the keys join like levels, so "mask" means "on every path")
            is_mask = (
                value_node is not None and level >= Level.TREE and self.is_bool_mask(value_node)
            )
            env.pop(NOT_MASK_KEY + target.id if is_mask else MASK_KEY + target.id, None)
            env[(MASK_KEY if is_mask else NOT_MASK_KEY) + target.id] = Level.CONTAINER
            if isinstance(value_node, ast.Call) and constructed_object(self.index, value_node):
                env[OBJECT_KEY + target.id] = Level.CONTAINER
            else:
                env.pop(OBJECT_KEY + target.id, None)
            self.levels[target] = Level.NONE if self._quiet else level
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value_node, (ast.Tuple, ast.List)) and len(value_node.elts) == len(
                target.elts
            ):
                for t, v in zip(target.elts, value_node.elts):
                    self.bind(t, v, self.level(v), env)
            else:
                elts = self._call_elements(value_node, len(target.elts))
                part = part_of(level)
                for i, t in enumerate(target.elts):
                    self.bind(t, None, elts[i] if elts is not None else part, env)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, None, Level.CONTAINER if level else Level.NONE, env)
        else:  # attribute / subscript targets: evaluate the parts
            self.expr(target, env)
            if isinstance(target, ast.Subscript):
                self.store_key(target, level, env)  # `d["k"] = value`

    def _call_elements(self, value: ast.AST | None, n: int) -> tuple[Level, ...] | None:
        """Per-element levels of `helper(...)` returning n-tuples (the call traced as a whole),
        or of a library call whose parts differ in kind (`jax_api.TUPLE_RESULTS`)."""
        if not isinstance(value, ast.Call) or self.level(value) == Level.NONE:
            return None
        parts = TUPLE_RESULTS.get(self.index.qualname(value.func) or "")
        if parts is not None:  # `leaves, treedef = jax.tree.flatten(x)`: the treedef is static
            if len(parts) != n:
                return None
            return tuple(Level.TREE if p == "tree" else Level.NONE for p in parts)
        callee = self.calls.function(value)
        elts = self.return_elts.get(callee) if callee is not None else None
        if elts is None and callee is None:  # another module's (analysis/static_elements.py)
            return imported_elements(self.index, self.static_helpers, value, n, self.level(value))
        if elts is None or len(elts) != n:
            return None
        return tuple(Level.TREE if lv == Level.CONTAINER else lv for lv in elts)

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.AST, env: dict[str, Level]) -> Level:
        level = self._expr(node, env)
        # a later analysis of the function sees more: overwrite
        self.levels[node] = Level.NONE if self._quiet else level
        return level

    def concrete_guard(self, test: ast.AST) -> tuple[set[str], set[str]]:
        """Names a condition proves concrete: (where it holds, where it fails)."""
        return concrete_guard(self.index, test)

    def _expr(self, node: ast.AST, env: dict[str, Level]) -> Level:  # noqa: C901
        cls = type(node)  # the commonest kinds by exact class (the parser makes no subclasses)
        if cls is _NAME:
            mask, other = MASK_KEY + node.id, NOT_MASK_KEY + node.id  # type: ignore[attr-defined]
            if mask in env or other in env:
                self.mask_loads[node] = mask in env and other not in env
            return env.get(node.id, Level.NONE)  # type: ignore[attr-defined]
        if cls is _CONSTANT:
            return Level.NONE
        if cls is _ATTRIBUTE:
            return self._attribute(node, env)  # type: ignore[arg-type]
        if isinstance(node, ast.Subscript):
            base = self.expr(node.value, env)
            self.expr(node.slice, env)
            entry = self.key_level(node, env)  # `metrics["usage"]` of a keyed dict
            if entry is not None:
                return entry
            if base == Level.CONTAINER:
                return Level.TREE
            return base
        if isinstance(node, ast.Slice):
            for part in (node.lower, node.upper, node.step):
                if part is not None:
                    self.expr(part, env)
            return Level.NONE
        if isinstance(node, ast.BinOp):
            a, b = self.expr(node.left, env), self.expr(node.right, env)
            if isinstance(node.op, ast.Mod) and isinstance(
                node.left, (ast.Constant, ast.JoinedStr)
            ):
                return Level.NONE  # "%s" % x string formatting
            return arith(a, b)
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand, env)
            if isinstance(node.op, ast.Not) and v == Level.TREE:
                return Level.NONE  # `not tree`: container truthiness, a Python bool
            return arith(v)
        if isinstance(node, ast.BoolOp):
            out, cur, dead = Level.NONE, env, 0
            for v in node.values:
                self._probe += dead  # after a traced value proved concrete: eager-only
                level = self.expr(v, cur)
                self._probe -= dead
                out = max(out, Level.NONE if dead else level)
                holds, fails = self.concrete_guard(v)
                proven = holds if isinstance(node.op, ast.And) else fails
                if proven:  # later operands run only when this one proved concreteness
                    dead = dead or int(any(cur.get(n, Level.NONE) >= Level.TREE for n in proven))
                    cur = {**cur, **dict.fromkeys(proven, Level.NONE)}
            return out
        if isinstance(node, ast.Compare):
            return self._compare(node, env)
        if isinstance(node, ast.IfExp):
            self.expr(node.test, env)
            holds, fails = self.concrete_guard(node.test)
            body_env = {**env, **dict.fromkeys(holds, Level.NONE)} if holds else env
            else_env = {**env, **dict.fromkeys(fails, Level.NONE)} if fails else env
            return max(self.expr(node.body, body_env), self.expr(node.orelse, else_env))
        if isinstance(node, ast.Call):
            self.stores_into(node, env)  # `d.update(...)`
            return self._call(node, env)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            return self._display(node, env)
        if isinstance(node, ast.Starred):
            return self.expr(node.value, env)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self._comprehension(node, env)
        if isinstance(node, (ast.JoinedStr, ast.FormattedValue)):
            for child in ast.iter_child_nodes(node):  # the parts of an f-string: a str
                self.expr(child, env)
            return Level.NONE
        if isinstance(node, ast.NamedExpr):
            v = self.expr(node.value, env)
            if isinstance(node.target, ast.Name):
                env[node.target.id] = v
                self.unkey(node.target.id, env)
                self.levels[node.target] = v
            return v
        if isinstance(node, FUNCTION_NODES):  # a lambda value
            self._closure(node, env)
            return Level.NONE
        if isinstance(node, ast.Await):
            return self.expr(node.value, env)
        for child in ast.iter_child_nodes(node):
            self.expr(child, env)
        return Level.NONE

    def _attribute(self, node: ast.Attribute, env: dict[str, Level]) -> Level:
        base = self.expr(node.value, env)
        if node.attr in STATIC_ATTRS or node.attr in STATIC_ATTRIBUTES or base == Level.NONE:
            return Level.NONE
        if isinstance(node.value, ast.Name) and OBJECT_KEY + node.value.id in env:
            if node.attr not in ARRAY_ATTRS:
                return Level.NONE  # a field or property of an object of unknown class
        if base == Level.CONTAINER:
            return Level.NONE
        if base == Level.FIELD:
            return Level.FIELD
        if node.attr in ARRAY_ATTRS:
            return Level.ARRAY
        if self._static_field(node):
            # pytree meta data: a Python value under tracing, whatever level the object got
            # (a free `state` of a `lax.cond` branch, v42 NeuralConstitutiveEq.jl: JAX120)
            return Level.NONE
        if base == Level.ARRAY:
            return Level.ARRAY
        if self._filtered:
            # equinox / nnx transforms trace only the array leaves: a field of a Module or
            # pytree argument (`cfg.n`) may be static, unless its class says array (`w: Array`)
            cls = self._annotated_class(node)
            return Level.ARRAY if cls and self.pytrees.array_field(cls, node.attr) else Level.NONE
        # an attribute of a traced pytree is a leaf only when its class says so; otherwise
        # it may be auxiliary data (`cfg.n_layers` of a `register_static` config, `mjx.Model.nu`,
        # a `static_field` of a class nobody here can see): unknown, not traced
        if self._leaf_field(node):
            # a property computed from leaves (`self.step > 100`) is an array, not a subtree
            return Level.ARRAY if node.attr in self.pytrees.array_properties else Level.TREE
        self.field_reads.add(node.attr)
        return Level.FIELD

    def _display(
        self, node: ast.Tuple | ast.List | ast.Set | ast.Dict, env: dict[str, Level]
    ) -> Level:
        """A tuple/list/set/dict display: a container of whatever its elements hold."""
        if isinstance(node, ast.Dict):
            inner = Level.NONE
            for k in node.keys:
                if k is not None:
                    self.expr(k, env)
            for v in node.values:
                inner = max(inner, self.expr(v, env))
        else:
            inner = max((self.expr(e, env) for e in node.elts), default=Level.NONE)
        return Level.CONTAINER if inner > Level.NONE else Level.NONE

    def _compare(self, node: ast.Compare, env: dict[str, Level]) -> Level:
        left = self.expr(node.left, env)
        result = Level.NONE
        prev, prev_node = left, node.left
        for op, comp in zip(node.ops, node.comparators):
            right = self.expr(comp, env)
            if isinstance(op, (ast.Is, ast.IsNot)):
                pass
            elif never_array(self.index, comp) or never_array(self.index, prev_node):
                pass  # `mode == "relu"`, `state == sentinel`: a tracer == str/object is False
            elif isinstance(op, (ast.Eq, ast.NotEq)) and (
                self._own_default(prev_node, comp) or self._own_default(comp, prev_node)
            ):
                pass  # `if state == sentinel:` where `sentinel` is the parameter's default
            elif isinstance(op, (ast.In, ast.NotIn)):
                if prev >= Level.FIELD:  # `key in dict` is static; a traced needle is not
                    result = max(result, arith(prev))
            elif not self._concrete:  # a comparison has no derivative: concrete under grad
                result = max(result, arith(prev, right))
            prev, prev_node = right, comp
        return result

    def _own_default(self, param: ast.AST, other: ast.AST) -> bool:
        """`other` is the (non-literal) default value of the parameter `param`: comparing
        them asks "was the argument given?", a check on a sentinel object."""
        if not isinstance(param, ast.Name) or not isinstance(other, (ast.Name, ast.Attribute)):
            return False
        default = param_defaults(self._current).get(param.id)  # type: ignore[arg-type]
        return default is not None and ast.dump(default) == ast.dump(other)

    def _comprehension(self, node: ast.AST, env: dict[str, Level]) -> Level:
        inner_env = dict(env)
        for gen in node.generators:  # type: ignore[attr-defined]
            it = self.expr(gen.iter, inner_env)
            self.bind_loop_target(gen.target, gen.iter, it, inner_env)
            for cond in gen.ifs:
                self.expr(cond, inner_env)
        if isinstance(node, ast.DictComp):
            self.expr(node.key, inner_env)
            elt = self.expr(node.value, inner_env)
        else:
            elt = self.expr(node.elt, inner_env)  # type: ignore[attr-defined]
        if elt == Level.FIELD:
            return Level.FIELD  # of parts of unknown kind: unknown, not a container of tracers
        return Level.CONTAINER if elt > Level.NONE else Level.NONE

    def _method(
        self, func: ast.Attribute, node: ast.Call, receiver: Level, env: dict[str, Level]
    ) -> Level:
        """`value.m(...)` on a value holding traced parts (or ones of unknown kind)."""
        if func.attr in KEY_METHODS and not node.args:
            return Level.NONE  # `obs.keys()`: the dict's keys are its treedef, not leaves
        if receiver == Level.CONTAINER:
            return Level.CONTAINER if func.attr in DICT_METHODS else Level.TREE
        if func.attr in STATIC_ATTRS or func.attr in CONCRETE_METHODS:
            return Level.NONE
        if func.attr in STATIC_METHODS:  # library facts: `x.has_axis("pos")`
            return Level.NONE
        if receiver == Level.FIELD:
            return Level.FIELD  # a method of a value of unknown kind: unknown
        if func.attr in DICT_METHODS:
            return Level.CONTAINER
        if func.attr in TREE_METHODS:
            return Level.TREE
        if (
            isinstance(func.value, ast.Name)
            and OBJECT_KEY + func.value.id in env
            and func.attr not in ARRAY_METHODS
        ):
            return Level.NONE  # `A.out_size()`: a method of an object of unknown class
        if func.attr not in ARRAY_METHODS:
            # not a `jax.Array` method: the receiver is an object (a Module, a state), the result
            # unknown (jaxsim's `model.dofs()`, v31 IrrepUNet's `m._compute_padding(x.shape)`),
            # unless given tracers or an `x.at[i].set(v)` (v30 cbfkit): a container of them
            given = (*node.args, *(k.value for k in node.keywords))
            at = type(func.value) is ast.Subscript and getattr(func.value.value, "attr", 0) == "at"
            return Level.CONTAINER if at or any(self.level(a) for a in given) else Level.FIELD
        return Level.ARRAY

    def _call(self, node: ast.Call, env: dict[str, Level]) -> Level:  # noqa: C901
        func = node.func
        receiver = Level.NONE
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value, env)
        elif not isinstance(func, ast.Name):
            self.expr(func, env)
        args = [self.expr(a, env) for a in node.args]
        kwargs = {kw.arg: self.expr(kw.value, env) for kw in node.keywords}
        strongest = max([*args, *kwargs.values(), Level.NONE])
        q = self.index.qualname(func)
        self.traced.reach(self, node, q)  # a helper it calls sees these arguments
        if q in STATIC_CALLS or (
            q in PYTHON_MAPS and node.args and self.index.qualname(node.args[0]) in STATIC_CALLS
        ):
            return Level.NONE  # `len(x)`; `map(jnp.shape, leaves)`
        if isinstance(func, ast.Call) and self.index.qualname(func.func) in STATIC_FACTORIES:
            return Level.NONE  # `jax.make_jaxpr(f)(x)`: a jaxpr, whose vars are Python objects
        if isinstance(func, ast.Attribute) and receiver == Level.NONE and func.attr in AOT_METHODS:
            return Level.NONE  # `jitted.lower(x).compile().cost_analysis()`: host objects
        if isinstance(func, ast.Attribute) and receiver > Level.NONE and q is None:
            return self._method(func, node, receiver, env)
        if q in TREE_MAP and node.args:
            mapped = self.calls.function(node, _MAPPED)
            if mapped is not None and mapped in self.returns:
                r = self.returns[mapped]  # a tree of what the function returns
                return Level.NONE if r == Level.NONE else max(r, Level.TREE)
            if mapped is not None and self.traced.is_traced_now(mapped):
                return Level.NONE  # analysed later, then this again (`lambda x: x.shape[0]`)
            if mapped is None and not (self.index.qualname(node.args[0]) or "").startswith(
                ARRAY_MODULES
            ):
                # the leaves are whatever a function nobody here can see returns (a callable
                # parameter, a factory's result): no evidence they are traced; equinox maps
                # `is_array_like` (a Python bool per leaf) over a traced tree
                return Level.NONE
        if q in TREE_CONTAINERS:
            return Level.CONTAINER if strongest > Level.NONE else Level.NONE
        callee = self.calls.function(node)  # analysis/calls.py: what the call runs
        if callee is None and static_result(self.index, self.static_helpers, func):
            return Level.NONE  # `tree_utils.first_dim(tree)`: a Python value (analysis/kinds.py)
        if callee is not None and callee in self.returns:
            if (
                strongest == Level.NONE
                and receiver < Level.TREE
                and not self.closes_over_traced(callee)
            ):
                return Level.NONE  # a traced helper called here with static arguments
            return self.returns[callee]
        if strongest == Level.NONE:
            if self._staged and staged_call(q) and not compile_time_eval(node, self.index):
                return Level.ARRAY  # `jnp.arange(n) < k` inside jit: a tracer (omnistaging)
            return Level.NONE
        if q and q.startswith("numpy.") and q.removeprefix("numpy.") not in NUMPY_DISPATCHING:
            # NumPy converts a tracer to a host array: under jit it raises (JAX101 reports
            # that call), eagerly it returns a NumPy array, never a tracer (bonsai's
            # `masks_np = np.array(masks)` fed to a host helper and scipy)
            return Level.NONE
        if q and q.startswith(ARRAY_MODULES):
            return Level.NONE if self._concrete and q in NO_DERIVATIVE else Level.ARRAY
        if q in ("sum", "abs", "round", "pow", "divmod", "min", "max"):
            if strongest == Level.FIELD:
                return Level.FIELD
            return Level.ARRAY if strongest >= Level.TREE else Level.TREE
        if q in (
            "list",
            "tuple",
            "dict",
            "set",
            "sorted",
            "reversed",
            "zip",
            "enumerate",
            "map",
            "filter",
        ):
            return Level.FIELD if strongest == Level.FIELD else Level.CONTAINER
        if callee is not None and self.traced.is_traced_now(callee):
            return Level.NONE if self.returns.get(callee) is None else self.returns[callee]
        if strongest == Level.FIELD and not any(
            lv == Level.CONTAINER for lv in (*args, *kwargs.values())
        ):
            return Level.FIELD  # code nobody here can see, given values of unknown kind
        return Level.TREE
