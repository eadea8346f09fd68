"""Static (meta) fields of the pytree classes a module defines.

A registered pytree splits an object into children (traced under jit) and auxiliary data
(hashed into the cache key and handed back as plain Python values). Reading a static field
of a traced pytree (`grid.num_dims`) gives a Python value, so a Python `if`, `range` or
slice on it is fine. The ways to declare one that this module recognises:

- `dataclasses.field(metadata=dict(static=True))` with `jax.tree_util.register_dataclass`,
  or `register_dataclass(Cls, data_fields=..., meta_fields=[...])`;
- `flax.struct.field(pytree_node=False)` (`flax.struct.dataclass`, `PyTreeNode`), and any
  `field(metadata={"pytree_node": False})` (jax-md and jax_dataclasses use that key;
  chex dataclasses have no static fields);
- `eqx.field(static=True)` / `eqx.static_field()` (equinox Modules);
- an annotation `jdc.Static[int]` (jax_dataclasses' `pytree_dataclass`);
- every field of a class decorated `jax.tree_util.register_static` (the object is aux data);
- `pytree_field(static=True)`, `to.field(node=False)` (treeo) and the like;
- a `static_field()` helper (jax-md's, or one this module defines that returns one of the
  above: its returns are followed);
- the auxiliary data that `tree_flatten` returns for `register_pytree_node_class` (and the
  flatten function given to `register_pytree_node`).

Which class a value has is known from a parameter annotation naming a class of this module;
without one, an attribute name counts as static when some class of the module declares it
static and no class of the module declares it as a data field (names are unambiguous).
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable
from functools import cached_property

from jaxlint.analysis.annotations import array_annotated_fields
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.jax_api import (
    REGISTER_DATACLASS,
    REGISTER_NODE,
    REGISTER_NODE_CLASS,
    REGISTER_STATIC,
    STATIC_ATTRS,
)
from jaxlint.analysis.kinds import ARRAY_METHODS, STATIC_METHODS, ValueKind, annotation_kind
from jaxlint.analysis.syntax import dump_mentions, statement_fields
from jaxlint.analysis.transforms import module_library

# helpers whose name says what they return, called from another module (whose body the
# module's own facts cannot read): jax-md's `static_field()`, and `nonpytree_field()`, the
# `flax.struct.field(pytree_node=False)` of the jaxrl_m / OGBench / FQL template that
# offline-RL repositories copy into `utils/flax_utils.py` (`config: Any = nonpytree_field()`
# on an agent `PyTreeNode`: v33 vlaft, v34 douri, horizon-reduction, FlowMARL,
# latent_diffusion_planning; JAX101/JAX120 on `agent.config[...]` under jit)
STATIC_HELPER_NAMES = frozenset({"static_field", "nonpytree_field"})
# annotations that declare a static field: `residual_dim: jdc.Static[int]` (jax_dataclasses)
STATIC_ANNOTATION_TYPES = frozenset({"jax_dataclasses.Static"})
FIELD_FUNCTIONS = frozenset({"field"})  # dataclasses.field, flax.struct.field, eqx.field, ...
_PLAIN_DATACLASSES = frozenset({"dataclasses.dataclass", "dataclass"})


def _is_false(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _is_true(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _static_metadata(node: ast.AST | None) -> bool:
    """`dict(static=True)`, `{"static": True}`, `{"pytree_node": False}`, `dict(pytree_node=False)`."""
    if isinstance(node, ast.Call) and dotted(node.func) == "dict":
        kws = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        return _is_true(kws.get("static")) or _is_false(kws.get("pytree_node"))
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if isinstance(k, ast.Constant) and (
                (k.value == "static" and _is_true(v)) or (k.value == "pytree_node" and _is_false(v))
            ):
                return True
    return False


def _literal_strs(node: ast.AST | None) -> list[str]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
    return []


def _shape_metadata(node: ast.AST, me: str, static: set[str], depth: int = 0) -> bool:
    """`node`, read in a method whose object is `me`, is a Python value under tracing:
    a constant, a shape/ndim/size/dtype (or an element of one), `len(...)`, a library fact's
    metadata method (`axis_size`), a static field of the object, or arithmetic and tuples of
    those. Anything else (a data field, a call of unknown kind) is not proven."""
    if depth > 8:
        return False
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        if node.attr in STATIC_ATTRS:
            return True
        return isinstance(node.value, ast.Name) and node.value.id == me and node.attr in static
    if isinstance(node, ast.Subscript):
        return _shape_metadata(node.value, me, static, depth + 1)
    if isinstance(node, ast.BinOp):
        return _shape_metadata(node.left, me, static, depth + 1) and _shape_metadata(
            node.right, me, static, depth + 1
        )
    if isinstance(node, ast.UnaryOp):
        return _shape_metadata(node.operand, me, static, depth + 1)
    if isinstance(node, ast.Tuple):
        return all(_shape_metadata(e, me, static, depth + 1) for e in node.elts)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "len":
            return True
        if isinstance(func, ast.Name) and func.id in ("int", "math.prod", "prod") and node.args:
            return all(_shape_metadata(a, me, static, depth + 1) for a in node.args)
        if isinstance(func, ast.Attribute) and func.attr in STATIC_METHODS:
            return True
    return False


class PytreeFields:
    """Per class of the module: its static fields and its data fields."""

    def __init__(
        self,
        index: ModuleIndex,
        imported: frozenset[str] = frozenset(),
        imported_leaves: frozenset[str] = frozenset(),
    ) -> None:
        self.index = index
        # names the modules this one imports declare static and none of them (nor this
        # module) declares as data (the project index's `StaticAttributes`)
        self.imported = imported
        # names the pytree classes of those modules declare as leaves, none as static
        self.imported_leaves = imported_leaves
        self.static: dict[ast.ClassDef, set[str]] = {}
        self.data: dict[ast.ClassDef, set[str]] = {}
        # the data fields of classes JAX flattens into leaves (a registered dataclass,
        # `PyTreeNode`, an equinox Module, a NamedTuple): under a transform they are traced.
        # A flax Module's fields are its configuration, a plain dataclass is no pytree.
        self.leaves: dict[ast.ClassDef, set[str]] = {}
        # of those, the properties that compute an array from leaves (`self.step > 100`)
        self.array_properties: set[str] = set()
        self._marker_cache: dict[ast.AST, bool] = {}
        self._find()

    # -- queries -------------------------------------------------------------------------------
    @cached_property
    def static_names(self) -> frozenset[str]:
        """Attribute names some class declares static and no class declares as data."""
        static = set().union(*self.static.values()) if self.static else set()
        data = set().union(*self.data.values()) if self.data else set()
        return frozenset((static | self.imported) - data)

    @cached_property
    def leaf_names(self) -> frozenset[str]:
        """Attribute names some pytree class (of this module or, through the project index, of
        a module it imports) declares as a leaf and no class declares static: reading one on
        a traced pytree gives a traced value (`state.env_map`)."""
        leaves = set().union(*self.leaves.values()) if self.leaves else set()
        static = set().union(*self.static.values()) if self.static else set()
        return frozenset((leaves | self.imported_leaves) - static - self.imported)

    def is_leaf_attribute(self, attr: str, cls: ast.ClassDef | None = None) -> bool:
        """`value.attr` is a leaf of a pytree: of `cls` when the value's class is known, else
        by the (unambiguous) name."""
        if cls is not None:
            return attr in self.leaves.get(cls, ())
        return attr in self.leaf_names

    def array_field(self, cls: ast.ClassDef, attr: str) -> bool:
        """`attr` is a leaf of `cls` whose annotation proves an array (`w: jax.Array`,
        `Float[Array, "n"]`): under a filter transform, which traces only array leaves, a
        traced value, where an unannotated field may be a Python value."""
        return attr in self.leaves.get(cls, ()) and attr in array_annotated_fields(self.index, cls)

    def class_named(self, annotation: ast.AST | None) -> ast.ClassDef | None:
        """The class of this module an annotation names (`Grid`, `"Grid"`, `Optional[Grid]`)."""
        if annotation is None:
            return None
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            name = annotation.value.strip()
        elif isinstance(annotation, ast.Name):
            name = annotation.id
        else:
            return None
        for cls in self.static:
            if cls.name == name:
                return cls
        for cls in self.data:
            if cls.name == name:
                return cls
        return None

    def param_class(self, fn: ast.AST, name: str) -> ast.ClassDef | None:
        """The class of this module that the annotation of `fn`'s parameter `name` names."""
        args = getattr(fn, "args", None)
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if args is not None else ():
            if a.arg == name:
                return self.class_named(a.annotation)
        return None

    def is_static_attribute(self, attr: str, cls: ast.ClassDef | None = None) -> bool:
        """`value.attr` is a static field: of `cls` when the value's class is known, else by
        the (unambiguous) name."""
        if cls is not None:
            return attr in self.static.get(cls, ())
        return attr in self.static_names

    # -- discovery -----------------------------------------------------------------------------
    def _find(self) -> None:
        for cls in self.index.classes:
            static: set[str] = set()
            data: set[str] = set()
            if any(self._registers_static(d) for d in cls.decorator_list):
                # `@jax.tree_util.register_static`: the whole object is auxiliary data (a
                # pytree with no leaves), so every field is a Python value under jit
                static |= {
                    t.id
                    for stmt in cls.body
                    if isinstance(stmt, (ast.AnnAssign, ast.Assign))
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                    if isinstance(t, ast.Name)
                }
                self.static[cls] = static | self._static_properties(cls, static)
                continue
            for stmt in cls.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    if dump_mentions(stmt.annotation, "ClassVar"):
                        continue
                    static_field = (
                        self._is_static_marker(stmt.value)
                        or self._python_typed(stmt.annotation)
                        or self._static_annotation(stmt.annotation)
                    )
                    (static if static_field else data).add(stmt.target.id)
            if any(self.index.qualname(d) in REGISTER_NODE_CLASS for d in cls.decorator_list):
                for stmt in cls.body:
                    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in (
                        "tree_flatten",
                        "tree_flatten_with_keys",
                    ):
                        self._read_flatten(stmt, static, data)
            static |= self._static_properties(cls, static)
            if static:
                self.static[cls] = static
            if data and (static or self._is_pytree_class(cls)):
                self.data[cls] = data
            if data and self._flattened(cls):
                leaves = data - static
                computed = self._array_properties(cls, leaves)
                self.array_properties |= computed
                self.leaves[cls] = leaves | computed
        for call in self.index.calls:
            q = self.index.qualname(call.func)
            if q in REGISTER_DATACLASS and call.args:
                cls = self._local_class(call.args[0])
                if cls is None:
                    continue
                for kw in call.keywords:
                    if kw.arg == "meta_fields":
                        self.static.setdefault(cls, set()).update(_literal_strs(kw.value))
                    elif kw.arg == "data_fields":
                        self.data.setdefault(cls, set()).update(_literal_strs(kw.value))
                        self.leaves.setdefault(cls, set()).update(_literal_strs(kw.value))
            elif q in REGISTER_NODE and len(call.args) >= 2:
                cls = self._local_class(call.args[0])
                flatten = self.index.resolve_function(call.args[1])
                if cls is not None and flatten is not None:
                    # the flatten function is what JAX uses: it overrides what the class
                    # body's annotations suggest (an attrs field `irreps: Irreps = attrib()`
                    # that flatten returns as aux data is static, e3nn-jax's IrrepsArray)
                    aux, children = set(), set()
                    self._read_flatten(flatten, aux, children)
                    static = (self.static.get(cls, set()) - children) | aux
                    data = (self.data.get(cls, set()) - aux) | children
                    if static:
                        self.static[cls] = static
                    if data:
                        self.data[cls] = data
                    if children:
                        self.leaves[cls] = children - aux

    def _static_properties(self, cls: ast.ClassDef, static: set[str]) -> set[str]:
        """Properties of `cls` whose every return is shape metadata (`self.x.shape[0]`,
        `len(self.names)`, `self.idx.axis_size("seq")`, a static field, arithmetic of
        those): reading one on a traced object gives a Python value, as a static field does
        (levanter `page_table.max_seqs`, a haliax axis size compared with `min`)."""
        return self._properties(cls, lambda r, me: _shape_metadata(r, me, static))

    def _array_properties(self, cls: ast.ClassDef, leaves: set[str]) -> set[str]:
        """Properties of a pytree class whose every return computes an array from its leaves
        (`self.page_indices.sum()`, `self.a * self.b`, `jnp.exp(self.log_scale)`): traced on a
        traced object, as the leaves are."""
        return self._properties(cls, lambda r, me: self._from_leaves(r, me, leaves))

    def _properties(self, cls: ast.ClassDef, every: Callable[[ast.expr, str], bool]) -> set[str]:
        """The properties of `cls` each of whose returns satisfies `every(value, self_name)`."""
        out: set[str] = set()
        for stmt in cls.body:
            if not isinstance(stmt, ast.FunctionDef) or not stmt.args.args:
                continue
            if not any(
                (dotted(d) or "").rsplit(".", 1)[-1] in ("property", "cached_property")
                for d in stmt.decorator_list
            ):
                continue
            me = stmt.args.args[0].arg
            returns = [r.value for r in _own_returns_breadth_first(stmt)]
            if returns and all(r is not None and every(r, me) for r in returns):
                out.add(stmt.name)
        return out

    def _from_leaves(self, node: ast.AST, me: str, leaves: set[str], depth: int = 0) -> bool:
        """`node`, read in a method whose object is `me`, is an array computed from a leaf."""
        if depth > 8:
            return False
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == me:
                return node.attr in leaves
            return node.attr in ("T", "mT", "real", "imag") and self._from_leaves(
                node.value, me, leaves, depth + 1
            )
        if isinstance(node, ast.Subscript):
            return self._from_leaves(node.value, me, leaves, depth + 1)
        if isinstance(node, ast.BinOp):
            return self._from_leaves(node.left, me, leaves, depth + 1) or self._from_leaves(
                node.right, me, leaves, depth + 1
            )
        if isinstance(node, ast.UnaryOp):
            return self._from_leaves(node.operand, me, leaves, depth + 1)
        if isinstance(node, ast.Compare):
            return any(
                self._from_leaves(n, me, leaves, depth + 1) for n in (node.left, *node.comparators)
            )
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ARRAY_METHODS:
                if self._from_leaves(func.value, me, leaves, depth + 1):
                    return True
            q = self.index.qualname(func) or ""
            if q.startswith(("jax.numpy.", "jax.lax.", "jax.nn.")):
                return any(self._from_leaves(a, me, leaves, depth + 1) for a in node.args)
        return False

    def _registers_static(self, decorator: ast.AST) -> bool:
        """`@jax.tree_util.register_static`, or a decorator of this module that applies it
        (`jax_static = lambda cls: tree_util.register_static(dataclasses.dataclass(cls))`)."""
        if self.index.qualname(decorator) in REGISTER_STATIC:
            return True
        body: ast.AST | None = None
        if isinstance(decorator, ast.Name):
            b = self.index.binding(decorator.id, self.index.scope_of(decorator))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Lambda):
                body = b.value.body
            elif b is not None and b.kind == "def":
                body = b.node
        return body is not None and any(
            isinstance(n, ast.Call) and self.index.qualname(n.func) in REGISTER_STATIC
            for n in ast.walk(body)
        )

    def _static_annotation(self, annotation: ast.AST) -> bool:
        """`jdc.Static[int]` (jax_dataclasses): the annotation itself declares the field
        static (its value goes into the treedef, never traced)."""
        return (
            isinstance(annotation, ast.Subscript)
            and self.index.qualname(annotation.value) in STATIC_ANNOTATION_TYPES
        )

    def _python_typed(self, annotation: ast.AST) -> bool:
        """A field declared a value JAX cannot trace (`name: str`, `rules: Mapping[str,
        Rule]` of enums, `act: Callable`): a Python value wherever the object is built, a
        pytree leaf or not (a str leaf cannot even be passed to jit). Python scalars
        (`timestep: int`) are not: they are traced when the object is a jit argument."""
        kind = annotation_kind(self.index, annotation, entry=True)
        return kind is ValueKind.STATIC or kind is ValueKind.CALLABLE

    def _flattened(self, cls: ast.ClassDef) -> bool:
        """JAX flattens instances of `cls` into leaves: a registered dataclass
        (`flax.struct.dataclass`, `chex.dataclass`, `jax.tree_util.register_dataclass`, a
        `pytree_dataclass`), a `PyTreeNode`/`Struct`, an equinox Module, a NamedTuple, or a
        `register_pytree_node_class` (its `tree_flatten` decides). Not a flax Module (its
        fields are configuration) nor a plain `dataclasses.dataclass` (no pytree at all)."""
        for dec in cls.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            q = self.index.qualname(target) or dotted(target) or ""
            if q in REGISTER_NODE_CLASS:
                return True
            if q.endswith(("dataclass", "register_dataclass")) and q not in _PLAIN_DATACLASSES:
                return True
        library = module_library(self.index, cls)
        if library is not None:
            return library == "equinox"
        for base in cls.bases:
            q = self.index.qualname(base) or dotted(base) or ""
            if q.endswith(("PyTreeNode", "Struct", "NamedTuple")):
                return True
        return False

    def _is_pytree_class(self, cls: ast.ClassDef) -> bool:
        for dec in cls.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            q = self.index.qualname(target) or dotted(target) or ""
            if q.endswith(("dataclass", "register_dataclass")):
                return True
        for base in cls.bases:
            q = self.index.qualname(base) or dotted(base) or ""
            if q.endswith(("PyTreeNode", "Module", "Struct")):
                return True
        return False

    def _local_class(self, node: ast.AST) -> ast.ClassDef | None:
        if not isinstance(node, ast.Name):
            return None
        b = self.index.binding(node.id, self.index.scope_of(node))
        if b is not None and b.kind == "class" and isinstance(b.node, ast.ClassDef):
            return b.node
        return None

    def _is_static_marker(self, value: ast.AST | None, depth: int = 0) -> bool:
        """A field default that declares the field static."""
        if not isinstance(value, ast.Call) or depth > 3:
            return False
        func = value.func
        q = self.index.qualname(func) or dotted(func) or ""
        last = q.rsplit(".", 1)[-1]
        kws = {kw.arg: kw.value for kw in value.keywords if kw.arg}
        if last in STATIC_HELPER_NAMES:
            return True
        if last in FIELD_FUNCTIONS or last.endswith("_field"):
            if (
                _is_true(kws.get("static"))
                or _is_false(kws.get("pytree_node"))
                or _is_false(kws.get("node"))
            ):
                return True
            if _static_metadata(kws.get("metadata")):
                return True
            if last in FIELD_FUNCTIONS:
                return False  # a library's field without a static marker: a data field
        # a helper of this module that returns a static field declaration
        fn = self.index.resolve_function(func)
        if fn is None or isinstance(fn, ast.Lambda):
            return False
        cached = self._marker_cache.get(fn)
        if cached is not None:
            return cached
        self._marker_cache[fn] = False  # recursion guard
        returns = [
            r.value
            for r in ast.walk(fn)
            if isinstance(r, ast.Return) and self.index.enclosing_function(r) is fn
        ]
        result = bool(returns) and all(self._is_static_marker(r, depth + 1) for r in returns)
        self._marker_cache[fn] = result
        return result

    def _comprehension_strings(self, expr: ast.AST) -> dict[str, set[str]]:
        """The loop variables of the comprehensions in `expr` that walk a module constant
        tuple or list of strings (`for name in _ARRAY_FIELDS`), with those strings."""
        out: dict[str, set[str]] = {}
        for gen in (n for n in ast.walk(expr) if isinstance(n, ast.comprehension)):
            if not (isinstance(gen.target, ast.Name) and isinstance(gen.iter, ast.Name)):
                continue
            found = self.index.lookup(gen.iter.id, self.index.scope_of(gen.iter))
            if not found or len(found) != 1 or found[0].kind != "assign":
                continue
            value = found[0].value
            if isinstance(value, (ast.Tuple, ast.List)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
            ):
                out[gen.target.id] = {e.value for e in value.elts}  # type: ignore[attr-defined]
        return out

    def _read_flatten(self, fn: ast.AST, static: set[str], data: set[str]) -> None:
        """`return children, aux` of a flatten function (or the body of a flatten lambda):
        attributes of its first parameter read in `aux` are static, those in `children` are
        data."""
        args = fn.args  # type: ignore[attr-defined]
        params = [a.arg for a in (*args.posonlyargs, *args.args)]
        if not params:
            return
        obj = params[0]
        local: dict[str, ast.expr] = {}
        for node in ast.walk(fn):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                local[node.targets[0].id] = node.value

        def attrs(expr: ast.AST, depth: int = 0) -> set[str]:
            out: set[str] = set()
            names = self._comprehension_strings(expr)
            for sub in ast.walk(expr):
                if (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == obj
                ):
                    out.add(sub.attr)
                elif isinstance(sub, ast.Name) and sub.id in local and depth < 3:
                    out |= attrs(local[sub.id], depth + 1)
                elif _getattr_of(sub, obj):
                    # `getattr(self, "n")`, `[getattr(self, f) for f in _STATIC_FIELDS]`
                    # (v16 rows, tuning material: jaxcross `PackedCrossCatState`, JAX120 x7)
                    key = sub.args[1]  # type: ignore[attr-defined]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        out.add(key.value)
                    elif isinstance(key, ast.Name):
                        out |= names.get(key.id, set())
            return out

        if isinstance(fn, ast.Lambda):  # `lambda x: ((x.array,), x.irreps)` (e3nn-jax)
            returned: list[ast.expr | None] = [fn.body]
        else:
            returned = [
                node.value
                for node in ast.walk(fn)
                if isinstance(node, ast.Return) and self.index.enclosing_function(node) is fn
            ]
        for value in returned:
            if isinstance(value, ast.Tuple) and len(value.elts) == 2:
                data |= attrs(value.elts[0])
                static |= attrs(value.elts[1])


def _getattr_of(node: ast.AST, obj: str) -> bool:
    """`getattr(obj, key)` (two arguments) on the name `obj`."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) == 2
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == obj
    )


def _own_returns_breadth_first(fn: ast.AST) -> list[ast.Return]:
    """The `return` statements of `fn` itself, in `ast.walk` order (breadth first), walking
    statements only (no expression holds one) and not into nested defs and classes (whose
    returns are not `fn`'s)."""
    out: list[ast.Return] = []
    todo = deque([fn])
    while todo:
        cur = todo.popleft()
        if type(cur) is ast.Return:
            out.append(cur)
            continue
        if cur is not fn and isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in statement_fields(type(cur)):
            items = getattr(cur, name, None)
            if items:
                todo.extend(items)
    return out
