"""Which expressions hold traced values, per traced function, with helper propagation.

Levels (joined by max):
- NONE: concrete or static (shapes, dtypes, literals, module constants, static args);
- CONTAINER: a Python list/tuple/dict holding traced values (its truthiness and len are fine);
- TREE: a traced argument or a part of one: an array, or a pytree of arrays (truthiness of a
  dict-of-arrays is fine, so a bare TREE in an `if` is left alone);
- ARRAY: certainly a traced array: the result of arithmetic, a comparison or a jnp/lax op.

A helper called from a traced function with traced arguments is traced too (medium
confidence); its parameters get the levels of the arguments, and the message names the chain.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from enum import IntEnum
from functools import cached_property

from jaxlint.analysis.flow.walker import ForwardWalker
from jaxlint.analysis.imports import FUNCTION_NODES, ModuleIndex, dotted
from jaxlint.analysis.pytrees import PytreeFields
from jaxlint.analysis.transforms import (
    GRAD_LIKE,
    JIT_LIKE,
    TREE_MAP,
    FunctionFacts,
    Transforms,
    all_params,
    function_name,
    positional_params,
)


class Level(IntEnum):
    NONE = 0
    CONTAINER = 1
    TREE = 2
    ARRAY = 3


STATIC_ATTRS = frozenset(
    {
        "shape",
        "ndim",
        "dtype",
        "size",
        "sharding",
        "weak_type",
        "aval",
        "nbytes",
        "itemsize",
        "committed",
        "is_fully_replicated",
        "is_fully_addressable",
        "format",
        "named_shape",
        "__class__",
        "__name__",
    }
)
ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag", "at"})
DICT_METHODS = frozenset({"items", "keys", "values", "copy"})
TREE_METHODS = frozenset({"get", "replace", "_replace", "pop", "setdefault"})
CONCRETE_METHODS = frozenset(
    {
        "item",
        "tolist",
        "tobytes",
        "__array__",
        "devices",
        "device",
        "addressable_shards",
        "copy_to_host_async",
        "is_deleted",
        "block_until_ready",
        "startswith",
        "endswith",
        "format",
        "join",
        "split",
        "lower",
        "upper",
        "strip",
        "index",
        "count",
    }
)
# calls whose result is never traced, whatever the arguments
STATIC_CALLS = frozenset(
    {
        "len",
        "isinstance",
        "issubclass",
        "type",
        "id",
        "callable",
        "hasattr",
        "getattr",
        "str",
        "repr",
        "hash",
        "print",
        "format",
        "range",
        "int",
        "float",
        "bool",
        "complex",
        "vars",
        "dir",
        "super",
        "object",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.result_type",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.issubdtype",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.numpy.isscalar",
        "jax.dtypes.result_type",
        "jax.dtypes.canonicalize_dtype",
        "jax.dtypes.issubdtype",
        "numpy.shape",
        "numpy.ndim",
        "numpy.size",
        "numpy.dtype",
        "numpy.finfo",
        "numpy.iinfo",
        "numpy.result_type",
        "numpy.issubdtype",
        "numpy.prod",  # of shapes mostly; on tracers it dispatches and is traced (see below)
        "jax.typeof",
        "jax.eval_shape",
        "jax.ShapeDtypeStruct",
        "jax.tree.structure",
        "jax.tree_util.tree_structure",
        "jax.tree.leaves_with_path",
        "jax.process_index",
        "jax.process_count",
        "jax.device_count",
        "jax.local_device_count",
        "jax.devices",
        "jax.local_devices",
        "jax.lax.axis_index",  # traced, but an index per device; keep conservative? see below
        "jax.core.get_aval",
        "jax.debug.print",
        "jax.debug.callback",
        "jax.pure_callback",
        "jax.experimental.io_callback",
    }
)
STATIC_CALLS = STATIC_CALLS - {"numpy.prod", "jax.lax.axis_index"}
# NumPy functions that dispatch to the array's own method and so work on tracers (facts §0.7);
# every other NumPy function on a tracer raises TracerArrayConversionError
NUMPY_DISPATCHING = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "amax",
        "amin",
        "prod",
        "std",
        "var",
        "argmax",
        "argmin",
        "cumsum",
        "cumprod",
        "reshape",
        "transpose",
        "squeeze",
        "round",
        "around",
        "any",
        "all",
        "shape",
        "ndim",
        "size",
        "dtype",
        "finfo",
        "iinfo",
        "issubdtype",
        "result_type",
        "promote_types",
        "can_cast",
        "isscalar",
        "iscomplexobj",
        "errstate",
        "broadcast_shapes",
    }
)
# jax.numpy functions returning a boolean array
MASK_FUNCTIONS = frozenset(
    """isnan isinf isfinite isneginf isposinf isclose isreal iscomplex signbit isin
    logical_and logical_or logical_not logical_xor equal not_equal greater greater_equal less
    less_equal""".split()
)
# pytree utilities returning Python lists/tuples of leaves (containers, not arrays)
TREE_CONTAINERS = frozenset(
    {
        "jax.tree.leaves",
        "jax.tree_util.tree_leaves",
        "jax.tree.flatten",
        "jax.tree_util.tree_flatten",
        "jax.tree_leaves",
        "jax.tree_flatten",
        "jax.tree.flatten_with_path",
        "jax.tree_util.tree_flatten_with_path",
        "jax.tree_util.tree_leaves_with_path",
    }
)
# transforms that trace only the array leaves of their arguments (the rest is static)
FILTERING = ("equinox.", "flax.nnx.")
# exceptions JAX raises on tracers: code in a `try` that catches one of them is probing for
# concreteness on purpose
TRACER_ERRORS = ("Concretization", "Tracer", "NonConcrete", "UnexpectedTracer")
ARRAY_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.random.",
    "jax.scipy.",
    "jax.image.",
    "numpy.",
    "math.",
    "jax.experimental.pallas.",
    "optax.",
)


# where a concrete value is needed: jax functions' shape/size parameters (positions and
# keywords) and array methods taking shapes (used to decide whether replacing a NumPy value by
# a jax.numpy one keeps code working)
SHAPE_KEYWORDS = frozenset(
    """shape newshape new_shape size num reps repeats total_repeat_length N M n length axis
    axes window_shape window_dimensions window_strides strides kernel_size padding
    dimension dimensions out_sharding""".split()
)
SHAPE_FIRST = frozenset(
    """zeros ones empty full eye identity tri arange linspace logspace""".split()
)
SHAPE_SECOND = frozenset("""reshape tile broadcast_to resize repeat""".split())
SHAPE_METHODS = frozenset({"reshape", "tile", "repeat", "broadcast_to", "resize", "transpose"})
# ahead-of-time compilation API: called on a jitted function (not traced), returns host objects
AOT_METHODS = frozenset(
    {"lower", "compile", "cost_analysis", "memory_analysis", "as_text", "compiler_ir"}
)
JAX_ARRAY_MODULES = tuple(m for m in ARRAY_MODULES if m.startswith("jax."))


# helper names that test whether a value is concrete (`not_jax_tracer(x)`, `is_concrete(x)`)
_CONCRETE_TEST = re.compile(r"(^|_)(not_\w*tracer|is_concrete|concrete|is_constant|is_static)")
TERMINATORS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
# flow facts riding in the taint state next to the names (no identifier has a NUL): the name
# was last assigned a boolean mask / something else
MASK_KEY, NOT_MASK_KEY = "\x00mask:", "\x00other:"


def terminates(stmts: list[ast.stmt]) -> bool:
    """The block always leaves (its last statement returns, raises, breaks or continues)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, TERMINATORS):
        return True
    if isinstance(last, ast.If):
        return terminates(last.body) and terminates(last.orelse)
    return False


