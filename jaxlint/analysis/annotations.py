"""What a parameter's annotation proves about its kind (analysis/kinds.py's first evidence).

`batch_size: int`, `mode: str | None`, `shape: tuple[int, ...]`, an `Enum` of this module
are Python values; `x: jax.Array`, `chex.Array`, jaxtyping's `Float[Array, "b n"]` are arrays;
`fn: Callable[...]` is a callable. A jit argument (`entry=True`) annotated with a Python
scalar is still traced (JAX turns `int`/`float`/`bool` into weak-typed tracers), so only what
JAX cannot trace proves it static there. The annotation facts of libraries (`LIBRARY_FACTS`,
`what == "annotation"`) are table entries with their own tests.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.library_facts import LIBRARY_FACTS, ValueKind, join

__all__ = ["SCALARS", "annotation_kind", "quoted_annotation"]

_ANNOTATIONS = {f.name: f.kind for f in LIBRARY_FACTS if f.what == "annotation"}

# jaxtyping's dtype-and-shape annotations: `Float[Array, "b n"]` is an array
_JAXTYPING = frozenset(
    "Float Int Bool Shaped Real Num Integer UInt Complex Inexact Key Float32 Float64 Int32"
    " Int64 Bool_".split()
)
# Python values that JAX cannot trace: a jit parameter so annotated must be static already
_UNTRACEABLE = frozenset({"str", "bytes", "type", "None", "NoneType"})
# Python scalars: a jit parameter so annotated still becomes a tracer when passed
SCALARS = frozenset({"int", "float", "bool", "complex"})
_CALLABLES = frozenset({"Callable", "typing.Callable", "collections.abc.Callable"})
_SEQUENCES = frozenset(
    {
        "tuple",
        "list",
        "typing.Tuple",
        "typing.List",
        "typing.Sequence",
        "collections.abc.Sequence",
        "typing.Optional",
        "typing.Union",
        "typing.Literal",
        "typing.Final",
        # a mapping of Python values (`Mapping[str, AttentionRule]`) is a Python value
        "dict",
        "typing.Dict",
        "typing.Mapping",
        "collections.abc.Mapping",
        "frozenset",
        "set",
        "typing.FrozenSet",
        "typing.Set",
    }
)
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})


def annotation_kind(index: ModuleIndex, ann: ast.AST | None, *, entry: bool = False) -> ValueKind:
    """The kind an annotation proves. `entry`: the parameter is one JAX itself turns into a
    tracer (a jit argument), where `int`/`float`/`bool` and tuples of them are traced too;
    only values JAX cannot trace (str, Enum, dtype, callables, axis metadata) prove STATIC."""
    kind, scalar_only = _annotation(index, ann, 0)
    if entry and kind is ValueKind.STATIC and scalar_only:
        return ValueKind.UNKNOWN
    return kind


def _annotation(index: ModuleIndex, ann: ast.AST | None, depth: int) -> tuple[ValueKind, bool]:
    """(kind, the static proof rests only on Python scalars)."""
    if ann is None or depth > 4:
        return ValueKind.UNKNOWN, False
    if isinstance(ann, ast.Constant):
        if ann.value is None:
            return ValueKind.STATIC, False
        if isinstance(ann.value, str):
            return _annotation(index, quoted_annotation(index, ann), depth + 1)
        return ValueKind.UNKNOWN, False
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):  # `str | None`
        return _union(index, [ann.left, ann.right], depth)
    if isinstance(ann, ast.Subscript):
        head = index.qualname(ann.value) or ""
        if head.rsplit(".", 1)[-1] in _JAXTYPING and head.startswith("jaxtyping"):
            return ValueKind.ARRAY, False
        if head in _CALLABLES:
            return ValueKind.CALLABLE, False
        if head in _SEQUENCES or head in (
            "Optional",
            "Union",
            "Tuple",
            "Sequence",
            "Literal",
            "Mapping",
            "Dict",
        ):
            if head.endswith("Literal"):
                return ValueKind.STATIC, False
            inner = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
            inner = [e for e in inner if not (isinstance(e, ast.Constant) and e.value is ...)]
            kind, scalar = _union(index, inner, depth)
            if head.endswith(("Optional", "Union")):
                return kind, scalar
            # a sequence of Python values is a Python value (a shape tuple); of Python
            # scalars it is still traced when passed to jit, of strings or enums never
            return (
                (ValueKind.STATIC, scalar)
                if kind is ValueKind.STATIC
                else (ValueKind.UNKNOWN, False)
            )
        return ValueKind.UNKNOWN, False
    if isinstance(ann, ast.Name) and _is_enum(index, ann):
        return ValueKind.STATIC, False
    if isinstance(ann, ast.Name):
        fields = _named_tuple_fields(index, ann)
        if fields:
            # a tuple of Python values, as `tuple[int, ...]` is (v33 gyaradax sharding.py,
            # `grid: GridShape` of int fields built from `.shape`, JAX110 x6)
            kind, scalar = _union(index, fields, depth)
            return (kind, scalar) if kind is ValueKind.STATIC else (ValueKind.UNKNOWN, False)
    q = index.qualname(ann)
    if q is None:
        return ValueKind.UNKNOWN, False
    if q in _ANNOTATIONS:
        return _ANNOTATIONS[q], False
    if q.rsplit(".", 1)[-1] in ("Array", "ArrayLike") and q.startswith(
        ("jax", "chex", "jaxtyping")
    ):
        return ValueKind.ARRAY, False
    if q in _UNTRACEABLE:
        return ValueKind.STATIC, False
    if q in SCALARS:
        return ValueKind.STATIC, True
    if q in _CALLABLES:
        return ValueKind.CALLABLE, False
    return ValueKind.UNKNOWN, False


def _union(index: ModuleIndex, parts: Sequence[ast.AST], depth: int) -> tuple[ValueKind, bool]:
    kinds = [_annotation(index, p, depth + 1) for p in parts if not _is_none(p)]
    if not kinds:
        return ValueKind.STATIC, False
    kind = join(k for k, _ in kinds)
    if kind is ValueKind.CALLABLE:
        kind = ValueKind.STATIC
    return kind, all(s for _, s in kinds)


def _is_none(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and node.value is None) or (
        isinstance(node, ast.Name) and node.id == "None"
    )


def _module_class(index: ModuleIndex, name: ast.Name) -> ast.ClassDef | None:
    """The class of this module that `name` names, None for anything else."""
    b = index.binding(name.id, index.scope_of(name))
    if b is None or b.kind != "class" or not isinstance(b.node, ast.ClassDef):
        return None
    return b.node


def _is_enum(index: ModuleIndex, name: ast.Name) -> bool:
    """A class of this module derived from `enum.Enum` (or IntEnum, StrEnum, ...)."""
    cls = _module_class(index, name)
    return cls is not None and any(index.qualname(base) in _ENUM_BASES for base in cls.bases)


_NAMED_TUPLE = frozenset({"typing.NamedTuple", "NamedTuple"})


def _named_tuple_fields(index: ModuleIndex, name: ast.Name) -> list[ast.expr]:
    """The field annotations of a `typing.NamedTuple` class of this module (`class
    GridShape(NamedTuple): nsp: int ...`); empty for anything else."""
    cls = _module_class(index, name)
    if cls is None or not any(index.qualname(base) in _NAMED_TUPLE for base in cls.bases):
        return []
    return [
        stmt.annotation
        for stmt in cls.body
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
    ]


def quoted_annotation(index: ModuleIndex, ann: ast.AST | None) -> ast.AST | None:
    """A string annotation parsed, its names resolved in the module's top scope."""
    if not (isinstance(ann, ast.Constant) and isinstance(ann.value, str)):
        return ann
    try:
        parsed = ast.parse(ann.value.strip(), mode="eval").body
    except SyntaxError:
        return None
    for node in ast.walk(parsed):
        if isinstance(node, ast.Name):
            node.jl_scope = index.scopes[index.tree]  # type: ignore[attr-defined]
    return parsed


def array_annotated_fields(index: ModuleIndex, cls: ast.ClassDef) -> set[str]:
    """The fields `cls`'s body annotates as arrays (`w: jax.Array`, `Float[Array, "n"]`)."""
    return {
        s.target.id
        for s in cls.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and annotation_kind(index, s.annotation) is ValueKind.ARRAY
    }
