"""PRNG key def-use chains: which key variables are consumed twice on one path.

Branch-aware (if/else each consuming once is fine; a branch that returns does not flow on),
loop-aware (a consumption inside a loop of a key bound outside and never rebound in the loop
is reuse across iterations; so is a scan/fori body consuming a closed-over key), and it
follows keys into helpers of the same module that consume their key parameter, and into
functions of other project modules (`from model import init_mlp`, `model.init_mlp` after
`import model`) whose project-index summary says they consume it (`KEY_HELPERS`, handed over
with the seeds; a module calling one is analysed even without a `jax.random` call of its own).
`fold_in`, `key_data` and `clone` do not consume. A comprehension is a loop: its own target
keys are fresh each iteration, an outer key consumed in it is reused. Keys indexed with a
constant (`keys[0]`) are tracked like names. Statement control flow is the shared forward
walker's (analysis/flow/walker.py, `_KeyWalker` at the end of this file); this module says
what a statement and an expression do to the key state.

Also computed here, for the other PRNG rules: `collisions` (one parent key both `split` and
`fold_in`, or `fold_in` twice with the same constant: facts §1.6c) and `key_kind` (typed
`jax.random.key` vs legacy `PRNGKey` provenance of an expression: §1.6d). The facts about
code that runs repeatedly (`constant_seeds`: §1.6b, `fixed_seeds`, `unmapped_keys`,
`module_key_uses`) are in key_repeats.py, a mixin of `KeyFlow`; the vocabulary both use
(which calls consume, how a key expression is named) is in key_terms.py.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property

from jaxlint.analysis import syntax
from jaxlint.analysis.calls import CallGraph, CallKind
from jaxlint.analysis.constants import ModuleConstants
from jaxlint.analysis.deadness import loads_of_value, value_is_dead
from jaxlint.analysis.differentiation import derivative_rule_of, handed_to_backward
from jaxlint.analysis.equality_checks import compared_only
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.flow.key_attributes import ModuleAttributes
from jaxlint.analysis.flow.key_children import SplitChildren, starred_split, starred_target
from jaxlint.analysis.flow.key_draws import KeyDraws
from jaxlint.analysis.flow.key_guards import (
    LiteralGuard,
    call_skips,
    exclusive_guards,
    joined,
    literal_guard,
)
from jaxlint.analysis.flow.key_products import (
    derived_return_paths,
    dropped_compiled_call,
    products_dead,
    products_unread,
)
from jaxlint.analysis.flow.key_repeats import (
    ConstantSeed,
    FixedSeed,
    KeyRepeats,
    ModuleKeyUse,
    UnmappedKey,
)
from jaxlint.analysis.flow.key_terms import (
    ALIGNABLE,
    DERIVED,
    DETERMINISTIC_FLAGS,
    EXCLUSIVE_SELECTS,
    JIT_WRAPPERS,
    KEY_CONSUMING_CONSTRUCTORS,
    KEY_CONSUMING_LAYER_CALLS,
    KEY_CONSUMING_METHODS,
    KEY_MAKERS,
    LOOP_BODY_TRANSFORMS,
    NON_CONSUMING,
    ONCE_PER_STATE_METHODS,
    RECORD_METHODS,
    RNGS_MAKERS,
    SEEDED_SAMPLERS,
    assigned_key_names,
    base_name,
    in_test_code,
    key_argument,
    key_name,
    key_names_bound_in,
    key_target_names,
    keyish_name,
    random_function,
    random_name,
    walk_function,
)
from jaxlint.analysis.flow.loop_products import product_unread_in_loop
from jaxlint.analysis.flow.walker import ForwardWalker
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.loops import benchmark_loop, runs_at_most_once, runs_once_in
from jaxlint.analysis.param_constants import decided_arms, jit_flags
from jaxlint.analysis.result_uses import WHOLE, discarded_by_callers
from jaxlint.analysis.shape_only import element_per_step, read_only_for_shape
from jaxlint.analysis.syntax import COMPREHENSIONS, FUNCTION_NODES, statement_of
from jaxlint.analysis.transforms import Transforms
from jaxlint.analysis.trips import runs_at_least_once

__all__ = [
    "KEY_HELPERS",
    "Collision",
    "ConstantSeed",
    "FixedSeed",
    "KeyFlow",
    "ModuleKeyUse",
    "Reuse",
    "UnmappedKey",
    "base_name",
    "key_argument",
    "key_name",
    "random_function",
]


@dataclass(frozen=True)
class Collision:
    """`split(k, ...)` and `fold_in(k, i)` (or `fold_in(k, c)` twice) on one parent key."""

    name: str
    node: ast.Call  # the later derivation
    first: ast.Call  # the earlier one


@dataclass(frozen=True)
class Reuse:
    name: str
    node: ast.AST  # the second consumption (a Call), or the escaping key expression
    first: ast.Call | None  # the earlier consumption (None: across loop iterations)
    kind: str  # "twice" | "loop" | "closure" | "escape" | "dropped"
    loop: ast.AST | None = None
    how: str = ""  # for "escape": "returned", "stored in `self.key`", "stored by `.replace(rng=...)`";  # for "loop": "arms" when the call runs on one step and another call of the loop
    # consumes the same key on another (`if name == "a": ... elif name == "b": ...`)


# methods and functions that copy a functional object with the named fields changed
COPY_METHODS = frozenset({"replace", "_replace"})
DATACLASS_REPLACE = "dataclasses.replace"
EQX_TREE_AT = "equinox.tree_at"

# the seeds entry (analysis.project.KeyHelpers) naming imported functions that consume keys
KEY_HELPERS = "<key helpers>"
# the call targets whose body consumes the keys a call passes (a class's `__init__` too)
_KEY_CALLEES = frozenset({CallKind.FUNCTION, CallKind.METHOD, CallKind.CONSTRUCTOR})
# the statements and calls `KeyFlow._summarize` orders (walked for every function)
_EVENT_TYPES = frozenset({ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign})


def _indexed_by(value: ast.expr, index: ModuleIndex) -> list[str] | None:
    """The arrays (as text) `value` indexes, when every use of it is `array[value]`: in place,
    or through a plain name; None otherwise."""
    uses: list[ast.expr] = [value]
    up = syntax.parent(value)
    if not (isinstance(up, ast.Subscript) and up.slice is value):
        loads = loads_of_value(value, index)
        if not loads:
            return None
        uses = list(loads)
    out = []
    for use in uses:
        sub = syntax.parent(use)
        if not (isinstance(sub, ast.Subscript) and sub.slice is use):
            return None
        out.append(ast.dump(sub.value))
    return out


def _keyish(expr: ast.expr) -> bool:
    """A plain reference named like a PRNG key (`rng`, `self.key`, `keys[0]`), or a dict of
    them (`{"params": k1}`)."""
    if isinstance(expr, ast.Dict):
        return any(v is not None and _keyish(v) for v in expr.values)
    name = key_name(expr)
    return name is not None and keyish_name(name)


_FUNCTION_CLASSES = frozenset(FUNCTION_NODES)
_COMPREHENSION_CLASSES = frozenset(COMPREHENSIONS)
_CALL, _IFEXP, _RETURN = ast.Call, ast.IfExp, ast.Return
_DEF_CLASSES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})
# the expression classes (`isinstance(x, ast.expr)` by exact class: the parser makes no
# subclasses)
_EXPRESSIONS = frozenset(
    c
    for c in vars(ast).values()
    if isinstance(c, type) and issubclass(c, ast.expr) and c is not ast.expr
)


class KeyFlow(KeyRepeats, KeyDraws):
    """Computes `reuses` for the whole module once."""

    def __init__(
        self,
        index: ModuleIndex,
        imported: dict[str, tuple[tuple[str, int], ...]] | None = None,
        calls: CallGraph | None = None,
        imported_products: dict[str, frozenset[tuple[int | str, ...]]] | None = None,
        imported_draws: dict[str, frozenset[str]] | None = None,
        imported_drawfree: frozenset[str] = frozenset(),
        return_uses: dict[str, frozenset[int] | None] | None = None,
        imported_linen: frozenset[str] = frozenset(),
        key_properties: frozenset[str] = frozenset(),
        reuses: bool = True,
    ) -> None:
        self.index = index
        # the project's key properties (`KeyProperties`, flow/key_attributes.py)
        self.key_properties = key_properties
        # what each call runs (`ModuleFacts.calls`; built here for a bare index)
        self.calls = calls if calls is not None else CallGraph(index, Transforms(index))
        # names imported from other project modules -> the key parameters their function
        # consumes, (name, position; -1: keyword-only), from the project index
        self.imported = imported or {}
        # of those, the paths of the return value that carry key-derived values, where the
        # project index knows them (analysis/flow/key_products.py)
        self.imported_products = imported_products or {}
        # of those, the key parameters they draw from on every path (flow/key_draws.py)
        self.imported_draws = imported_draws or {}
        # the names it imports other project modules' flax Module classes by, whose `init`
        # draws nothing (flow/key_drawfree.py, `ModuleSummary.drawfree_modules`)
        self.imported_drawfree = imported_drawfree
        # the names it imports other project modules' flax.linen Module classes by
        # (`ModuleSummary.linen_modules`): their `init`/`apply` fold module paths in
        self.imported_linen = imported_linen
        # top-level function -> the positions of its returned tuple that other modules'
        # calls read (None: read whole), from the project index (analysis/result_uses.py)
        self.return_uses = return_uses
        # top-level function -> the positions of its returned tuple holding a consumed key
        # (`WHOLE`: the value itself), whatever the callers do: `ModuleSummary.key_returns`
        self.returned_keys: dict[str, set[int]] = {}
        self.drawing_params: dict[ast.AST, set[str]] = {}
        self.drawing_attrs: dict[ast.AST, set[str]] = {}
        self._flax_cache: dict[int, bool] = {}
        self._reuses: list[Reuse] = []
        self._collisions: list[Collision] = []
        # the walk has run over the whole module (`reuses`, `collisions`); False: only over
        # the top-level defs that may return a consumed key (`_walk_returns`)
        self._walked_all = True
        self._returns_only = False
        self._walker: _KeyWalker | None = None  # the walk under way (its `infeasible` count)
        self.consuming_params: dict[ast.AST, set[str]] = {}
        # of those, the ones every consumption of which runs only for some literal values of
        # another parameter (flow/key_guards.py): parameter -> its guard
        self.consuming_guards: dict[ast.AST, dict[str, LiteralGuard]] = {}
        # methods that split `self.<attr>` and drop the new key: attr names per method
        self.consuming_attrs: dict[ast.AST, set[str]] = {}
        self._dropped_splits: list[tuple[ast.AST, str, ast.Call]] = []
        self._bound_cache: dict[int, set[str]] = {}
        # `consumed_names`: per call, what it consumes in every round, and the def it runs
        self._fixed_consumptions: dict[ast.Call, tuple[list[str], ast.AST | None]] = {}
        self._attributes: ModuleAttributes | None = None  # made on the first `x.attr` key
        self._kind_cache: dict[int, tuple[str, bool] | None] = {}
        self._constant_seeds: list[ConstantSeed] | None = None
        self._loop_bodies: set[ast.AST] = set()
        self._escaped: set[int] = set()
        self._carried_cache: dict[int, set[str]] = {}
        self._timed_cache: dict[int, bool] = {}
        self._paths_cache: dict[int, frozenset[tuple[int | str, ...]] | None] = {}
        # a module that passes a key to a consuming helper of another module is analysed
        # even when it never calls `jax.random` itself
        self.active = self._is_active()
        if not self.active:
            return  # no `jax.random` call and no key helper call: no key flow to follow
        self._loop_bodies = self._find_loop_bodies()
        self._find_dropped_splits()
        self._summarize()
        self._summarize_draws()
        if reuses:
            self._walk_all()
            self._report_dropped_splits()
        else:
            self._walked_all = False
            self._walk_returns()

    @property
    def reuses(self) -> list[Reuse]:
        """The key reuses of the module (JAX201), in walk order."""
        self._complete()
        return self._reuses

    @property
    def collisions(self) -> list[Collision]:
        """The split/fold_in collisions of the module (JAX203)."""
        self._complete()
        return self._collisions

    def _complete(self) -> None:
        """The whole walk, for a flow made with `reuses=False` (after the rules' questions:
        `key_kind`'s memo is then filled in another order than a walk at construction)."""
        if not self._walked_all:
            self._walked_all = True
            self._walk_all()
            self._report_dropped_splits()

    def _is_active(self) -> bool:
        """Whether some call of the module is a `jax.random` function, an imported key
        helper, an `nnx.Rngs(...)` or hands a library a key (`_hands_key_to_library`): one
        loop over the calls, not one per test (most modules the prefilter lets through,
        those whose text says `random`, have none: every test ran over every call)."""
        index = self.index
        qualname, imported = index.qualname, bool(self.imported)
        for call in index.calls:
            q = qualname(call.func)
            if q and (random_name(q) or q in RNGS_MAKERS):
                return True
            if imported and self._imported_helper(call.func):
                return True
            if self._hands_key_to_library(call):
                return True
        return False

    def _hands_key_to_library(self, call: ast.Call) -> bool:
        """`call` may give a library initialiser or layer a key named like one (`net.init(rng,
        x)`, `eqx.nn.Linear(..., key=key)`, `rngs={"dropout": rng}`): the analysis runs on a
        module with such calls whether or not it calls `jax.random` itself, so a function's
        findings do not depend on the rest of its module (the incremental linter lints parts of
        a module on their own: `tests/test_incremental.py`)."""
        for kw in call.keywords:
            if kw.arg == "rngs" or (kw.arg == "key" and _keyish(kw.value)):
                return True
        func = call.func
        if type(func) is not ast.Attribute or func.attr not in KEY_CONSUMING_METHODS:
            return False
        positions = KEY_CONSUMING_METHODS[func.attr][0]
        return any(p < len(call.args) and _keyish(call.args[p]) for p in positions)

    # -- helpers' key parameters -------------------------------------------------------------
    def _direct_consumption(self, call: ast.Call) -> str | None:
        """Name of the key variable this call consumes, if any."""
        fn = random_function(self.index, call)
        if fn is not None:
            if fn in NON_CONSUMING or isinstance(syntax.parent(call), ast.Expr):
                # a bare `jax.random.split(key, 3)` statement: its result is thrown away, so
                # it makes no numbers that another draw of the key could repeat
                return None
            return key_name(key_argument(call))
        if isinstance(call.func, ast.Attribute) and call.func.attr in SEEDED_SAMPLERS:
            # `dist.sample(seed=key)` (distrax, TFP on JAX): the key is drawn from, as by
            # `jax.random.*`; the same key twice gives the same sample
            for kw in call.keywords:
                if kw.arg == "seed" and not isinstance(kw.value, ast.Constant):
                    return key_name(kw.value)
        return None

    def through_helper(self, reuse: Reuse) -> bool:
        """A consumption of the reuse is not proven to draw from the key: not a draw of
        `jax.random` (or a seeded sampler) that this module makes itself, nor a helper,
        method, constructor or library initialiser that the analysis proves draws from it on
        every path (`proven_draw`, flow/key_draws.py). Whether those draw at all is otherwise
        inferred (a flax `init` whose parameters all come from a checkpoint draws nothing),
        so such findings are less certain: on the held-out corpora they were right 29 times
        in 81, against 51 in 55 for two direct draws (docs/precision.md, v4 and v5)."""
        calls = [c for c in (reuse.first, reuse.node) if isinstance(c, ast.Call)]
        return any(not self.proven_draw(c, reuse.name) for c in calls)

    def draw_beside_split(self, reuse: Reuse) -> bool:
        """A reuse of kind "twice" whose two consumptions are a `jax.random` draw and a
        `jax.random.split` of the key. Its numbers collide only where
        `jax_threefry_partitionable` is off (the default before JAX 0.5) and the draw takes
        about as many 32-bit words as the split keys hold (`bits(k, (4,))` is then
        `split(k)`'s key data, `bits(k, (3,))` shares two of its four words; a draw of 8 or
        100,000 words shares none: checked on 0.10.2 and 0.12.1); with it on, the default
        since, the split keys and the draw share no bits. `jax.debug_key_reuse` rejects it
        either way, so the finding stands; its message says which collision it is (the
        tuning pool's readers measured no correlation on 0.12: v36-v38 candidates, 23
        debatable rows)."""
        if reuse.kind != "twice":
            return False
        calls = [c for c in (reuse.first, reuse.node) if isinstance(c, ast.Call)]
        kinds = [random_function(self.index, c) for c in calls]
        return (
            len(kinds) == 2
            and kinds.count("split") == 1
            and all(k is not None and k not in KEY_MAKERS for k in kinds if k != "split")
        )

    def resolve_callee(self, call: ast.Call) -> ast.AST | None:
        """The def a call runs: `f(...)`, `self.f(...)`, or `step(...)` where
        `step = jax.jit(train_step)` (a compiled step consumes what `train_step` consumes),
        `Tower(key)` (the class's `__init__`), `sampler.run()` where `sampler = Sampler(...)`
        (the method of that class of this module). The call graph's (analysis/calls.py)."""
        t = self.calls.target(call)
        if t is None:
            return self.calls.callable_argument(call)  # `fn(x, key=k)`, `fn` a parameter
        if t.kind in _KEY_CALLEES:
            return t.function
        if t.kind is CallKind.TRANSFORMED and t.through_name and t.transform in JIT_WRAPPERS:
            return t.function
        return None

    def _imported_helper(self, func: ast.AST) -> str | None:
        """The `imported` entry a call's function names: `init_mlp` (`from model import
        init_mlp`), `model.init_mlp` (`import model`, `import pkg.model as model`), when its
        root name is still the import (not shadowed by a local definition or assignment)."""
        local = dotted(func)
        if local is None or local not in self.imported:
            return None
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        scope = self.index.scope_of(root)
        b = self.index.binding(root.id, scope)  # type: ignore[attr-defined]
        if b is None and self._star_imports and self.index.lookup(root.id, scope) is None:  # type: ignore[attr-defined]
            return local  # bound by `from m import *` (the index resolved it there)
        return local if b is not None and b.kind == "import" else None

    @cached_property
    def _star_imports(self) -> bool:
        return any(
            isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names)
            for s in self.index.tree.body
        )

    def _imported_consumptions(self, call: ast.Call) -> list[str]:
        """`init_mlp(key, ...)` where `from model import init_mlp` (or `model.init_mlp(key)`
        after `import model`) and `model.init_mlp` consumes that parameter: the key passed is
        consumed, as by a helper of this module (names, `keys[0]`, `self.key`, `state.rng`)."""
        local = self._imported_helper(call.func)
        if local is None:
            return []
        return [
            tracked
            for _, arg in self._imported_arguments(call, local)
            if (tracked := key_name(arg)) is not None
        ]

    def _imported_arguments(self, call: ast.Call, local: str) -> list[tuple[str, ast.AST]]:
        """(key parameter, the argument the call passes it) for the imported helper `local`."""
        out = []
        for name, pos in self.imported[local]:
            arg = None
            if 0 <= pos < len(call.args):
                if any(isinstance(a, ast.Starred) for a in call.args[: pos + 1]):
                    continue
                arg = call.args[pos]
            else:
                arg = next((kw.value for kw in call.keywords if kw.arg == name), None)
            if arg is not None:
                out.append((name, arg))
        return out

    def _helper_consumptions(self, call: ast.Call, target: ast.AST) -> list[str]:
        """The keys `call` passes to the key parameters of `target`, a def of this module (the
        part of `consumed_names` that grows while `_summarize` runs)."""
        if target not in self.consuming_params:
            return []
        consumed = self.consuming_params[target]
        passed = self._callee_arguments(call, target)
        guards = self.consuming_guards.get(target, {})
        skipped = {
            name
            for name, guard in guards.items()
            if call_skips(guard, dict(passed), target)  # the call's literals skip the reads
        }
        return [
            key_name(arg)  # type: ignore[misc]
            for name, arg in passed
            if name in consumed and name not in skipped and key_name(arg)
        ]

    def _callee_arguments(self, call: ast.Call, target: ast.AST) -> list[tuple[str, ast.AST]]:
        """(parameter of the def `target`, the argument `call` passes it), positional ones
        up to the first `*args`, then keywords (`self`/`cls` of a method skipped)."""
        params = [a.arg for a in (*target.args.posonlyargs, *target.args.args)]  # type: ignore[attr-defined]
        if (
            params
            and (isinstance(call.func, ast.Attribute) or getattr(target, "name", "") == "__init__")
            and params[0] in ("self", "cls")
        ):
            params = params[1:]
        out: list[tuple[str, ast.AST]] = []
        for name, arg in zip(params, call.args):
            if isinstance(arg, ast.Starred):
                break
            out.append((name, arg))
        out += [(kw.arg, kw.value) for kw in call.keywords if kw.arg]
        return out

    def _attr_consumptions(self, call: ast.Call, target: ast.AST | None) -> list[str]:
        """`sampler.run()` where `run` splits `self.rng_key` and never stores the new key
        back: the call consumes `sampler.rng_key` (and `self.run()` consumes `self.rng_key`),
        so a second call draws the same numbers."""
        attrs = self.consuming_attrs.get(target) if target is not None else None  # type: ignore[arg-type]
        func = call.func
        if not attrs or not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return []
        return [f"{func.value.id}.{attr}" for attr in sorted(attrs)]

    def _find_dropped_splits(self) -> None:
        """Methods that split a key kept on `self` into a new key that is never read and
        never stored back (`rng_key, sub = split(self.rng_key)` with no `self.rng_key = ...`
        anywhere in the class but `__init__`): every call starts from the same key."""
        stored_in: dict[ast.ClassDef, set[str]] = {}  # per class, built once (was per method)
        for fn in self.index.functions:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name == "__init__":
                continue
            args = [*fn.args.posonlyargs, *fn.args.args]
            if not args or args[0].arg != "self":
                continue
            cls = syntax.parent(fn)
            if not isinstance(cls, ast.ClassDef) or not self._may_run_repeatedly(fn):
                continue
            for node in walk_function(fn):
                if not (
                    isinstance(node, ast.Assign)
                    and isinstance(node.value, ast.Call)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], (ast.Tuple, ast.List))
                    and random_function(self.index, node.value) == "split"
                ):
                    continue
                name = key_name(key_argument(node.value))
                if name is None or not name.startswith("self.") or name.count(".") != 1:
                    continue
                attr = name.split(".", 1)[1]
                stored = stored_in.get(cls)
                if stored is None:
                    stored = stored_in[cls] = {
                        n.split(".", 1)[1]
                        for m in cls.body
                        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and m.name != "__init__"
                        for n in self._bound(m)
                        if n.startswith("self.")
                    }
                if attr in stored:
                    continue
                if attr in self._copied_fields(fn):
                    # `return self.replace(rng=new_rng)`: the new key lives in the returned
                    # copy, so a caller that rebinds the object (`agent = agent.update(b)`)
                    # starts from a fresh key; calling the method twice on one object still
                    # draws twice from its key (the call consumes `agent.rng`)
                    self.consuming_attrs.setdefault(fn, set()).add(attr)
                    continue
                targets = [t.id for t in node.targets[0].elts if isinstance(t, ast.Name)]
                if any(t != "_" and not self._read_after(fn, t, node) for t in targets):
                    self.consuming_attrs.setdefault(fn, set()).add(attr)
                    self._dropped_splits.append((fn, attr, node.value))

    def _may_run_repeatedly(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A method whose dropped split matters: it may run more than once per state of the
        object. A public method (or `__call__`) may: its user calls it again. A private one
        (`_init_state`) only if a method of this module calls it (`self._init_state(...)`)
        outside `ONCE_PER_STATE_METHODS`; called only by `fit` or `__init__`, or by nothing
        here (a base class elsewhere calls it: how often is unknown), it starts from the seed
        once per state, which is what a seed is for (v36 candidate prosemble
        `models/oc_gtlvq.py:165`, `svq_occ_t.py:207`, JAX201 x2, tuning material)."""
        name = fn.name
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            return True
        for call in self.index.calls:
            func = call.func
            if not (
                isinstance(func, ast.Attribute)
                and func.attr == name
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
                continue
            caller = syntax.enclosing_function(call, stop_at_class=True)
            if caller is None or getattr(caller, "name", "") not in ONCE_PER_STATE_METHODS:
                return True
            if any(
                isinstance(up, (ast.For, ast.AsyncFor, ast.While, *COMPREHENSIONS))
                for up in syntax.ancestors(call)
                if syntax.contains(caller, up)
            ):
                return True  # `fit` that restarts it every epoch
        return False

    def _copied_fields(self, fn: ast.AST) -> set[str]:
        """Fields of `self` that the method `fn` writes into a copy of `self`: a functional
        object's update (a flax `struct.PyTreeNode` / `struct.dataclass`, a chex dataclass,
        a NamedTuple) returns `self.replace(rng=new_rng)` (or `self._replace(...)`,
        `dataclasses.replace(self, rng=...)`, equinox's `eqx.tree_at(lambda s: s.rng, self,
        new)`) instead of assigning `self.rng`; the copy carries the new value."""
        out: set[str] = set()
        for node in walk_function(fn):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in COPY_METHODS
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
            ):
                out.update(kw.arg for kw in node.keywords if kw.arg)
                continue
            q = self.index.qualname(func)
            if q == DATACLASS_REPLACE and node.args and _is_self(node.args[0]):
                out.update(kw.arg for kw in node.keywords if kw.arg)
            elif q == EQX_TREE_AT and len(node.args) >= 2 and _is_self(node.args[1]):
                if isinstance(node.args[0], ast.Lambda):
                    out.update(_lambda_fields(node.args[0]))
        return out

    def _report_dropped_splits(self) -> None:
        """A dropped split whose method no call site of this module was found repeating (the
        object comes from elsewhere, a parameter, a loop): reported on the split itself, as
        kind "dropped": every call of the method starts from the same `self.<attr>`."""
        for fn, attr, split in self._dropped_splits:
            seen = any(
                r.kind == "twice"
                and r.name.endswith(f".{attr}")
                and isinstance(r.node, ast.Call)
                and self.resolve_callee(r.node) is fn
                for r in self._reuses
            ) or any(r.kind == "loop" and r.name.endswith(f".{attr}") for r in self._reuses)
            if not seen:
                how = getattr(fn, "name", "")
                self._reuses.append(Reuse(f"self.{attr}", split, split, "dropped", how=how))

    def _read_after(self, fn: ast.AST, name: str, stmt: ast.stmt) -> bool:
        """Some load of `name` in `fn` may see the value `stmt` binds (the flow graph's
        use-def map: a later load after a rebinding does not, a load earlier in a loop body
        does); unknown (the name is not tracked) counts as read."""
        read = self.flow.graph(fn).binding_read(name, stmt)
        return read is None or read

    def consumed_names(self, call: ast.Call) -> list[str]:
        known = self._fixed_consumptions.get(call)
        if known is None:
            # what the call draws itself, through a library or through an imported helper,
            # and the def of this module it runs: the same in every round of `_summarize` and
            # in the walk (only the consumptions of this module's defs grow, with
            # `consuming_params` and `consuming_attrs`)
            direct = self._direct_consumption(call)
            fixed = ([direct] if direct else []) + self._library_consumptions(call)
            if any("." in n for n in fixed):
                if self._attributes is None:
                    self._attributes = ModuleAttributes(self.index, self.key_properties)
                fixed = [n for n in fixed if not self._attributes.computed(n)]
            target = self.resolve_callee(call)
            if target is None:
                fixed = fixed + (self._imported_consumptions(call) if self.imported else [])
            known = self._fixed_consumptions[call] = (fixed, target)
        fixed, target = known
        if target is not None:
            fixed = fixed + self._helper_consumptions(call, target)
        if self.consuming_attrs:
            return fixed + self._attr_consumptions(call, target)
        return fixed if target is not None else list(fixed)

    def _library_consumptions(self, call: ast.Call) -> list[str]:
        """Keys a library constructor or initialiser draws from (key_terms tables):
        `eqx.nn.Linear(..., key=k)`, `model.init(k, x)`, `model.init({"params": k1}, x)`,
        `model.apply(params, x, rngs={"dropout": k})`, haiku's `f.apply(params, k, x)`."""
        q = self.index.qualname(call.func)
        if q is not None:
            for prefix, keyword in KEY_CONSUMING_CONSTRUCTORS.items():
                if q.startswith(prefix):
                    return [
                        n
                        for kw in call.keywords
                        if kw.arg == keyword
                        for n in [key_name(kw.value)]
                        if n is not None
                    ]
            if q.startswith("jax."):
                return []
        func = call.func
        if self._layer_instance(func) in KEY_CONSUMING_LAYER_CALLS:
            return [n for kw in call.keywords if kw.arg == "key" for n in [key_name(kw.value)] if n]
        if not isinstance(func, ast.Attribute) or func.attr not in KEY_CONSUMING_METHODS:
            return []
        if self.init_draws_nothing(call):
            return []  # a LayerNorm, a fixed sine/cosine bank: `init` never reads the key
        for kw in call.keywords:
            flag = DETERMINISTIC_FLAGS.get(kw.arg or "")
            if flag is not None and isinstance(kw.value, ast.Constant) and kw.value.value is flag:
                return []  # `apply(..., deterministic=True)`: no dropout drawn
        positions, keywords = KEY_CONSUMING_METHODS[func.attr]
        out: list[str] = []
        for pos in positions:
            if pos < len(call.args) and not any(
                isinstance(a, ast.Starred) for a in call.args[: pos + 1]
            ):
                out += self._keys_in(self._streams(call.args[pos], func.attr), known_only=True)
        for kw in call.keywords:
            if kw.arg in keywords:
                out += self._keys_in(self._streams(kw.value, func.attr), known_only=False)
        return out

    def _streams(self, rngs: ast.AST, method: str) -> ast.AST:
        """The rng streams of a flax `init`/`apply` that its kept results depend on. `init`
        keeps the variables, whose parameters come from the `"params"` stream; the other
        streams (`"dropout"`) only draw for its forward pass, whose output `init` discards
        (`init_with_output` keeps it). `apply` makes no parameters: it reads the other streams.
        So `v.init(rngs, x)` then `v.apply(p, x, rngs=rngs)` with `rngs = {"params": k1,
        "dropout": k2}` share nothing that is kept (vit-flax, 16 rows). A dict display, or a
        name bound once to one; anything else is the key as given."""
        display = rngs
        if isinstance(rngs, ast.Name):
            found = self.index.lookup(rngs.id, self.index.scope_of(rngs))
            if found and len(found) == 1 and found[0].kind == "assign":
                display = found[0].value  # type: ignore[assignment]
        if method not in ("init", "apply") or not isinstance(display, ast.Dict):
            return rngs
        keys = [k.value if isinstance(k, ast.Constant) else None for k in display.keys]
        if None in keys:
            return rngs  # `**other` or a computed stream name: as given
        keep = [
            (k, v)
            for k, v in zip(display.keys, display.values)
            if (k.value == "params") == (method == "init")
        ]  # type: ignore[union-attr]
        return ast.Dict(keys=[k for k, _ in keep], values=[v for _, v in keep])

    def _layer_instance(self, func: ast.AST) -> str | None:
        """The library class whose instance `func` is: `drop` after `drop = eqx.nn.Dropout(p)`,
        `self.dropout` after `self.dropout = eqx.nn.Dropout(p)` in the class."""
        value: ast.AST | None = None
        if isinstance(func, ast.Name):
            b = self.index.binding(func.id, self.index.scope_of(func))
            value = b.value if b is not None and b.kind == "assign" else None
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            fn = self.index.enclosing_function(func)
            cls = syntax.parent(fn) if fn is not None else None
            if isinstance(cls, ast.ClassDef):
                # the first value assigned in the class (the call graph's table, one walk
                # per class: a walk per `self.x(...)` call was quadratic in the class)
                value = next(
                    (v for v in self.calls.self_assignments(cls).get(func.attr, []) if v),
                    None,
                )
        if isinstance(value, ast.Call):
            return self.index.qualname(value.func)
        return None

    def _keys_in(self, expr: ast.AST, known_only: bool) -> list[str]:
        """The tracked keys an argument holds: the key itself or the values of a dict display
        (`{"params": k1, "dropout": k2}`); with `known_only`, only expressions known to be
        keys (made by `jax.random` here, or named like a key)."""
        values = [v for v in expr.values if v is not None] if isinstance(expr, ast.Dict) else [expr]
        out = []
        for value in values:
            name = key_name(value)
            if name is None:
                continue
            if known_only and not (keyish_name(name) or self.key_kind(value) is not None):
                continue
            out.append(name)
        return out

    def _summarize(self) -> None:
        """Parameters each function consumes (to a fixed point through helpers)."""
        bodies = []
        for fn in self.index.functions:
            events = sorted(
                # `isinstance` by exact class: the parser makes no subclasses of these
                [node for node in walk_function(fn) if type(node) in _EVENT_TYPES],
                # source order; an assignment after the calls of its value
                # (`key, sub = split(key)` consumes the parameter, then rebinds it)
                key=lambda n: (n.end_lineno, n.end_col_offset, not isinstance(n, ast.Call)),
            )
            if any(isinstance(e, ast.Call) for e in events):
                bodies.append((fn, events))
        dead: dict[int, bool] = {}  # per `jax.random` call: asked once, not per round
        for _ in range(4):
            changed = False
            for fn, events in bodies:
                params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}  # type: ignore[attr-defined]
                rebound = set()
                used = set()
                guards: dict[str, list[LiteralGuard | None]] = {}
                for node in events:
                    if isinstance(node, ast.Call):
                        names = [
                            n for n in self.consumed_names(node) if n in params and n not in rebound
                        ]
                        if names and self._dead_random_call(node, dead):
                            # `keys = split(key, n)` that nothing reads (or only hands to a
                            # parameter nobody reads): the helper draws nothing from its key
                            continue
                        for n in names:
                            used.add(n)
                            guards.setdefault(n, []).append(literal_guard(node, fn, params - {n}))
                    else:
                        for t in assigned_key_names(node):
                            rebound.add(t)
                kept = {n: g for n, g in ((n, joined(gs)) for n, gs in guards.items()) if g}
                if kept != self.consuming_guards.get(fn, {}):
                    if kept:
                        self.consuming_guards[fn] = kept
                    else:
                        self.consuming_guards.pop(fn, None)
                    changed = True
                if used - self.consuming_params.get(fn, set()):
                    self.consuming_params[fn] = self.consuming_params.get(fn, set()) | used
                    changed = True
            if not changed:
                break

    def _find_loop_bodies(self) -> set[ast.AST]:
        bodies: set[ast.AST] = set()
        for call in self.index.calls:
            q = self.index.qualname(call.func)
            if q in LOOP_BODY_TRANSFORMS:
                pos = {"jax.lax.fori_loop": 2, "jax.lax.while_loop": 1}.get(q, 0)
                if pos < len(call.args):
                    fn = self.index.resolve_function(call.args[pos])
                    if fn is not None:
                        bodies.add(fn)
        return bodies

    def _bound(self, node: ast.AST) -> set[str]:
        key = id(node)
        if key not in self._bound_cache:
            self._bound_cache[key] = key_names_bound_in(node)
        return self._bound_cache[key]

    # -- path-sensitive walk ------------------------------------------------------------------
    # `state` maps a key name to its first consumption on the current path (None: fresh) and
    # DERIVED + name to the `split`/`fold_in` derivations made from it so far. Control flow is
    # the shared walker's (analysis/flow/walker.py); `_KeyWalker` below only says what one
    # statement does (`transfer`), with expressions evaluated by `_expr`.
    def _walk_all(self) -> None:
        walker = self._walker = _KeyWalker(self)
        walker.walk(self.index.tree.body, {})
        for fn in self.index.functions:
            state: dict[str, object] = {}
            if isinstance(fn, ast.Lambda):
                self._expr(fn.body, state, [], fn)
            else:
                walker.fn = fn
                walker.walk(fn.body, state)

    def _walk_returns(self) -> None:
        """The walk for `returned_keys` alone, when no rule asks for `reuses` or
        `collisions` (`ModuleFacts.key_reuses`: the project summary's `key_returns`). Only a
        top-level def records a returned key, and only where its own `return <value>` sees a
        key consumed in its own statements (the walk of each def starts from an empty state),
        so the other defs, the module's statements and the defs with no such return or no
        consuming call are not walked; the walked ones skip what only reuses and collisions
        need (`_returns_only`: the checks of a second consumption, the derivations, the keys
        stored in attributes). The key state at each `return` is the whole walk's."""
        walker = self._walker = _KeyWalker(self)
        tree, consumed, defs = self.index.tree, self.consumed_names, _DEF_CLASSES
        self._returns_only = True
        for fn in self.index.functions:
            if type(fn) not in defs or syntax.parent(fn) is not tree:
                continue
            own = walk_function(fn)  # kept on the def by `_summarize`
            if any(type(n) is _RETURN and n.value is not None for n in own) and any(  # type: ignore[attr-defined]
                type(n) is _CALL and consumed(n) for n in own
            ):
                walker.fn = fn
                walker.walk(fn.body, {})
        self._returns_only = False

    @staticmethod
    def _rebind(state: dict, name: str) -> None:
        """`name` holds a fresh key (a missing entry is a fresh key: states stay small, which
        keeps the copies at every branch cheap)."""
        state.pop(name, None)
        state.pop(DERIVED + name, None)
        prefixes = (name + "[", name + ".")
        for k in [k for k in state if k.startswith(prefixes)]:
            del state[k]

    @staticmethod
    def _join(state: dict, others: list[dict]) -> None:
        """Where paths meet: a key consumed on any of them counts as consumed (the first
        path's consumption is kept as the one to cite)."""
        for other in others:
            for k, v in other.items():
                if v is not None and state.get(k) is None:
                    state[k] = v

    def _simple(self, node: ast.stmt, state, loops, fn) -> None:  # noqa: ANN001
        """A simple statement: evaluate the value, then rebind the targets."""
        if isinstance(node, FUNCTION_NODES) or isinstance(node, ast.ClassDef):
            return  # walked on their own
        for child in syntax.child_nodes(node):  # `ast.iter_child_nodes`, the same order
            if type(child) in _EXPRESSIONS and not _is_target(node, child):
                self._expr(child, state, loops, fn)
        if isinstance(node, ast.Return) and node.value is not None and fn is not None:
            if self._returns_only:
                self._returned(node.value, state, fn)
            else:
                self._escapes(node.value, state, "returned", fn)
        elif isinstance(node, ast.Assign) and fn is not None and not self._returns_only:
            stores = [t for t in node.targets if isinstance(t, ast.Attribute)]
            if stores:
                self._escapes(node.value, state, f"stored in `{_text(stores[0])}`")
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in assigned_key_names(node):
                self._rebind(state, t)

    def _expr(self, node: ast.AST, state, loops, fn) -> None:  # noqa: ANN001
        # evaluation order: arguments before the call itself
        stack = [node]
        calls: list[ast.Call] = []
        while stack:
            cur = stack.pop()
            cls = type(cur)  # exact classes: the parser makes no subclasses
            if cls in _FUNCTION_CLASSES:
                continue
            if cls in _COMPREHENSION_CLASSES:
                self._comprehension(cur, state, loops, fn)  # type: ignore[arg-type]
                continue
            if cls is _CALL:
                calls.append(cur)  # type: ignore[arg-type]
            elif cls is _IFEXP:
                # both branches cannot run together: walk them on copies
                self._expr(cur.test, state, loops, fn)
                a, b = dict(state), dict(state)
                self._expr(cur.body, a, loops, fn)
                self._expr(cur.orelse, b, loops, fn)
                self._join(state, [a, b])
                continue
            stack.extend(syntax.child_nodes(cur))  # `ast.iter_child_nodes`, the same order
        for call in sorted(calls, key=lambda c: (c.end_lineno, c.end_col_offset, -c.lineno)):
            self._derive(call, state)
            consumed = self.consumed_names(call)
            for name in consumed:
                self._consume(name, call, state, loops, fn)
            func = call.func
            if isinstance(func, ast.Attribute) and fn is not None:
                if func.attr in RECORD_METHODS and call.keywords:
                    if self._returns_only:
                        continue  # a key stored by the call: a reuse only
                    for kw in call.keywords:
                        if kw.arg is not None:
                            how = f"stored by `.{func.attr}({kw.arg}=...)`"
                            self._escapes(kw.value, state, how)
                elif isinstance(func.value, ast.Name) and random_function(self.index, call) is None:
                    # `self.refresh()` may rebind `self.key`: forget what we knew about it
                    # (not what the call itself consumed: `sampler.run()` splits and drops
                    # `self.rng_key`, it never stores it back)
                    prefix = func.value.id + "."
                    for k in [k for k in state if k.startswith(prefix) and k not in consumed]:
                        del state[k]

    def _escapes(self, value: ast.AST, state, how: str, fn=None) -> None:  # noqa: ANN001
        """A consumed key handed on (returned, stored in a state object or attribute): whoever
        receives it (the caller, the next iteration of a `scan` body) consumes it again,
        unless every caller of the returning function discards it (analysis/result_uses.py)."""
        stack = [value]
        while stack:
            cur = stack.pop()
            name = key_name(cur)
            if name is not None:
                first = state.get(name)
                if isinstance(first, ast.Call) and id(cur) not in self._escaped:
                    self._escaped.add(id(cur))
                    if how == "returned" and handed_to_backward(self.index, fn, value, cur):
                        continue
                    if not self._returned_unread(value, cur, fn):
                        self._reuses.append(Reuse(name, cur, first, "escape", how=how))
                continue
            if isinstance(cur, (ast.Tuple, ast.List, ast.Set)):
                stack.extend(cur.elts)
            elif isinstance(cur, ast.Dict):
                stack.extend(v for v in cur.values if v is not None)
            elif isinstance(cur, ast.Starred):
                stack.append(cur.value)
            elif isinstance(cur, ast.IfExp):
                stack.extend((cur.body, cur.orelse))
            elif (
                isinstance(cur, ast.Call)
                and not (isinstance(cur.func, ast.Attribute) and cur.func.attr in RECORD_METHODS)
                and self._container_call(cur)
                # `self.linear = eqx.nn.Linear(..., key=key)` draws from the key, keeps none
                and not self._library_consumptions(cur)
            ):
                stack.extend(a for a in cur.args)
                stack.extend(kw.value for kw in cur.keywords)

    def _returned(self, value: ast.AST, state, fn: ast.AST) -> None:  # noqa: ANN001
        """`_escapes` of a returned value for `returned_keys` alone: only the value itself
        or an element of a returned tuple is recorded there (`_returned_unread`)."""
        items = value.elts if key_name(value) is None and type(value) is ast.Tuple else (value,)  # type: ignore[attr-defined]
        for cur in items:
            name = key_name(cur)
            if name is not None and isinstance(state.get(name), ast.Call):
                self._returned_position(value, cur, fn)

    def _returned_position(self, value: ast.AST, key: ast.AST, fn: ast.AST | None) -> int | None:
        """The position of `key` in the value `fn` returns (`WHOLE`: the value itself), kept
        in `returned_keys` for a top-level def; None when neither."""
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if key is value:
            position = WHOLE
        elif isinstance(value, ast.Tuple) and any(e is key for e in value.elts):
            position = next(i for i, e in enumerate(value.elts) if e is key)
        else:
            return None
        if syntax.parent(fn) is self.index.tree:
            self.returned_keys.setdefault(fn.name, set()).add(position)
        return position

    def _returned_unread(self, value: ast.AST, key: ast.AST, fn: ast.AST | None) -> bool:
        """`key`, returned by the top-level function `fn` as `value` or one of its elements,
        is discarded by every caller the project can see. Kept in `returned_keys` either way
        (the module's summary: whether importers read it decides its seeds)."""
        position = self._returned_position(value, key, fn)
        if position is None:
            return False
        length = (
            len(value.elts)
            if isinstance(value, ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in value.elts)
            else None
        )
        return discarded_by_callers(fn, position, self.index, self.return_uses, length)

    def _comprehension(self, node: ast.AST, state, loops, fn) -> None:  # noqa: ANN001
        """A loop: its targets are fresh each iteration; outer keys consumed in it are reused."""
        gens = node.generators  # type: ignore[attr-defined]
        self._expr(gens[0].iter, state, loops, fn)
        local = {n for g in gens for n in key_target_names(g.target)}
        inner = dict(state)
        for name in local:
            self._rebind(inner, name)
        parts: list[ast.AST] = [g.iter for g in gens[1:]] + [c for g in gens for c in g.ifs]
        if isinstance(node, ast.DictComp):
            parts += [node.key, node.value]
        else:
            parts.append(node.elt)  # type: ignore[attr-defined]
        for part in parts:
            self._expr(part, inner, [*loops, node], fn)
        for k, v in inner.items():
            if v is not None and base_name(k.removeprefix(DERIVED)) not in local:
                if state.get(k) is None:
                    state[k] = v

    def _derive(self, call: ast.Call, state) -> None:  # noqa: ANN001
        """Record `split`/`fold_in` derivations from a parent key; report collisions."""
        if self._returns_only:
            return  # the derivations are kept for collisions only
        fn = random_function(self.index, call)
        if fn not in ("split", "fold_in"):
            return
        name = key_name(key_argument(call))
        if name is None:
            return
        data: tuple | None = None
        if fn == "split":
            num = call.args[1] if len(call.args) > 1 else None
            for kw in call.keywords:
                if kw.arg == "num":
                    num = kw.value
            if num is None:
                data = ("count", 2, None)
            elif isinstance(num, ast.Constant) and isinstance(num.value, int):
                data = ("count", num.value, num)
            else:
                data = ("count", None, num)
        else:
            arg = call.args[1] if len(call.args) > 1 else None
            if arg is None:
                for kw in call.keywords:
                    if kw.arg == "data":
                        arg = kw.value
            if arg is None:
                return
            data = (
                ("const", arg.value, arg) if isinstance(arg, ast.Constant) else ("expr", None, arg)
            )
        earlier: tuple = state.get(DERIVED + name) or ()  # type: ignore[assignment]
        for kind, other_data, other in earlier:
            if other is not call and _collide(fn, data, kind, other_data):
                self._collisions.append(Collision(name, call, other))
                break
        state[DERIVED + name] = (*earlier, (fn, data, call))

    def _consume(self, name: str, call: ast.Call, state, loops, fn) -> None:  # noqa: ANN001
        if self._shape_only_draw(call) or self._unread_products(call):
            return  # its numbers reach nothing (shape_only.py, key_products.py)
        if self._walker is not None and self._walker.infeasible:
            return  # an arm no run takes (`if stochastic:` on a jit flag: walker.branch_test)
        if self._returns_only:
            state[name] = call  # what every path below leaves, less the reuses
            return
        first = state.get(name)
        if first is not None and self._dead_draw(first):  # type: ignore[arg-type]
            first = None  # its keys or samples are never read: it correlates with nothing
        if first is not None and first is not call and self._dead_draw(call):
            # nor does a later one whose keys or samples nothing reads (a leftover `sample_rng,
            # rng = split(rng)` after the step that consumed `rng`: v34 latent_diffusion_planning
            # JAX201 x2); the earlier consumption stays the one a later draw is compared with
            return
        if first is not None and first is not call:
            if (
                not self._same_helper_call(first, call)  # type: ignore[arg-type]
                and not self._aligned_draws(first, call)  # type: ignore[arg-type]
                and not self._exclusive_operands(first, call)  # type: ignore[arg-type]
                and not exclusive_guards(first, call, fn)
                and not self._split_children.disjoint(first, call)
                and not self._deliberate_copy(first, call, fn)  # type: ignore[arg-type]
                and not self._recomputes_primal(first, call, fn)  # type: ignore[arg-type]
                and not self._inverse_transform(first, call)  # type: ignore[arg-type]
                and not self._independent_streams(first, call)  # type: ignore[arg-type]
                and not compared_only(first, call, self.index)  # type: ignore[arg-type]
            ):
                self._reuses.append(Reuse(name, call, first, "twice"))  # type: ignore[arg-type]
            state[name] = call  # the latest consumption, for the next comparison
            return
        state[name] = call
        # from the innermost loop out: a call that runs on one step of a loop (`if step == 0:`)
        # still runs again on each step of an enclosing loop that does not rebind the key
        for loop in reversed(loops):
            bound = self._bound(loop)
            if name in bound or base_name(name) in bound:
                return
            # `for shape in shapes: normal(key, shape)` draws per-configuration inputs;
            # a body that always leaves the loop (`while True: ...; break`) runs once; a
            # timing loop repeats the same inputs on purpose (loops.benchmark_loop)
            if (
                self._per_configuration(call, loop, bound)
                or benchmark_loop(self.index, loop)
                or element_per_step(call, bound)
            ):
                return
            if self._runs_again(call, loop, name):
                # asked last, for a repeat about to be reported: it walks the loop
                # a split whose keys nothing reads (`_, *subkeys = split(key, 3)`, the parts
                # unused: v38 superdiff-ldm utils/viz.py:32) repeats no numbers anyone sees
                if not product_unread_in_loop(self.index, call, loop) and not self._dead_draw(call):
                    once = runs_once_in(loop, call, self.index)  # another arm draws from it too
                    self._reuses.append(
                        Reuse(name, call, None, "loop", loop, "arms" if once else "")
                    )
                return
            if not runs_once_in(loop, call, self.index):
                return  # one step for another reason (`for s in [256]`, a body that breaks)
        if loops:
            return
        if fn is not None and fn in self._loop_bodies and not loops:
            params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}  # type: ignore[attr-defined]
            local = self._bound(fn)
            if base_name(name) not in params and base_name(name) not in local:
                self._reuses.append(Reuse(name, call, None, "closure", fn))

    def _runs_again(self, call: ast.Call, loop: ast.AST, name: str) -> bool:
        """The statement holding `call` may run again after itself (a later step of the `for`
        or `while` statement `loop`), by the flow graph; a comprehension's element, or a
        statement the graph does not place, is taken to run again. A call under an arm that
        holds on one step (`loops.runs_once_in`) runs once, but when another call of the
        loop consumes the same key (another arm of `if name == "a": ... elif name == "b":`)
        the two draw from one key on two steps: that is reported."""
        if runs_at_most_once(loop, self.index):
            return False  # `for s in [256 * 1024 * 1024]`: one step
        stmt = statement_of(call)
        if stmt is None or not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            return True
        if runs_once_in(loop, call, self.index) and not self._other_consumer(loop, call, name):
            return False  # `if n == 1:` in `for n in [0, 1]:`, a lazy initialiser
        graphs = flow_graphs(self.index)
        graph = graphs.graph(graphs.owner(stmt))
        if stmt not in graph.spans:
            return True
        return graph.may_run_after(stmt, stmt)

    def _other_consumer(self, loop: ast.AST, call: ast.Call, name: str) -> bool:
        """Some call of `loop` other than `call` consumes the key `name`."""
        return any(
            isinstance(n, ast.Call) and n is not call and name in self.consumed_names(n)
            for n in ast.walk(loop)
        )

    @cached_property
    def _constants(self) -> ModuleConstants:
        """The module's own constants (`EPOCHS = 400`), for loop trip counts."""
        return ModuleConstants(self.index, {})

    @cached_property
    def _split_children(self) -> SplitChildren:
        """`split(k)[1]` then `split(k)[0]`: one split written twice (key_children.py)."""
        return SplitChildren(self.index)

    def _dead_random_call(self, call: ast.Call, known: dict[int, bool]) -> bool:
        """A `jax.random` call whose value nothing reads (`_dead_draw`), remembered in `known`
        (its answer does not depend on the summaries being computed)."""
        if random_function(self.index, call) is None:
            return False
        found = known.get(id(call))
        if found is None:
            found = known[id(call)] = self._dead_draw(call)
        return found

    def _dead_draw(self, call: ast.Call) -> bool:
        """A `jax.random` call (pure, unlike a helper) whose result nothing reads: a discarded
        `split` or sample is neither use of a key consumed twice (analysis/deadness.py).
        So is a call of a helper of this module whose key-derived return elements are all
        bound to names that are dead at the call site (key_products.py): the helper's draws
        reach nothing in use."""
        if random_function(self.index, call) is not None:
            value = self._through_pure_calls(call)
            return value_is_dead(value, self.index) or self._only_ignored(value)
        if self._discarded_compiled_call(call):
            return True
        paths = self._derived_paths(call)
        return paths is not None and products_dead(call, paths, self.index)

    def _discarded_compiled_call(self, call: ast.Call) -> bool:
        """A call of a jitted def of this module whose value is dropped or only waited for
        (key_products.dropped_compiled_call)."""
        target = self.resolve_callee(call)
        t = self.calls.target(call)
        aliased = t is not None and t.kind is CallKind.TRANSFORMED and bool(t.through_name)
        return dropped_compiled_call(self.index, call, target, aliased=aliased)

    def _only_ignored(self, value: ast.expr) -> bool:
        """`value` is bound to one name whose every load is an argument its callee never
        reads (`CallGraph.ignored_argument`: `keys = split(k); vmap(reset)(keys)` with a
        `reset` that ignores its key): the draw reaches nothing in use. A module-level
        name counts too (a notebook's cells): an importer reading a split's children from a
        script is not a use this module's key flow could see either way."""
        loads = loads_of_value(value, self.index, own_module=True)
        return bool(loads) and all(self.calls.ignored_argument(load) for load in loads)

    def _unread_products(self, call: ast.Call) -> bool:
        """A helper call whose result is read only under dict keys that hold nothing derived
        from its keys (`init(key, ...)["cfg"]`: key_products.py): it consumes nothing."""
        if random_function(self.index, call) is not None:
            return False
        paths = self._derived_paths(call)
        return paths is not None and products_unread(call, paths, self.index)

    def _independent_streams(self, first: ast.Call, call: ast.Call) -> bool:
        """One of the two is a flax.linen `init`/`apply` (it draws only from keys folded with
        module paths: `folds_module_paths`) and the other a `jax.random` function called on
        the key itself: their numbers are independent."""
        pair = (first, call)
        return any(
            self.folds_module_paths(a) and random_function(self.index, b) is not None
            for a, b in (pair, pair[::-1])
        )

    def _through_pure_calls(self, call: ast.Call) -> ast.expr:
        """The outermost of the pure array functions (`jax.numpy`, `jax.lax`, `jax.nn`) that
        `call`'s value is an argument of: `jnp.sort(uniform(k, s))` is dead when the sort is
        (v15 rows, tuning material: jaxsnn test_event_modules_external_events.py:65-69,
        `spike_times = jnp.sort(uniform(data_rng, ...))` rebound before any read, JAX201)."""
        node: ast.expr = call
        while True:
            up = syntax.parent(node)
            if isinstance(up, (ast.BinOp, ast.UnaryOp)):
                node = up  # `normal(k, s) * scale`: arithmetic on the draw (v18 rows: flowMC)
                continue
            if not (isinstance(up, ast.Call) and any(a is node for a in up.args)):
                return node
            q = self.index.qualname(up.func) or ""
            if not q.startswith(("jax.numpy.", "jax.lax.", "jax.nn.")):
                return node
            node = up

    def _shape_only_draw(self, call: ast.Call) -> bool:
        """A `jax.random` draw whose numbers nobody reads, only its shape: the example input
        of a module's `init` (`net.init(k, uniform(k, shape))`), or a value whose only reads
        are `.shape` / `.dtype` (analysis/shape_only.py)."""
        if random_function(self.index, call) in (None, *NON_CONSUMING, "split", "fold_in"):
            return False
        return read_only_for_shape(call, self.index, self._example_input)

    def _example_input(self, call: ast.Call, arg: ast.expr) -> bool:
        """`arg` is a data argument of a module's `init` (flax linen, haiku): `init` runs the
        forward pass on it for the shapes and discards the output. The call is an `init`
        whose first argument is a known key (or that proves to draw nothing), and `arg` is
        not the key."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "init") or not call.args:
            return False
        if arg is call.args[0] or any(
            kw.value is arg and kw.arg in (None, "rngs", "method", "mutable")
            for kw in call.keywords
        ):
            return False
        first = call.args[0]
        if isinstance(first, ast.Call) and (self.index.qualname(first.func) or "").startswith(
            "jax.random."
        ):
            return True  # `net.init(jax.random.PRNGKey(1), x)`
        return bool(self._library_consumptions(call)) or self.init_draws_nothing(call)

    def _derived_paths(self, call: ast.Call) -> frozenset[tuple[int | str, ...]] | None:
        """The return paths of the helper `call` runs that carry values derived from the key
        parameters it consumes; None when unknown."""
        target = self.resolve_callee(call)
        if target is None and self.imported_products:
            local = self._imported_helper(call.func)
            return self.imported_products.get(local) if local is not None else None
        if target is None or target not in self.consuming_params:
            return None
        if getattr(target, "name", "") == "__init__":
            return None  # a constructor returns the object, which may keep anything
        if id(target) not in self._paths_cache:
            self._paths_cache[id(target)] = derived_return_paths(
                self.index, target, self.consuming_params[target]
            )
        return self._paths_cache[id(target)]

    def _aligned_draws(self, first: ast.Call, second: ast.Call) -> bool:
        """`choice(key, x, (n,))` and `choice(key, y, (n,))`: the same index draw applied to two
        populations on purpose (images and labels stay aligned; `permutation(key, x)` and
        `permutation(key, y)` shuffle in unison). Every argument but the population is equal;
        the same population twice would be a plain repeat."""
        fn = random_function(self.index, first)
        if fn not in ALIGNABLE or random_function(self.index, second) != fn:
            return False
        a, b = _draw_arguments(first, fn), _draw_arguments(second, fn)
        if a is None or b is None or set(a) != set(b) or "population" not in a:
            return False
        if a["population"] == b["population"]:
            return a == b and self._index_two_arrays(first, second)
        return all(a[k] == b[k] for k in a if k != "population")

    def _index_two_arrays(self, first: ast.Call, second: ast.Call) -> bool:
        """Two equal index draws, each used only to index an array, and not the same array:
        `data[permutation(k, arange(n))]`, `masks[permutation(k, arange(n))]` shuffle two
        arrays in unison (v19 rows, tuning material: modded-nanogpt-jax path_graphs.ipynb
        cells 6-7, JAX201 x2)."""
        a, b = _indexed_by(first, self.index), _indexed_by(second, self.index)
        return bool(a) and bool(b) and not set(a) & set(b)  # type: ignore[arg-type]

    def _exclusive_operands(self, first: ast.Call, second: ast.Call) -> bool:
        """The two consumptions are in the two value operands of one elementwise selection
        (`jax.lax.select(c, f(key), g(key))`, `jnp.where(c, a(key), b(key))`): every element
        of the result comes from one of the draws only (key_terms `EXCLUSIVE_SELECTS`)."""
        a, b = self._select_operand(first), self._select_operand(second)
        if a is not None and b is not None and a[0] is b[0] and a[1] != b[1]:
            return True  # through names: `t = t_dist(k); j = normal(k); where(c, j, t)`
        for anc in syntax.ancestors(first):
            if isinstance(anc, ast.stmt):
                return False
            if not isinstance(anc, ast.Call):
                continue
            positions = EXCLUSIVE_SELECTS.get(self.index.qualname(anc.func) or "")
            if positions is None or len(anc.args) != 3 or anc.keywords:
                continue
            a, b = (anc.args[i] for i in positions)
            inside = {id(n) for n in ast.walk(a)}, {id(n) for n in ast.walk(b)}
            if (id(first) in inside[0] and id(second) in inside[1]) or (
                id(first) in inside[1] and id(second) in inside[0]
            ):
                return True
        return False

    def _select_operand(self, draw: ast.Call) -> tuple[ast.Call, int] | None:
        """The elementwise selection (`jnp.where`, `lax.select`) whose value operand `draw`'s
        value is, bound to a plain name whose every load is that operand (through arithmetic
        and pure array functions), and which operand; None otherwise (v18 rows, tuning
        material: seqjax jump_vol.py:179-182, v16's jaxcross kernels: JAX201)."""
        loads = loads_of_value(self._through_pure_calls(draw), self.index)
        if not loads or len(loads) != 1:
            return None
        select = syntax.parent(loads[0])
        if not isinstance(select, ast.Call) or select.keywords or len(select.args) != 3:
            return None
        positions = EXCLUSIVE_SELECTS.get(self.index.qualname(select.func) or "")
        if positions is None or not any(select.args[i] is loads[0] for i in positions):
            return None
        return select, next(i for i in positions if select.args[i] is loads[0])

    def _inverse_transform(self, first: ast.Call, second: ast.Call) -> bool:
        """`inverse_structured_rotation(y, rng)` after `structured_rotation(x, rng)`: the
        inverse must regenerate the forward transform's randomness from the same key (a
        split would break it). Recognised by the names: the second callee is the first one's
        name with an `inverse_`/`inv_`/`undo_` prefix."""
        a, b = _callee_last(first.func), _callee_last(second.func)
        if not a or not b:
            return False
        for prefix in ("inverse_", "inv_", "undo_"):
            if b.startswith(prefix) and b[len(prefix) :] == a:
                return True
        return False

    def _deliberate_copy(self, first: ast.Call, second: ast.Call, fn: ast.AST | None) -> bool:
        """The same key given twice on purpose: one library method called twice with the
        same arguments on the same object (`params=self.qf.init(k, obs), target_params=
        self.qf.init(k, obs)`: a target network that starts equal to the online one), or, in
        test code, two helper or library calls that both take the key (a test runs two
        implementations or two inputs with one key to compare them; direct `jax.random`
        draws twice are still reported)."""
        if random_function(self.index, first) or random_function(self.index, second):
            return False
        if (
            isinstance(first.func, ast.Attribute)
            and self.index.qualname(first.func) is None  # a method of an object, not `eqx.nn.X`
            and ast.dump(first) == ast.dump(second)
            and self._library_consumptions(first)
        ):
            return True
        return fn is not None and in_test_code(fn)

    def _recomputes_primal(self, first: ast.Call, second: ast.Call, fn: ast.AST | None) -> bool:
        """`fn` is a custom derivative rule of a function `f` (`@f.defjvp`, `f.defvjp(fwd,
        bwd)`) and one of the two consumers calls `f` itself: the rule recomputes the primal
        output and must draw the same noise again for the derivative to be right (v39
        chromatix `src/chromatix/ops/noise.py:30`: `approximate_shot_noise(key, image)`
        then `normal(key, image.shape)` in its JVP; JAX201, read FP: splitting there would
        make the derivative wrong)."""
        primal = derivative_rule_of(self.index, fn)
        if primal is None:
            return False
        return any(ast.dump(c.func) == primal for c in (first, second))

    def _same_helper_call(self, first: ast.Call, second: ast.Call) -> bool:
        """The same helper called twice with the same arguments: it recomputes the same
        values on purpose (a data iterator replayed, a determinism check), not a reuse bug."""
        if random_function(self.index, first) or random_function(self.index, second):
            return False
        a = self.index.resolve_function(first.func)
        return (
            a is not None
            and a is self.index.resolve_function(second.func)
            and (ast.dump(first) == ast.dump(second))
        )

    # -- key provenance (typed vs legacy) ----------------------------------------------------
    def key_kind(self, expr: ast.AST | None, _depth: int = 0) -> tuple[str, bool] | None:
        """("typed" | "legacy", single) when `expr` is a key made in this module.

        `single` is True for one key (`key(0)` has shape (), `PRNGKey(0)` shape (2,)) and
        False for an array of keys (`split(k, 3)`). None when unknown (a parameter, ...).
        """
        if expr is None or _depth > 6 or not self.active:
            # an inactive module calls no `jax.random` function: it makes no key
            return None
        cache_key = id(expr)
        if cache_key in self._kind_cache:
            return self._kind_cache[cache_key]
        self._kind_cache[cache_key] = None  # cycles resolve to unknown
        out = self._key_kind(expr, _depth)
        self._kind_cache[cache_key] = out
        return out

    def _key_kind(self, expr: ast.AST, depth: int) -> tuple[str, bool] | None:
        if isinstance(expr, ast.Call):
            fn = random_function(self.index, expr)
            if fn == "key":
                return ("typed", True)
            if fn == "PRNGKey":
                return ("legacy", True)
            if fn in ("fold_in", "clone"):
                return self.key_kind(key_argument(expr), depth + 1)
            if fn == "split":
                parent = self.key_kind(key_argument(expr), depth + 1)
                return (parent[0], False) if parent and parent[1] else None
            return None
        if isinstance(expr, ast.Subscript):
            parent = self.key_kind(expr.value, depth + 1)
            split = starred_split(self.index, expr.value) if parent is None else None
            if split is not None:  # `key, *subkeys = split(key, 4)`: `subkeys[0]` is one key
                made = self.key_kind(key_argument(split), depth + 1)
                parent = (made[0], False) if made and made[1] else None
            if (
                parent
                and not parent[1]
                and isinstance(expr.slice, ast.Constant)
                and isinstance(expr.slice.value, int)
            ):
                return (parent[0], True)
            return None
        if not isinstance(expr, ast.Name):
            return None
        found = self.index.lookup(expr.id, self.index.scope_of(expr))
        if not found:
            return None
        kinds = set()
        for b in found:
            if b.kind == "assign" and b.value is not None:
                kinds.add(self.key_kind(b.value, depth + 1))
            elif (
                b.kind == "local"
                and isinstance(b.node, ast.Assign)
                and isinstance(b.node.value, ast.Call)
                and random_function(self.index, b.node.value) == "split"
                and all(isinstance(t, (ast.Tuple, ast.List)) for t in b.node.targets)
            ):
                parent = self.key_kind(key_argument(b.node.value), depth + 1)
                # `key, *subkeys = split(key, 4)`: `subkeys` is a Python list, not a key
                listed = starred_target(b.node.targets, expr.id)
                kinds.add((parent[0], True) if parent and parent[1] and not listed else None)
            else:
                return None
        return kinds.pop() if len(kinds) == 1 else None

    def only_key_uses(self, name: str, scope_node: ast.AST) -> bool:
        """Every read of `name` in the scope is the key argument of a `jax.random` function."""
        body = scope_node.body if isinstance(scope_node.body, list) else [scope_node.body]  # type: ignore[attr-defined]
        seen = False
        for stmt in body:
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Name)
                    and node.id == name
                    and isinstance(node.ctx, ast.Load)
                ):
                    parent = syntax.parent(node)
                    if not (
                        isinstance(parent, ast.Call)
                        and random_function(self.index, parent)
                        and key_argument(parent) is node
                    ):
                        return False
                    seen = True
        return seen