def catches_tracer_errors(node: ast.AST) -> bool:
    """A `try` with a handler for JAX's tracer errors (probing for concreteness on purpose)."""
    for handler in getattr(node, "handlers", ()):
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for t in types:
            name = dotted(t) if t is not None else None
            if name and any(err in name for err in TRACER_ERRORS):
                return True
    return False


class _EnvLattice:
    """Traced levels per name, joined by max (a missing name is NONE)."""

    def copy(self, state: dict[str, Level]) -> dict[str, Level]:
        return dict(state)

    def join(self, a: dict[str, Level], b: dict[str, Level]) -> dict[str, Level]:
        out = dict(a)
        for name, level in b.items():
            if level > out.get(name, Level.NONE):
                out[name] = level
        return out

    def equal(self, a: dict[str, Level], b: dict[str, Level]) -> bool:
        return a == b


class _TaintFlow(ForwardWalker[dict[str, Level]]):
    """The walker with the taint analysis' transfer functions."""

    def __init__(self, analysis: TaintAnalysis) -> None:
        super().__init__(_EnvLattice())
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


class TaintAnalysis:
    """Evaluates taint for every expression of every traced function, to a fixed point."""

    def __init__(
        self,
        index: ModuleIndex,
        transforms: Transforms,
        pytrees: Callable[[], PytreeFields] | None = None,
    ) -> None:
        self.index = index
        self.transforms = transforms
        self._pytrees_factory = pytrees
        self.facts: dict[ast.AST, FunctionFacts] = transforms.facts
        self.levels: dict[int, Level] = {}
        self.returns: dict[ast.AST, Level] = {}
        self.param_levels: dict[ast.AST, dict[str, Level]] = {}
        self.closure_env: dict[ast.AST, dict[str, Level]] = {}
        self._callers: dict[ast.AST, set[ast.AST]] = {}
        # helper parameters that every traced call site passes a boolean mask to
        self.mask_params: dict[ast.AST, dict[str, bool]] = {}
        # Name loads -> whether every assignment reaching it is a boolean mask (flow facts)
        self.mask_loads: dict[int, bool] = {}
        self._self_values: dict[ast.AST, dict[str, list]] = {}
        self._changed: set[ast.AST] = set()
        self._current: ast.AST | None = None
        self._ret = Level.NONE
        self._probe = 0  # inside a concreteness probe (`try: ... except ConcretizationTypeError`)
        self._flow = _TaintFlow(self)
        self._iter_levels = {}
        self._filtered = False  # under an equinox/nnx transform: non-array leaves are static
        self._not_none: set[str] = set()  # parameters bound to a value by every application
        self._run()

    @property
    def _quiet(self) -> int:
        """Values computed here are recorded as not traced: a concreteness probe, or a path
        that only runs on concrete values (the walker's `infeasible`)."""
        return self._probe + self._flow.infeasible

    @cached_property
    def pytrees(self) -> PytreeFields:
        """Static fields of the module's pytree classes (built on the first attribute read)."""
        if self._pytrees_factory is not None:
            return self._pytrees_factory()
        return PytreeFields(self.index)

    def _static_field(self, node: ast.Attribute) -> bool:
        """`grid.num_dims` where `num_dims` is a static (meta) field of the pytree's class."""
        pytrees = self.pytrees
        if not pytrees.static:
            return False
        cls = None
        if isinstance(node.value, ast.Name) and self._current is not None:
            args = getattr(self._current, "args", None)
            if args is not None:
                for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                    if a.arg == node.value.id:
                        cls = pytrees.class_named(a.annotation)
                        break
        return pytrees.is_static_attribute(node.attr, cls)

    # -- public queries ------------------------------------------------------------------
    def level(self, node: ast.AST) -> Level:
        return self.levels.get(id(node), Level.NONE)

    def is_traced(self, node: ast.AST) -> bool:
        """Holds a traced value (array or pytree part); container literals excluded."""
        return self.level(node) >= Level.TREE

    def is_array(self, node: ast.AST) -> bool:
        return self.level(node) == Level.ARRAY

    def traced_name(self, node: ast.AST) -> str | None:
        """A traced variable inside `node`, to name in messages."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and self.level(sub) >= Level.TREE:
                return sub.id
        return None

    def is_bool_mask(self, node: ast.AST, _depth: int = 0) -> bool:
        """A traced boolean array: a comparison, `jnp.isnan`/`logical_*`/..., `&`/`|`/`~` of
        masks, or a local name bound once to one of these."""
        if _depth > 6 or not self.is_traced(node):
            return False
        if isinstance(node, ast.Compare):
            return not any(
                isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops
            )
        if isinstance(node, ast.Call):
            q = self.index.qualname(node.func) or ""
            if q.startswith("jax.numpy.") and q[len("jax.numpy.") :] in MASK_FUNCTIONS:
                return True
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "astype"
                and len(node.args) == 1
                and (
                    self.index.qualname(node.args[0]) in ("bool", "jax.numpy.bool_", "numpy.bool_")
                )
            ):
                return True
            # a helper of this module whose every return value is a mask
            callee = self.index.resolve_function(func)
            if isinstance(callee, ast.Lambda):
                return self.is_bool_mask(callee.body, _depth + 1)
            if callee is None:
                return False
            returns = [
                r.value
                for r in ast.walk(callee)
                if isinstance(r, ast.Return)
                and r.value is not None
                and self.index.enclosing_function(r) is callee
            ]
            return bool(returns) and all(self.is_bool_mask(r, _depth + 1) for r in returns)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self.is_bool_mask(node.left, _depth + 1) and self.is_bool_mask(
                node.right, _depth + 1
            )
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return self.is_bool_mask(node.operand, _depth + 1)
        if isinstance(node, ast.Name):
            flow = self.mask_loads.get(id(node))
            if flow is not None:  # the assignments that reach this use, on every path
                return flow
            b = self.index.binding(node.id, self.index.scope_of(node))
            if b is not None and b.kind == "assign" and b.value is not None:
                return self.is_bool_mask(b.value, _depth + 1)
            if b is not None and b.kind == "param" and b.node is not None:
                owner = self.index.enclosing_function(b.node)
                return bool(self.mask_params.get(owner, {}).get(node.id))
        return False

    def may_need_concrete(self, node: ast.AST, _depth: int = 0) -> bool:
        """The value of `node` may reach a place that needs a concrete (host) value.

        False only when every use is proven array-friendly: arithmetic, comparisons,
        containers and indexing feeding jax functions (outside their shape parameters),
        array methods, `return`, or a name whose every later use is one of these. A safe
        `np.X` -> `jnp.X` rewrite needs that: `tuple(np.array(...) // 2)` used as a pooling
        window works with NumPy and breaks with a traced jnp array.
        """
        if _depth > 6:
            return True
        parent = getattr(node, "jl_parent", None)
        if parent is None:
            return True
        if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Tuple, ast.List)):
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod):
                if isinstance(parent.left, (ast.Constant, ast.JoinedStr)):
                    return True  # "%d" % value
            return self.may_need_concrete(parent, _depth + 1)
        if isinstance(parent, ast.Subscript):
            if parent.value is node:
                return self.may_need_concrete(parent, _depth + 1)
            return True  # an index
        if isinstance(parent, ast.Starred):
            return self.may_need_concrete(parent, _depth + 1)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            if parent.attr in STATIC_ATTRS:
                return False  # same shape and dtype either way
            if parent.attr in CONCRETE_METHODS:
                return True
            call = getattr(parent, "jl_parent", None)
            if isinstance(call, ast.Call) and call.func is parent:
                return self.may_need_concrete(call, _depth + 1)
            return self.may_need_concrete(parent, _depth + 1)
        if isinstance(parent, ast.keyword):
            call = getattr(parent, "jl_parent", None)
            if not isinstance(call, ast.Call) or parent.arg in SHAPE_KEYWORDS:
                return True
            return not self._array_call(call)
        if isinstance(parent, ast.Call):
            if parent.func is node:
                return True
            if not self._array_call(parent):
                return True
            q = self.index.qualname(parent.func)
            if q is None:  # a method of a traced array
                return getattr(parent.func, "attr", "") in SHAPE_METHODS
            short = q.rsplit(".", 1)[-1]
            pos = next((i for i, a in enumerate(parent.args) if a is node), -1)
            return (short in SHAPE_FIRST and pos == 0) or (short in SHAPE_SECOND and pos == 1)
        if isinstance(parent, ast.Return):
            return False
        if isinstance(parent, ast.Expr):
            return False
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            if not all(isinstance(t, ast.Name) for t in targets):
                return True
            fn = self.index.enclosing_function(parent)
            if fn is None:
                return True
            names = {t.id for t in targets}  # type: ignore[attr-defined]
            for sub in ast.walk(fn):
                if (
                    isinstance(sub, ast.Name)
                    and sub.id in names
                    and isinstance(sub.ctx, ast.Load)
                    and self.may_need_concrete(sub, _depth + 1)
                ):
                    return True
            return False
        return True

    def module_call_target(self, func: ast.AST) -> ast.AST | None:
        """The `__call__` a call of a Module instance runs: `Block(...)(x)`, `blk(x)` with
        `blk = Block(...)`, or `self.blk(x)` with `self.blk = Block(...)` in a method
        (`setup`), for a flax/equinox Module class of this module."""
        cls_expr: ast.AST | None = None
        if isinstance(func, ast.Call):
            cls_expr = func.func
        elif isinstance(func, ast.Name):
            b = self.index.binding(func.id, self.index.scope_of(func))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                cls_expr = b.value.func
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            cls_expr = self._self_module(func)
        if not isinstance(cls_expr, ast.Name):
            return None
        b = self.index.binding(cls_expr.id, self.index.scope_of(cls_expr))
        if b is None or b.kind != "class" or not isinstance(b.node, ast.ClassDef):
            return None
        cls = b.node
        if self.transforms.module_library(cls) is None:
            return None
        for stmt in cls.body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == "__call__"
            ):
                return stmt if stmt in self.facts else None
        return None

    def _self_module(self, func: ast.Attribute) -> ast.AST | None:
        """`self.attr = Cls(...)` (the only assignment of `self.attr` in the class): `Cls`."""
        scope = self.index.scope_of(func)
        while scope is not None and scope.kind != "class":
            scope = scope.parent
        if scope is None:
            return None
        table = self._self_values.get(scope.node)
        if table is None:  # one walk per class: `self.attr = value` assignments
            table = self._self_values[scope.node] = {}
            for node in ast.walk(scope.node):
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        if (
                            isinstance(t, ast.Attribute)
                            and isinstance(t.value, ast.Name)
                            and t.value.id == "self"
                        ):
                            table.setdefault(t.attr, []).append(node.value)
        values = table.get(func.attr, [])
        if len(values) == 1 and isinstance(values[0], ast.Call):
            return values[0].func
        return None

    def _submodule_calls(self) -> set[ast.AST]:
        """`__call__`s of Modules that another Module method of this file applies."""
        out: set[ast.AST] = set()
        if not any(f.via.endswith("Module.__call__") for f in self.facts.values()):
            return out  # no Module methods here: nothing to look for
        for call in self.index.calls:
            if isinstance(call.func, ast.Attribute) and call.func.attr in ("apply", "init"):
                continue
            target = self.module_call_target(call.func)
            if target is None:
                continue
            caller = self.facts.get(self.index.enclosing_function(call))
            if caller is not None and caller.via.endswith("Module.__call__"):
                out.add(target)
        return out

    def _concrete_params(self, fn: ast.AST, names: set[str]) -> set[str]:
        """Parameters `fn`'s own body uses as a size: `range(n)`, a shape or size parameter of a
        jax or NumPy function (`np.arange(qlen)`), a slice bound, or compared with a `.shape`."""
        out: set[str] = set()
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Name) and node.id in names and node.id not in out):
                continue
            if self.index.enclosing_function(node) is not fn:
                continue
            use: ast.AST = node
            parent = getattr(node, "jl_parent", None)
            if isinstance(parent, ast.Subscript) and parent.value is node:
                use, parent = parent, getattr(parent, "jl_parent", None)  # out_shape[-1]
            if isinstance(parent, ast.Slice):
                out.add(node.id)
            elif isinstance(parent, ast.Compare):
                others = [parent.left, *parent.comparators]
                if any(o is not use and _is_shape_read(o) for o in others):
                    out.add(node.id)
            elif isinstance(parent, (ast.Call, ast.keyword)):
                call = parent if isinstance(parent, ast.Call) else parent.jl_parent  # type: ignore[attr-defined]
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

    def _array_call(self, call: ast.Call) -> bool:
        """A call that takes arrays: a jax function, or a method of a traced array."""
        q = self.index.qualname(call.func)
        if q is not None:
            return q.startswith(JAX_ARRAY_MODULES)
        func = call.func
        return isinstance(func, ast.Attribute) and self.level(func.value) >= Level.TREE

    # -- fixed point ------------------------------------------------------------------------
    def _run(self) -> None:
        submodules = self._submodule_calls()
        for fn, facts in self.facts.items():
            if fn in submodules:
                # applied by another Module of this file: what it gets is known there, so
                # its inputs are traced only as far as the callers' arguments are
                facts.traced_params = set()
            elif facts.via.endswith("Module.__call__") and not facts.chain:
                # not a transform: what is traced is assumed; code that needs a parameter
                # concrete (`np.arange(qlen)`, `x.shape != out_shape`) says it is Python
                facts.traced_params -= self._concrete_params(fn, facts.traced_params)
            self.param_levels[fn] = {p: Level.TREE for p in facts.traced_params}
        queue = list(self.facts)
        budget = 30 * (len(queue) + 5)
        queued = set(queue)
        while queue and budget > 0:
            budget -= 1
            fn = queue.pop(0)
            queued.discard(fn)
            changed = self._analyze(fn)
            # in source order, not the set's (id-based) order: which caller reaches a helper
            # first names the chain in its messages, and that must not vary between runs
            for other in sorted(changed, key=_source_order):
                if other not in queued:
                    queue.append(other)
                    queued.add(other)

    def _analyze(self, fn: ast.AST) -> set[ast.AST]:
        self._changed: set[ast.AST] = set()
        self._current = fn
        self._probe = 0
        facts = self.facts.get(fn)
        self._filtered = facts is not None and facts.via.startswith(FILTERING)
        self._not_none = set(facts.not_none) if facts is not None else set()
        self._iter_levels: dict[ast.AST, Level] = {}
        env: dict[str, Level] = dict(self.closure_env.get(fn, {}))
        for name in all_params(fn):
            env[name] = self.param_levels.get(fn, {}).get(name, Level.NONE)
        self._ret = Level.NONE
        if isinstance(fn, ast.Lambda):
            self._ret = self.expr(fn.body, env)
        else:
            self._flow.walk(fn.body, env)
        prev = self.returns.get(fn)
        if prev is None or self._ret > prev:
            self.returns[fn] = max(self._ret, prev or Level.NONE)
            self._changed |= self._callers.get(fn, set())
        return self._changed

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
            joined = max(value, target_level)
            if joined >= Level.TREE:
                joined = Level.ARRAY
            if isinstance(node.target, ast.Name):
                env[node.target.id] = joined
                env.pop(MASK_KEY + node.target.id, None)
                env[NOT_MASK_KEY + node.target.id] = Level.CONTAINER
        elif isinstance(node, (ast.Expr, ast.Return)):
            if node.value is not None:
                level = self.expr(node.value, env)
                if isinstance(node, ast.Return):
                    self._ret = max(self._ret, level)
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
        """(body, else) runs only on concrete values, so never under tracing.

        A guard proving a traced value concrete (`if not isinstance(x, Tracer):`,
        `if is_concrete(x):`) marks an eager-only path; so does `if n is None:` on a
        parameter every traced application binds to a value (`partial(f, n=size)`).
        """
        body = any(env.get(n, Level.NONE) >= Level.TREE for n in holds)
        orelse = any(env.get(n, Level.NONE) >= Level.TREE for n in fails)
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.left, ast.Name)
            and test.left.id in self._not_none
            and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and _is_none_literal(test.comparators[0])
        ):
            if isinstance(test.ops[0], ast.Is):
                body = True
            else:
                orelse = True
        return body, orelse

    @staticmethod
    def _merge(env: dict[str, Level], a: dict[str, Level], b: dict[str, Level]) -> None:
        for name in set(a) | set(b):
            env[name] = max(a.get(name, Level.NONE), b.get(name, Level.NONE))

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
            if fn in self.facts:
                self._changed.add(fn)

    def bind(
        self, target: ast.AST, value_node: ast.AST | None, level: Level, env: dict[str, Level]
    ) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = level
            self._not_none.discard(target.id)
            # which kind of value the name holds follows the latest assignment: a boolean
            # mask or not (the keys join like levels, so "mask" means "on every path")
            is_mask = (
                value_node is not None and level >= Level.TREE and self.is_bool_mask(value_node)
            )
            env.pop(NOT_MASK_KEY + target.id if is_mask else MASK_KEY + target.id, None)
            env[(MASK_KEY if is_mask else NOT_MASK_KEY) + target.id] = Level.CONTAINER
            self.levels[id(target)] = Level.NONE if self._quiet else level
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value_node, (ast.Tuple, ast.List)) and len(value_node.elts) == len(
                target.elts
            ):
                for t, v in zip(target.elts, value_node.elts):
                    self.bind(t, v, self.level(v), env)
            else:
                part = Level.TREE if level >= Level.CONTAINER else Level.NONE
                for t in target.elts:
                    self.bind(t, None, part, env)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, None, Level.CONTAINER if level else Level.NONE, env)
        else:  # attribute / subscript targets: evaluate the parts
            self.expr(target, env)

    def bind_loop_target(
        self, target: ast.AST, iter_node: ast.AST, level: Level, env: dict[str, Level]
    ) -> None:
        """Loop variables: only provably traced when iterating a literal list of traced values.

        Iterating a traced argument may yield dict keys (static) or rows (traced): unknown,
        so silent. `zip`/`enumerate` pass through; `.items()` yields (static key, traced value).
        """
        if isinstance(iter_node, ast.Call):
            q = self.index.qualname(iter_node.func)
            if q in ("enumerate",) and iter_node.args and isinstance(target, ast.Tuple):
                self.bind(target.elts[0], None, Level.NONE, env)
                if len(target.elts) > 1:
                    inner = self.level(iter_node.args[0])
                    self.bind_loop_target(target.elts[1], iter_node.args[0], inner, env)
                return
            if (
                q == "zip"
                and isinstance(target, ast.Tuple)
                and len(target.elts) == len(iter_node.args)
            ):
                for t, a in zip(target.elts, iter_node.args):
                    self.bind_loop_target(t, a, self.level(a), env)
                return
            if (
                isinstance(iter_node.func, ast.Attribute)
                and iter_node.func.attr == "items"
                and isinstance(target, ast.Tuple)
                and len(target.elts) == 2
            ):
                self.bind(target.elts[0], None, Level.NONE, env)
                owner = self.level(iter_node.func.value)
                self.bind(
                    target.elts[1],
                    None,
                    Level.TREE if owner >= Level.CONTAINER else Level.NONE,
                    env,
                )
                return
        if isinstance(iter_node, (ast.List, ast.Tuple)) and level >= Level.CONTAINER:
            elt = max((self.level(e) for e in iter_node.elts), default=Level.NONE)
            self.bind(target, None, elt, env)
            return
        if isinstance(iter_node, ast.Name) and env.get(iter_node.id) == Level.CONTAINER:
            self.bind(target, None, Level.TREE, env)
            return
        self.bind(target, None, Level.NONE, env)

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.AST, env: dict[str, Level]) -> Level:
        level = self._expr(node, env)
        # a later analysis of the function sees more: overwrite
        self.levels[id(node)] = Level.NONE if self._quiet else level
        return level

    def concrete_guard(self, test: ast.AST) -> tuple[set[str], set[str]]:
        """Names a condition proves concrete: (where it holds, where it fails).

        `not_jax_tracer(x)`, `is_concrete(x)` hold for concrete `x`; `isinstance(x, Tracer)`
        fails for concrete `x`. Code guarded this way handles tracers on purpose.
        """
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            holds, fails = self.concrete_guard(test.operand)
            return fails, holds
        if isinstance(test, ast.BoolOp):
            parts = [self.concrete_guard(v) for v in test.values]
            if isinstance(test.op, ast.And):
                return set().union(*(p[0] for p in parts)), set()
            return set(), set().union(*(p[1] for p in parts))
        if not isinstance(test, ast.Call) or not test.args:
            return set(), set()
        first = test.args[0]
        if not isinstance(first, ast.Name):
            return set(), set()
        if self.index.qualname(test.func) == "isinstance" and len(test.args) == 2:
            kinds = test.args[1]
            elts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            if any("Tracer" in (dotted(e) or "") for e in elts):
                return set(), {first.id}
            return set(), set()
        last = (dotted(test.func) or "").rsplit(".", 1)[-1].lower()
        if _CONCRETE_TEST.search(last):
            return {first.id}, set()
        if "tracer" in last or "traced" in last:
            return set(), {first.id}
        return set(), set()

    def _expr(self, node: ast.AST, env: dict[str, Level]) -> Level:  # noqa: C901
        if isinstance(node, ast.Name):
            mask, other = MASK_KEY + node.id, NOT_MASK_KEY + node.id
            if mask in env or other in env:
                self.mask_loads[id(node)] = mask in env and other not in env
            return env.get(node.id, Level.NONE)
        if isinstance(node, ast.Constant):
            return Level.NONE
        if isinstance(node, ast.Attribute):
            base = self.expr(node.value, env)
            if node.attr in STATIC_ATTRS or base == Level.NONE:
                return Level.NONE
            if base == Level.CONTAINER:
                return Level.NONE
            if node.attr in ARRAY_ATTRS:
                return Level.ARRAY
            if base == Level.TREE and self._static_field(node):
                return Level.NONE  # pytree meta data: a Python value under tracing
            if base == Level.TREE and self._filtered:
                # equinox / nnx transforms trace only the array leaves: a field of a Module or
                # pytree argument (`solver.term_structure`, `cfg.n`) may well be static
                return Level.NONE
            return base
        if isinstance(node, ast.Subscript):
            base = self.expr(node.value, env)
            self.expr(node.slice, env)
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
            return Level.ARRAY if max(a, b) >= Level.TREE else Level.NONE
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand, env)
            if isinstance(node.op, ast.Not) and v == Level.TREE:
                return Level.NONE  # `not tree`: container truthiness, a Python bool
            return Level.ARRAY if v >= Level.TREE else Level.NONE
        if isinstance(node, ast.BoolOp):
            out, cur = Level.NONE, env
            for v in node.values:
                out = max(out, self.expr(v, cur))
                holds, fails = self.concrete_guard(v)
                proven = holds if isinstance(node.op, ast.And) else fails
                if proven:  # later operands run only when this one proved concreteness
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
            return self._call(node, env)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            inner = max((self.expr(e, env) for e in node.elts), default=Level.NONE)
            return Level.CONTAINER if inner > Level.NONE else Level.NONE
        if isinstance(node, ast.Dict):
            inner = Level.NONE
            for k in node.keys:
                if k is not None:
                    self.expr(k, env)
            for v in node.values:
                inner = max(inner, self.expr(v, env))
            return Level.CONTAINER if inner > Level.NONE else Level.NONE
        if isinstance(node, ast.Starred):
            return self.expr(node.value, env)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self._comprehension(node, env)
        if isinstance(node, ast.JoinedStr):
            for v in node.values:
                self.expr(v, env)
            return Level.NONE
        if isinstance(node, ast.FormattedValue):
            self.expr(node.value, env)
            if node.format_spec is not None:
                self.expr(node.format_spec, env)
            return Level.NONE
        if isinstance(node, ast.NamedExpr):
            v = self.expr(node.value, env)
            if isinstance(node.target, ast.Name):
                env[node.target.id] = v
                self.levels[id(node.target)] = v
            return v
        if isinstance(node, FUNCTION_NODES):  # a lambda value
            self._closure(node, env)
            return Level.NONE
        if isinstance(node, ast.Await):
            return self.expr(node.value, env)
        for child in ast.iter_child_nodes(node):
            self.expr(child, env)
        return Level.NONE

    def _compare(self, node: ast.Compare, env: dict[str, Level]) -> Level:
        left = self.expr(node.left, env)
        result = Level.NONE
        prev, prev_node = left, node.left
        for op, comp in zip(node.ops, node.comparators):
            right = self.expr(comp, env)
            if isinstance(op, (ast.Is, ast.IsNot)):
                pass
            elif self._never_array(comp) or self._never_array(prev_node):
                pass  # `mode == "relu"`, `state == sentinel`: a tracer == str/object is False
            elif isinstance(op, (ast.Eq, ast.NotEq)) and (
                self._own_default(prev_node, comp) or self._own_default(comp, prev_node)
            ):
                pass  # `if state == sentinel:` where `sentinel` is the parameter's default
            elif isinstance(op, (ast.In, ast.NotIn)):
                if prev >= Level.TREE:  # `key in dict` is static; a traced needle is not
                    result = Level.ARRAY
            elif max(prev, right) >= Level.TREE:
                result = Level.ARRAY
            prev, prev_node = right, comp
        return result

    def _own_default(self, param: ast.AST, other: ast.AST) -> bool:
        """`other` is the (non-literal) default value of the parameter `param`: comparing
        them asks "was the argument given?", a check on a sentinel object."""
        fn = self._current
        if not isinstance(param, ast.Name) or not isinstance(other, (ast.Name, ast.Attribute)):
            return False
        args = fn.args  # type: ignore[union-attr]
        positional = [*args.posonlyargs, *args.args]
        pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        want = ast.dump(other)
        return any(a.arg == param.id and ast.dump(d) == want for a, d in pairs)

    def _never_array(self, node: ast.AST) -> bool:
        """A string/None literal, or a name bound only to a plain `object()` sentinel."""
        if _is_str_or_none(node):
            return True
        if isinstance(node, ast.Name):
            found = self.index.lookup(node.id, self.index.scope_of(node))
            return bool(found) and all(
                b.kind == "assign"
                and isinstance(b.value, ast.Call)
                and not b.value.args
                and self.index.qualname(b.value.func) == "object"
                for b in found
            )
        return False

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
        return Level.CONTAINER if elt > Level.NONE else Level.NONE

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
        self._propagate(node, q, env)
        if q in STATIC_CALLS:
            return Level.NONE
        if isinstance(func, ast.Attribute) and receiver == Level.NONE and func.attr in AOT_METHODS:
            return Level.NONE  # `jitted.lower(x).compile().cost_analysis()`: host objects
        if isinstance(func, ast.Attribute) and receiver >= Level.TREE and q is None:
            if func.attr in STATIC_ATTRS or func.attr in CONCRETE_METHODS:
                return Level.NONE
            if func.attr in DICT_METHODS:
                return Level.CONTAINER
            if func.attr in TREE_METHODS:
                return Level.TREE
            return Level.ARRAY
        if isinstance(func, ast.Attribute) and receiver == Level.CONTAINER and q is None:
            return Level.CONTAINER if func.attr in DICT_METHODS else Level.TREE
        if q in TREE_MAP and node.args:
            mapped = self.index.resolve_function(node.args[0])
            if mapped is not None and mapped in self.returns:
                r = self.returns[mapped]  # a tree of what the function returns
                return Level.NONE if r == Level.NONE else max(r, Level.TREE)
        if q in TREE_CONTAINERS:
            return Level.CONTAINER if strongest > Level.NONE else Level.NONE
        callee = self.index.resolve_function(func)
        if callee is not None and callee in self.returns:
            if (
                strongest == Level.NONE
                and receiver < Level.TREE
                and not self._closes_over_traced(callee)
            ):
                return Level.NONE  # a traced helper called here with static arguments
            return self.returns[callee]
        if strongest == Level.NONE:
            return Level.NONE
        if q and q.startswith(ARRAY_MODULES):
            return Level.ARRAY
        if q in ("sum", "abs", "round", "pow", "divmod", "min", "max"):
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
            return Level.CONTAINER
        if callee is not None and callee in self.facts:
            return Level.NONE if self.returns.get(callee) is None else self.returns[callee]
        return Level.TREE

    def _closes_over_traced(self, fn: ast.AST) -> bool:
        return any(v >= Level.TREE for v in self.closure_env.get(fn, {}).values())

    # -- propagation into helpers --------------------------------------------------------
    def _propagate(self, node: ast.Call, q: str | None, env: dict[str, Level]) -> None:
        caller = self.facts.get(self._current)
        if caller is None or caller.kind == "host":
            return
        func = node.func
        target: ast.AST | None = None
        fexpr: ast.AST = func  # the expression naming the function that runs
        arg_nodes: list[ast.expr] = list(node.args)
        kw_nodes = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        if isinstance(func, ast.Call):  # jax.grad(loss)(params, batch)
            inner_q = self.index.qualname(func.func)
            if (inner_q in GRAD_LIKE or inner_q in JIT_LIKE) and func.args:
                fexpr = func.args[0]
                target = self.index.resolve_function(fexpr)
        elif q in TREE_MAP and node.args:
            fexpr = node.args[0]
            target = self.index.resolve_function(fexpr)
            arg_nodes = list(node.args[1:])
            kw_nodes = {}
        else:
            target = self.index.resolve_function(func)
            if target is None and isinstance(func, ast.Name):
                b = self.index.binding(func.id, self.index.scope_of(func))
                if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                    inner_q = self.index.qualname(b.value.func)
                    if (inner_q in GRAD_LIKE) and b.value.args:
                        fexpr = b.value.args[0]
                        target = self.index.resolve_function(fexpr)
        module_call = False
        if target is None:
            target = self.module_call_target(func)  # a submodule applied: its __call__ runs
            module_call = target is not None
        if target is None or target in self.transforms.host or target is self._current:
            return
        strip_self = isinstance(fexpr, ast.Attribute) or module_call
        bound_facts = self.facts.get(target)
        if bound_facts is not None and bound_facts.not_none:
            # traced here too: only what this call passes (not None) stays bound
            if any(isinstance(a, ast.Starred) for a in arg_nodes) or any(
                kw.arg is None for kw in node.keywords
            ):
                passed: set[str] = set()
            else:
                names = positional_params(target)
                if names and strip_self and names[0] in ("self", "cls"):
                    names = names[1:]
                passed = {n for n, a in zip(names, arg_nodes) if not _is_none_literal(a)}
                passed |= {n for n, v in kw_nodes.items() if not _is_none_literal(v)}
            if not bound_facts.not_none <= passed:
                bound_facts.not_none &= passed
                self._changed.add(target)
        levels = [self.level(a) for a in arg_nodes]
        strongest = max([*levels, *(self.level(v) for v in kw_nodes.values()), Level.NONE])
        if strongest < Level.CONTAINER:
            # a nested function of this traced function runs on its tracers when called
            if not (
                self.index.enclosing_function(target) is self._current
                and self._closes_over_traced(target)
            ):
                return
        existing = self.facts.get(target)
        params = positional_params(target)
        if params and strip_self and params[0] in ("self", "cls"):
            params = params[1:]  # a bound method: `self` is not one of the arguments
        incoming: dict[str, Level] = {}
        for name, a, lv in zip(params, arg_nodes, levels):
            if isinstance(a, ast.Starred):
                break
            incoming[name] = lv
        for name, v in kw_nodes.items():
            incoming[name] = self.level(v)
        for name, lv in incoming.items():
            if lv == Level.CONTAINER:  # a list/dict of tracers is a pytree of tracers there
                incoming[name] = Level.TREE
        masks = self.mask_params.setdefault(target, {})
        for name, a in [*zip(params, arg_nodes), *kw_nodes.items()]:
            if isinstance(a, ast.Starred):
                break
            masks[name] = masks.get(name, True) and self.is_bool_mask(a)
        known = self.param_levels.setdefault(target, {})
        if existing is not None and existing.chain == () and existing.confidence == "high":
            if caller.kind == "jit" and existing.kind == "grad":
                # `jax.grad(loss)(...)` inside a jitted step: the primals are abstract too,
                # the non-differentiated arguments included
                existing.kind = "jit"
                existing.chain = (*(caller.chain or (caller.name,)), function_name(target))
                existing.via = caller.via
                self._changed.add(target)
            if existing.kind == "jit" and existing.chain:
                for name, lv in incoming.items():
                    if lv >= Level.TREE and lv > known.get(name, Level.NONE):
                        known[name] = lv
                        existing.traced_params.add(name)
                        self._changed.add(target)
                self._callers.setdefault(target, set()).add(self._current)
            return  # otherwise a transform of its own decides what is static
        grew = False
        for name, lv in incoming.items():
            if lv >= Level.TREE and lv > known.get(name, Level.NONE):
                known[name] = lv
                grew = True
        self._callers.setdefault(target, set()).add(self._current)
        if existing is None:
            chain = caller.chain or (caller.name,)
            self.facts[target] = FunctionFacts(
                target,
                caller.kind,
                caller.via,
                {n for n, lv in known.items() if lv >= Level.TREE},
                confidence="medium",
                chain=(*chain, function_name(target)),
                unknown_static=caller.unknown_static,
            )
            grew = True
        else:
            if caller.kind == "jit" and existing.kind == "grad":
                existing.kind = "jit"
                grew = True
            existing.traced_params |= {n for n, lv in known.items() if lv >= Level.TREE}
        if grew:
            self._changed.add(target)


def _is_shape_read(node: ast.AST) -> bool:
    """`x.shape`, `x.shape[-1]`, `x.ndim`, `len(x)`."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr in ("shape", "ndim", "size")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _source_order(node: ast.AST) -> tuple[int, int]:
    """Where a function starts: a stable order for queueing functions."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _is_none_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _is_str_or_none(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and (isinstance(node.value, str) or node.value is None)
