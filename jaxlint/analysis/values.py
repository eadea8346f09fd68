"""What kind of value an expression or a name holds: a JAX array, a container, a key, ...

Rules about mutation are about kinds, not names: `x[i] = v` is an error on a JAX array and
ordinary Python on a dict; `.update(...)` mutates a dict and returns a new value from a
functional API. This module collects the evidence once, on top of the module index, so every
rule reads the same answer. Evidence only: a kind is reported when the code shows it (a `jnp`
call, a dict display, arithmetic on a traced value, a structure-preserving transform of a
value of known kind); anything else is UNKNOWN and the rules stay silent on it.

Structure-preserving calls keep the kind they are given: `lax.pmean(tree)`, `psum`, `pmax`,
`stop_gradient`, `device_put`, `tree_map` over a container, `grad(f)(x)` (a gradient has the
structure of `x`), and the aux value of `grad(f, has_aux=True)` / `value_and_grad(...)` has
the kind `f` returns as its second output.

A name's kind at a use is the kind of the binding that certainly reaches it (the last
binding before it in an enclosing block, with no rebinding in a branch or a later loop
iteration in between); otherwise the join of all its bindings in the scope.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from enum import Enum

from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex, functional_method_call
from jaxlint.analysis.jax_api import TREE_MAP
from jaxlint.analysis.syntax import (
    FUNCTION_NODES,
    keyword,
    parent,
)

__all__ = [
    "Kind",
    "ValueKinds",
    "assigned_value",
    "functional_method_call",
    "join",
    "resolved",
    "result_discarded",
]


class Kind(str, Enum):
    ARRAY = "array"  # a jax.Array (or a tracer of one)
    NDARRAY = "ndarray"  # a NumPy array (mutable)
    DICT = "dict"
    LIST = "list"
    TUPLE = "tuple"
    SET = "set"
    SCALAR = "scalar"  # a Python int/float/bool/complex
    KEY = "key"  # a PRNG key (or an array of keys)
    OBJECT = "object"  # something else that is known: a str, None, an instance, a function
    UNKNOWN = "unknown"


CONTAINERS = frozenset({Kind.DICT, Kind.LIST, Kind.TUPLE, Kind.SET})
MUTABLE_CONTAINERS = frozenset({Kind.DICT, Kind.LIST, Kind.SET})

# kind-preserving calls: the result has the kind (pytree structure) of the first argument
STRUCTURE_PRESERVING = frozenset(
    {
        "jax.lax.pmean",
        "jax.lax.psum",
        "jax.lax.pmax",
        "jax.lax.pmin",
        "jax.lax.psum_scatter",
        "jax.lax.all_gather",
        "jax.lax.all_to_all",
        "jax.lax.ppermute",
        "jax.lax.pshuffle",
        "jax.lax.pbroadcast",
        "jax.lax.stop_gradient",
        "jax.lax.optimization_barrier",
        "jax.block_until_ready",
        "jax.device_put",
        "jax.device_put_replicated",
        "jax.device_put_sharded",
        "jax.tree_util.tree_map",
        "jax.tree.map",
        "jax.tree_map",
        "flax.jax_utils.replicate",
        "flax.jax_utils.unreplicate",
    }
)
TREE_LEAVES = frozenset({"jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree_leaves"})
# lax calls whose result is whatever their body returns
LAX_STRUCTURED = frozenset(
    {
        "jax.lax.scan",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.while_loop",
        "jax.lax.fori_loop",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "jax.lax.custom_root",
        "jax.lax.custom_linear_solve",
        "jax.lax.platform_dependent",
    }
)
KEY_MAKERS = frozenset(
    {
        "jax.random.key",
        "jax.random.PRNGKey",
        "jax.random.split",
        "jax.random.fold_in",
        "jax.random.clone",
        "jax.random.wrap_key_data",
    }
)
NOT_ARRAYS = {
    "jax.numpy.shape": Kind.TUPLE,
    "jax.numpy.ndim": Kind.SCALAR,
    "jax.numpy.size": Kind.SCALAR,
    "jax.numpy.dtype": Kind.OBJECT,
    "jax.numpy.finfo": Kind.OBJECT,
    "jax.numpy.iinfo": Kind.OBJECT,
    "jax.numpy.result_type": Kind.OBJECT,
    "jax.numpy.issubdtype": Kind.SCALAR,
    "jax.numpy.isscalar": Kind.SCALAR,
    "jax.numpy.iscomplexobj": Kind.SCALAR,
    "jax.numpy.isrealobj": Kind.SCALAR,
    "jax.numpy.promote_types": Kind.OBJECT,
    "jax.numpy.can_cast": Kind.SCALAR,
    "jax.numpy.vectorize": Kind.OBJECT,
    "jax.numpy.frompyfunc": Kind.OBJECT,
    # NumPy's I/O and print options, re-exported by jax.numpy: effects, not arrays
    "jax.numpy.save": Kind.OBJECT,
    "jax.numpy.savez": Kind.OBJECT,
    "jax.numpy.savez_compressed": Kind.OBJECT,
    "jax.numpy.load": Kind.UNKNOWN,
    "jax.numpy.set_printoptions": Kind.OBJECT,
    "jax.numpy.printoptions": Kind.OBJECT,
    "jax.numpy.get_printoptions": Kind.DICT,
}
# jax.numpy calls that return a Python list (or tuple) of arrays, not one array: item
# assignment into the list is fine, its elements are arrays (`a, b = jnp.split(x, 2)`)
ARRAY_SEQUENCES = {
    "jax.numpy.split": Kind.LIST,
    "jax.numpy.array_split": Kind.LIST,
    "jax.numpy.hsplit": Kind.LIST,
    "jax.numpy.vsplit": Kind.LIST,
    "jax.numpy.dsplit": Kind.LIST,
    "jax.numpy.meshgrid": Kind.LIST,
    "jax.numpy.unstack": Kind.TUPLE,
    "jax.numpy.nonzero": Kind.TUPLE,
}
ARRAY_NAMESPACES = ("jax.numpy.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.lax.")
NUMPY_CONSTRUCTORS = frozenset(
    """array asarray zeros ones empty full arange linspace eye identity zeros_like ones_like
    empty_like full_like stack concatenate vstack hstack copy""".split()
)
CONTAINER_CALLS = {
    "dict": Kind.DICT,
    "list": Kind.LIST,
    "tuple": Kind.TUPLE,
    "set": Kind.SET,
    "frozenset": Kind.SET,
    "sorted": Kind.LIST,
    "collections.defaultdict": Kind.DICT,
    "collections.OrderedDict": Kind.DICT,
    "collections.Counter": Kind.DICT,
    "collections.deque": Kind.LIST,
}
SCALAR_CALLS = frozenset({"int", "float", "bool", "complex", "len", "abs", "round"})
# methods of a JAX array that do not return an array
ARRAY_NON_ARRAY_METHODS = frozenset(
    {"item", "tolist", "tobytes", "__array__", "devices", "device", "addressable_shards"}
)
ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag"})
GRAD_CALLS = frozenset({"jax.grad", "equinox.filter_grad", "flax.nnx.grad"})
VALUE_AND_GRAD_CALLS = frozenset(
    {"jax.value_and_grad", "equinox.filter_value_and_grad", "flax.nnx.value_and_grad"}
)
_MAX_DEPTH = 12
# expressions one question (`ValueKinds.of`) may visit: a name several bindings reach is a
# join, and joins nest (`if c: cfg = cfg._replace(...)` twenty-five times in one function,
# v37 MarcusRobbins/drone train_live.py: the linter never finished); past the budget the
# answer is UNKNOWN, which proves nothing, as an unresolved name does
_STEPS_PER_QUESTION = 20_000
_MISSING = object()


def join(kinds: list[Kind | None]) -> Kind | None:
    """One kind when all the evidence agrees; None when there is no evidence at all."""
    known = [k for k in kinds if k is not None]
    if not known:
        return None
    first = known[0]
    return first if all(k == first for k in known) else Kind.UNKNOWN


def _exported_names(tree: ast.AST) -> set[str]:
    """The names in a module-level `__all__` list or tuple display."""
    for stmt in getattr(tree, "body", ()):
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets)
            and isinstance(stmt.value, (ast.List, ast.Tuple))
        ):
            return {e.value for e in stmt.value.elts if isinstance(e, ast.Constant)}
    return set()


def result_discarded(call: ast.AST) -> bool:
    """The call is a whole expression statement: nothing keeps its return value."""
    return isinstance(parent(call), ast.Expr)


def assigned_value(index: ModuleIndex, name: ast.Name) -> ast.expr | None:
    """The value of the one assignment `name` refers to (`x = v`, `x: T = v`): None for a
    parameter, an import, a def, a loop or unpacking target, or a name bound several ways."""
    b = index.binding(name.id, index.scope_of(name))
    if b is not None and b.kind == "assign" and b.value is not None:
        return b.value
    return None


def assigned_values(index: ModuleIndex, name: ast.Name) -> list[ast.expr] | None:
    """The values of every binding `name` may refer to, when each is one assignment
    (`step = jax.pmap(f)` in one branch, `step = jax.jit(f)` in the other: v20 karannb); None
    when one of them is anything else (a parameter, an import, a def, an unpacking target)."""
    found = index.lookup(name.id, index.scope_of(name))
    if not found:
        return None
    values = [b.value for b in found if b.kind == "assign" and b.value is not None]
    return values if len(values) == len(found) else None


def resolved(index: ModuleIndex, node: ast.AST | None, depth: int = 0) -> ast.AST | None:
    """`node`, or for a name the value of the one assignment it has, followed through names
    assigned from names (three steps; past that the last name itself). None: a name whose
    value is not one assignment. Rules resolve a spec, a mesh or a sharding this way."""
    if isinstance(node, ast.Name) and depth < 3:
        value = assigned_value(index, node)
        return None if value is None else resolved(index, value, depth + 1)
    return node


class ValueKinds:
    """Kinds of expressions and names in one module (see the module docstring).

    `traced` answers whether an expression holds a traced value (the taint analysis); it is
    consulted only for arithmetic, whose result on a traced operand is a traced array.
    """

    def __init__(self, index: ModuleIndex, traced: Callable[[ast.AST], bool] | None = None):
        self.index = index
        self._traced = traced or (lambda node: False)
        self._busy: set[tuple[int, str]] = set()
        self._returns: dict[ast.AST, Kind | None] = {}
        self._calls_of: dict[ast.AST, list[ast.Call]] = {}
        self._called: set[str] | None = None
        self._steps_left: int | None = None  # of the question being answered (`of`)
        # answers cut short nowhere (`_name`), and how many answers were cut short so far
        self._names: dict[tuple[int, int], Kind | None] = {}
        self._cuts = 0

    # -- public ---------------------------------------------------------------------------
    def of(self, node: ast.AST) -> Kind:
        if self._steps_left is not None:  # asked inside a question already being answered
            return self._of(node, 0) or Kind.UNKNOWN
        self._steps_left = _STEPS_PER_QUESTION
        try:
            return self._of(node, 0) or Kind.UNKNOWN
        finally:
            self._steps_left = None

    def is_array(self, node: ast.AST) -> bool:
        """Proven a JAX array (or an array of keys, which is immutable the same way)."""
        return self.of(node) in (Kind.ARRAY, Kind.KEY)

    def is_array_like(self, node: ast.AST) -> bool:
        """Proven an array of either library (JAX or NumPy): its `.reshape(n)` /
        `.broadcast_to(s)` methods are the array methods, whose shape must be concrete. An
        object of unknown class may have a `reshape` of its own (evosax's
        `ParameterReshaper.reshape(flat)`), which proves nothing."""
        return self.of(node) in (Kind.ARRAY, Kind.NDARRAY, Kind.KEY)

    def is_container(self, node: ast.AST) -> bool:
        return self.of(node) in CONTAINERS

    def holds_arrays(self, node: ast.AST) -> bool:
        """A list/tuple whose elements are proven JAX arrays (a container of arrays, not host
        data): `jnp.asarray` of it stacks them on the device, no host-to-device copy."""
        return self.of(node) in (Kind.LIST, Kind.TUPLE) and self.element(node) in (
            Kind.ARRAY,
            Kind.KEY,
        )

    def element(self, iterable: ast.AST, depth: int = 0) -> Kind:
        """The kind of the elements a `for` loop over `iterable` binds: a list/tuple display
        of arrays, `jax.tree.leaves(...)`, the parts of a traced pytree, or a name bound to
        one of these."""
        if depth > 4:
            return Kind.UNKNOWN
        if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
            kinds = [self.of(e) for e in iterable.elts if not isinstance(e, ast.Starred)]
            if len(kinds) != len(iterable.elts):
                return Kind.UNKNOWN
            return join(list(kinds)) or Kind.UNKNOWN
        if isinstance(iterable, ast.Call):
            q = self.index.qualname(iterable.func)
            if q in TREE_LEAVES:
                return (
                    Kind.ARRAY
                    if self._traced(iterable.args[0] if iterable.args else iterable)
                    else Kind.UNKNOWN
                )
            func = iterable.func
            if isinstance(func, ast.Attribute) and func.attr == "values" and not iterable.args:
                if self._traced(func.value):
                    return Kind.ARRAY
            if q in ("list", "tuple") and len(iterable.args) == 1:
                return self.element(iterable.args[0], depth + 1)
            if q in ARRAY_SEQUENCES:
                return Kind.ARRAY  # `jnp.split`, `jnp.meshgrid`: a Python list of arrays
            return Kind.UNKNOWN
        if self._traced(iterable) and self.of(iterable) not in (Kind.DICT, Kind.SET):
            return Kind.ARRAY  # the parts of a traced list/tuple are traced arrays (or subtrees)
        if isinstance(iterable, ast.Name):
            found = self.index.lookup(iterable.id, self.index.scope_of(iterable))
            b = flow_graphs(self.index).certain_binding(iterable, found) if found else None
            if b is not None and b.kind == "assign" and b.value is not None:
                return self.element(b.value, depth + 1)
        return Kind.UNKNOWN

    # -- expressions ------------------------------------------------------------------------
    def _of(self, node: ast.AST | None, depth: int) -> Kind | None:  # noqa: C901
        if node is None:
            return Kind.UNKNOWN
        if depth > _MAX_DEPTH:
            return Kind.UNKNOWN  # the same at this depth whoever asks: no cut for `_names`
        if self._steps_left is not None:
            self._steps_left -= 1
            if self._steps_left < 0:
                self._cuts += 1
                return Kind.UNKNOWN  # a question past its budget proves nothing
        d = depth + 1
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, (bool, int, float, complex)):
                return Kind.SCALAR
            return Kind.OBJECT
        if isinstance(node, (ast.Dict, ast.DictComp)):
            return Kind.DICT
        if isinstance(node, (ast.List, ast.ListComp)):
            return Kind.LIST
        if isinstance(node, ast.Tuple):
            return Kind.TUPLE
        if isinstance(node, (ast.Set, ast.SetComp)):
            return Kind.SET
        if isinstance(node, (ast.Lambda, ast.JoinedStr, ast.GeneratorExp)):
            return Kind.OBJECT
        if isinstance(node, ast.Name):
            return self._name(node, d)
        if isinstance(node, ast.Call):
            return self._call(node, d)
        if isinstance(node, ast.BinOp):
            return self._arith([node.left, node.right], d)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return Kind.UNKNOWN if self._traced(node.operand) else Kind.SCALAR
            return self._arith([node.operand], d)
        if isinstance(node, ast.IfExp):
            return join([self._of(node.body, d), self._of(node.orelse, d)])
        if isinstance(node, ast.Subscript):
            base = self._of(node.value, d)
            if base in (Kind.ARRAY, Kind.NDARRAY):
                return base
            if base == Kind.KEY:
                return Kind.KEY
            return Kind.UNKNOWN
        if isinstance(node, ast.Attribute):
            base = self._of(node.value, d)
            if base == Kind.ARRAY and node.attr in ARRAY_ATTRS:
                return Kind.ARRAY
            return Kind.UNKNOWN
        if isinstance(node, ast.NamedExpr):
            return self._of(node.value, d)
        return Kind.UNKNOWN

    def _arith(self, operands: list[ast.AST], depth: int) -> Kind:
        kinds = [self._of(o, depth) for o in operands]
        if Kind.ARRAY in kinds:
            return Kind.ARRAY
        if any(k in CONTAINERS or k == Kind.OBJECT for k in kinds):
            return Kind.UNKNOWN  # list repetition, string formatting, ...
        if Kind.NDARRAY in kinds and all(k in (Kind.NDARRAY, Kind.SCALAR) for k in kinds):
            return Kind.NDARRAY
        if all(k == Kind.SCALAR for k in kinds):
            return Kind.SCALAR
        if any(self._traced(o) for o in operands):
            return Kind.ARRAY  # arithmetic on a traced value gives a traced array
        return Kind.UNKNOWN

    def _call(self, node: ast.Call, depth: int) -> Kind | None:  # noqa: C901
        func = node.func
        q = self.index.qualname(func)
        first = node.args[0] if node.args else None
        if q is not None:
            if q in STRUCTURE_PRESERVING:
                if q in TREE_MAP:
                    tree = self._of(node.args[1], depth) if len(node.args) > 1 else None
                    return tree if tree in CONTAINERS else Kind.UNKNOWN
                inner = self._of(first, depth) if first is not None else None
                if inner == Kind.NDARRAY and q.startswith("jax.device_put"):
                    return Kind.ARRAY
                if inner == Kind.SCALAR and q.startswith("jax.lax."):
                    return Kind.ARRAY
                return inner or Kind.UNKNOWN
            if q in KEY_MAKERS:
                return Kind.KEY
            if q in NOT_ARRAYS:
                return NOT_ARRAYS[q]
            if q in ARRAY_SEQUENCES:
                return ARRAY_SEQUENCES[q]
            if q in LAX_STRUCTURED:
                return Kind.UNKNOWN
            if q.startswith(ARRAY_NAMESPACES):
                return Kind.ARRAY
            if q in CONTAINER_CALLS:
                return CONTAINER_CALLS[q]
            if q in SCALAR_CALLS:
                return Kind.SCALAR
            if q in ("str", "repr", "format"):
                return Kind.OBJECT
            if q.startswith("numpy.") and q[len("numpy.") :] in NUMPY_CONSTRUCTORS:
                return Kind.NDARRAY
            if q == "jax.device_get":
                inner = self._of(first, depth) if first is not None else None
                if inner in (Kind.ARRAY, Kind.NDARRAY):
                    return Kind.NDARRAY
                return inner if inner in CONTAINERS else Kind.UNKNOWN
        # grad(f)(x): the gradient has the structure of x; with has_aux a pair
        if isinstance(func, ast.Call):
            inner_q = self.index.qualname(func.func)
            if inner_q in GRAD_CALLS or inner_q in VALUE_AND_GRAD_CALLS:
                if _has_aux(func) or inner_q in VALUE_AND_GRAD_CALLS:
                    return Kind.TUPLE
                argnums = keyword(func, "argnums")
                if argnums is None and first is not None:
                    return self._of(first, depth)
                return Kind.UNKNOWN
        if isinstance(func, ast.Attribute):
            receiver = self._of(func.value, depth)
            if receiver == Kind.ARRAY:
                if func.attr in ARRAY_NON_ARRAY_METHODS:
                    return Kind.UNKNOWN
                return Kind.ARRAY
            if receiver == Kind.NDARRAY and func.attr in ("copy", "reshape", "astype"):
                return Kind.NDARRAY
            if receiver == Kind.DICT and func.attr == "copy":
                return Kind.DICT
            # `x.at[i].set(v)`: only JAX arrays have `.at`
            if isinstance(func.value, ast.Subscript):
                at = func.value.value
                if isinstance(at, ast.Attribute) and at.attr == "at":
                    return Kind.ARRAY
            return Kind.UNKNOWN
        callee = self.index.resolve_function(func)
        if callee is not None:
            return self._returns_of(callee, depth)
        if isinstance(func, ast.Name):
            b = self.index.binding(func.id, self.index.scope_of(func))
            if b is not None and b.kind == "class":
                return Kind.OBJECT  # an instance of a class of this module
        return Kind.UNKNOWN

    def _returns_of(self, fn: ast.AST, depth: int) -> Kind | None:
        if fn in self._returns:
            return self._returns[fn]
        if isinstance(fn, ast.Lambda):
            return self._of(fn.body, depth)
        self._returns[fn] = None  # recursion: no evidence from this path
        values = [
            r.value
            for r in ast.walk(fn)
            if isinstance(r, ast.Return) and self.index.enclosing_function(r) is fn
        ]
        if any(v is None for v in values) or not values:
            result: Kind | None = Kind.UNKNOWN
        else:
            result = join([self._of(v, depth) for v in values]) or Kind.UNKNOWN
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
            result = Kind.OBJECT
        if self._steps_left is not None and self._steps_left < 0:
            del self._returns[fn]  # cut short by the question's budget: not the function's kind
        else:
            self._returns[fn] = result
        return result

    def _aux_of(self, fn_expr: ast.AST, depth: int) -> Kind | None:
        """The kind `fn` returns as the second element of its (value, aux) output."""
        fn = fn_expr if isinstance(fn_expr, FUNCTION_NODES) else None
        if fn is None:
            fn = self.index.resolve_function(fn_expr)
        if fn is None:
            return Kind.UNKNOWN
        if isinstance(fn, ast.Lambda):
            values: list[ast.expr | None] = [fn.body]
        else:
            values = [
                r.value
                for r in ast.walk(fn)
                if isinstance(r, ast.Return) and self.index.enclosing_function(r) is fn
            ]
        kinds: list[Kind | None] = []
        for v in values:
            if isinstance(v, ast.Tuple) and len(v.elts) == 2:
                kinds.append(self._of(v.elts[1], depth))
            else:
                kinds.append(Kind.UNKNOWN)
        return join(kinds) or Kind.UNKNOWN

    # -- names ------------------------------------------------------------------------------
    def _name(self, node: ast.Name, depth: int) -> Kind | None:
        scope = self.index.scope_of(node)
        found = self.index.lookup(node.id, scope)
        if not found:
            return Kind.UNKNOWN  # a builtin or an unbound name
        key = (id(node), node.id)
        if key in self._busy:
            self._cuts += 1
            return None  # a binding that depends on itself adds no evidence
        known = self._names.get((id(node), depth), _MISSING)
        if known is not _MISSING:
            return known  # type: ignore[return-value]
        self._busy.add(key)
        cuts = self._cuts
        try:
            graphs = flow_graphs(self.index)
            reaching = graphs.certain_binding(node, found)
            if reaching is not None:
                result = self._binding_kind(reaching, node.id, depth)
            else:
                may = graphs.reaching_bindings(node, found) or found
                result = join([self._binding_kind(b, node.id, depth) for b in may])
        finally:
            self._busy.discard(key)
        if self._cuts == cuts:
            # nothing on the way was cut short by what asked it (a cycle through a name being
            # answered, the budget; the depth limit is part of the key): the answer is the
            # name's at this depth whatever asked it (joins of joins stay linear)
            self._names[(id(node), depth)] = result
        return result

    def _binding_kind(self, b, name: str, depth: int) -> Kind | None:  # noqa: ANN001
        if b.kind == "assign":
            if isinstance(b.node, ast.AnnAssign) and b.value is None:
                return Kind.UNKNOWN
            return self._of(b.value, depth)
        if b.kind in ("def",):
            return Kind.OBJECT
        if b.kind == "class":
            return Kind.OBJECT
        if b.kind == "local":
            stmt = b.node
            if isinstance(stmt, ast.AugAssign):
                return None  # `x += 1` keeps the kind of x
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                return self._unpacked(stmt.targets[0], stmt.value, name, depth)
            return Kind.UNKNOWN
        if b.kind == "param" and isinstance(b.node, ast.arg):
            return self._param_kind(b.node, depth)
        return Kind.UNKNOWN  # imports, loop targets, ...

    def _param_kind(self, arg: ast.arg, depth: int) -> Kind:
        """A parameter is a JAX array when every call of its function passes one: the
        function is a plain def of this module (not a method, not decorated), its name is
        only ever called (never passed on or exported as a value here), and each call
        binds this parameter to an expression proven an array. Any other evidence (or
        none) leaves it UNKNOWN."""
        args = parent(arg)
        fn = parent(args) if isinstance(args, ast.arguments) else None
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return Kind.UNKNOWN
        positional = [*args.posonlyargs, *args.args]  # type: ignore[union-attr]
        if arg not in positional and arg not in args.kwonlyargs:  # type: ignore[union-attr]
            return Kind.UNKNOWN
        calls = self._call_sites(fn)
        if not calls:
            return Kind.UNKNOWN
        kinds: list[Kind | None] = []
        for call in calls:
            value = next((kw.value for kw in call.keywords if kw.arg == arg.arg), None)
            if value is None and arg in positional:
                pos = positional.index(arg)
                if any(isinstance(a, ast.Starred) for a in call.args[: pos + 1]):
                    return Kind.UNKNOWN
                value = call.args[pos] if pos < len(call.args) else None
            if value is None or any(kw.arg is None for kw in call.keywords):
                return Kind.UNKNOWN
            kinds.append(self._of(value, depth + 1))
        return Kind.ARRAY if join(kinds) == Kind.ARRAY else Kind.UNKNOWN

    def _call_sites(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Call]:
        """Every call of `fn` in this module, or [] when its name is also used otherwise
        (passed as a value, exported, rebound) or it is a method or decorated."""
        if fn in self._calls_of:
            return self._calls_of[fn]
        calls: list[ast.Call] = []
        ok = not fn.decorator_list and not isinstance(parent(fn), ast.ClassDef)
        if self._called is None:  # names called somewhere: most defs here are never called
            self._called = {c.func.id for c in self.index.calls if isinstance(c.func, ast.Name)}
        if ok and fn.name in self._called:
            for node in self.index.names.get(fn.name, ()):
                call = parent(node)
                if (
                    isinstance(node.ctx, ast.Load)
                    and isinstance(call, ast.Call)
                    and call.func is node
                    and self.index.resolve_function(node) is fn
                ):
                    calls.append(call)
                elif self.index.resolve_function(node) is fn or not isinstance(node.ctx, ast.Load):
                    ok = False
                    break
            if ok and fn.name in _exported_names(self.index.tree):
                ok = False
        else:
            ok = False
        self._calls_of[fn] = calls if ok else []
        return self._calls_of[fn]

    def _unpacked(self, target: ast.AST, value: ast.AST, name: str, depth: int) -> Kind | None:
        """The kind `name` gets from `a, b = value`."""
        if not isinstance(target, (ast.Tuple, ast.List)):
            return Kind.UNKNOWN
        pos = next(
            (i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name),
            None,
        )
        if pos is None:
            # nested: `(loss, aux), grads = value_and_grad(f, has_aux=True)(x)`
            for i, e in enumerate(target.elts):
                if isinstance(e, (ast.Tuple, ast.List)) and any(
                    isinstance(n, ast.Name) and n.id == name for n in ast.walk(e)
                ):
                    part = self._element(value, i, depth)
                    if isinstance(part, ast.AST):
                        return self._unpacked(e, part, name, depth)
                    if part == "aux-pair" and len(e.elts) == 2:
                        inner = e.elts[1]
                        if isinstance(inner, ast.Name) and inner.id == name:
                            return self._aux_of(_grad_function(value), depth)
                    return Kind.UNKNOWN
            return Kind.UNKNOWN
        if any(isinstance(e, ast.Starred) for e in target.elts):
            return Kind.UNKNOWN
        part = self._element(value, pos, depth)
        if isinstance(part, ast.AST):
            return self._of(part, depth)
        if part == "aux":
            return self._aux_of(_grad_function(value), depth)
        if part == "array":
            return Kind.ARRAY
        if part == "grad":
            call = value
            arg = call.args[0] if isinstance(call, ast.Call) and call.args else None
            return self._of(arg, depth) if arg is not None else Kind.UNKNOWN
        return Kind.UNKNOWN

    def _element(self, value: ast.AST, pos: int, depth: int):  # noqa: ANN202
        """The expression (or a marker) for element `pos` of a tuple-valued expression."""
        if isinstance(value, (ast.Tuple, ast.List)) and pos < len(value.elts):
            elt = value.elts[pos]
            return None if isinstance(elt, ast.Starred) else elt
        if isinstance(value, ast.Call) and self.index.qualname(value.func) in ARRAY_SEQUENCES:
            return "array"  # `a, b = jnp.split(x, 2)`: each part is an array
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Call):
            q = self.index.qualname(value.func.func)
            aux = _has_aux(value.func)
            if q in GRAD_CALLS and aux:
                return "grad" if pos == 0 else "aux"
            if q in VALUE_AND_GRAD_CALLS:
                if pos == 1:
                    return "grad"
                return "aux-pair" if aux else None
        return None


def _has_aux(call: ast.Call) -> bool:
    v = keyword(call, "has_aux")
    return isinstance(v, ast.Constant) and v.value is True


def _grad_function(value: ast.AST) -> ast.AST:
    """`f` in `grad(f, has_aux=True)(x)`."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and value.func.args:
        return value.func.args[0]
    return value