def _draw_arguments(call: ast.Call, fn: str) -> dict[str, str] | None:
    """A sampler's non-key arguments by role (`population`, `arg2`, keywords), as AST dumps."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        kw.arg is None for kw in call.keywords
    ):
        return None
    out: dict[str, str] = {}
    for i, arg in enumerate(call.args[1:], start=1):
        out["population" if i == 1 else f"arg{i}"] = ast.dump(arg)
    for kw in call.keywords:
        if kw.arg == "key":
            continue
        out["population" if kw.arg == ALIGNABLE[fn] else kw.arg] = ast.dump(kw.value)  # type: ignore[index]
    return out


def _collide(kind_a: str, data_a: tuple, kind_b: str, data_b: tuple) -> bool:
    """Can these two derivations from one parent give the same key? `split(k, n)[i]` is
    `fold_in(k, i)` for i < n; `fold_in` twice with equal constants is the same key."""
    if kind_a == kind_b == "split":
        return False  # a second split is a reuse (JAX201), not a collision
    if kind_a == kind_b == "fold_in":
        return data_a[0] == data_b[0] == "const" and data_a[1] == data_b[1]
    split_data, fold_data = (data_a, data_b) if kind_a == "split" else (data_b, data_a)
    if fold_data[0] != "const":
        # `fold_in(k, n)` after `split(k, n)` (or `n + 1`, ...): past the split's indices
        if split_data[2] is not None and _at_least(fold_data[2], split_data[2]):
            return False
        return True  # `fold_in(k, step)`: step takes the split's indices sooner or later
    value, count = fold_data[1], split_data[1]
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return 0 <= value < (count if count is not None else 2)


def _at_least(expr: ast.AST, count: ast.AST) -> bool:
    """`expr` is `count`, or `count + c` with a constant `c >= 0` (the same expression text,
    so the same value when both are evaluated on one path without rebinding)."""
    target = ast.dump(count)
    if ast.dump(expr) == target:
        return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        for a, b in ((expr.left, expr.right), (expr.right, expr.left)):
            if (
                ast.dump(a) == target
                and isinstance(b, ast.Constant)
                and isinstance(b.value, int)
                and not isinstance(b.value, bool)
                and b.value >= 0
            ):
                return True
    return False


def _is_self(expr: ast.AST) -> bool:
    return isinstance(expr, ast.Name) and expr.id == "self"


def _lambda_fields(where: ast.Lambda) -> set[str]:
    """The fields `lambda s: s.rng` (or `lambda s: (s.rng, s.step)`) selects of its one
    parameter: what `eqx.tree_at(where, self, ...)` replaces."""
    if len(where.args.args) != 1:
        return set()
    param = where.args.args[0].arg
    body = where.body
    parts = body.elts if isinstance(body, (ast.Tuple, ast.List)) else [body]
    return {
        p.attr
        for p in parts
        if isinstance(p, ast.Attribute) and isinstance(p.value, ast.Name) and p.value.id == param
    }


def _callee_last(func: ast.AST) -> str | None:
    """The last name of a callee: `rotate` for `wh.rotate`, `f` for `f`."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - only for messages
        return "..."


def _is_target(stmt: ast.AST, child: ast.AST) -> bool:
    if isinstance(stmt, ast.Assign):
        return child in stmt.targets
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return child is stmt.target and not isinstance(stmt, ast.AugAssign)
    return False


class _KeyLattice:
    """Key name -> latest consumption on the path (missing: fresh), joined by "consumed
    on any path" (`KeyFlow._join`: the first state's consumption wins, so the cited earlier
    call is the one on the first arm, as the walker joins arms in source order)."""

    def copy(self, state: dict) -> dict:
        return dict(state)

    def join(self, a: dict, b: dict) -> dict:
        KeyFlow._join(a, [b])
        return a

    def equal(self, a: dict, b: dict) -> bool:
        return a == b


class _KeyWalker(ForwardWalker[dict]):
    """The shared walker with key flow's transfer functions.

    One pass per loop (`max_loop_passes = 1`): reuse across iterations is decided from what
    the loop rebinds (`KeyFlow._consume`), not by walking the body again, which would report
    each consumption in the body as a second one of itself. Dead code after `return` & co. is
    not walked. A `while` test is evaluated in the enclosing loops only, and `with` targets,
    `except` names and `case` patterns bind nothing, as before the port.
    """

    max_loop_passes = 1
    walk_dead_code = False

    def __init__(self, flow: KeyFlow) -> None:
        super().__init__(_KeyLattice())
        self.flow = flow
        self.fn: ast.AST | None = None
        self._flag_cache: dict[ast.AST, frozenset[str]] = {}

    def transfer(self, node: ast.stmt, state: dict) -> None:
        self.flow._simple(node, state, self.loop_nodes, self.fn)

    def branch_test(self, test: ast.expr, state: dict) -> tuple[dict, dict, bool, bool]:
        self.flow._expr(test, state, self.loop_nodes, self.fn)
        flags = self._flags()
        if flags:  # `if stochastic:` in a jitted def whose flag no call can make true
            dead_if, dead_else = decided_arms(test, {}, set(), flags)
            return dict(state), dict(state), not dead_if, not dead_else
        return dict(state), dict(state), True, True

    def _flags(self) -> frozenset[str]:
        fn = self.fn
        if fn is None:
            return frozenset()
        if fn not in self._flag_cache:
            self._flag_cache[fn] = jit_flags(self.flow.index, self.flow.calls.transforms, fn)
        return self._flag_cache[fn]

    def loop_test(self, test: ast.expr, state: dict) -> None:
        self.flow._expr(test, state, self.loop_nodes[:-1], self.fn)

    def for_iter(self, node: ast.For | ast.AsyncFor, state: dict) -> None:
        self.flow._expr(node.iter, state, self.loop_nodes, self.fn)

    def for_target(self, node: ast.For | ast.AsyncFor, state: dict) -> None:
        for t in key_target_names(node.target):
            KeyFlow._rebind(state, t)

    def with_items(self, node: ast.With | ast.AsyncWith, state: dict) -> None:
        for item in node.items:
            self.flow._expr(item.context_expr, state, self.loop_nodes, self.fn)

    def runs_at_least_once(self, node: ast.For | ast.AsyncFor) -> bool:
        """`for _ in range(EPOCHS)` with `EPOCHS = 400`: a key the body rebinds is fresh
        after the loop, not the one consumed before it (a removed path only removes pairs
        of consumptions, never adds one)."""
        return runs_at_least_once(node, self.flow._constants.reaching_int)

    def match_subject(self, node: ast.Match, state: dict) -> None:
        self.flow._expr(node.subject, state, self.loop_nodes, self.fn)
