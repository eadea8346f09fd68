"""flax.linen Modules proven to draw nothing from the key of their `init`.

`enc.init(key, x)` hands `key` to flax, which draws from it only when the module creates a
parameter with a random initialiser (`nn.Dense`'s kernel, `self.param(name, normal())`) or
asks for a stream (`self.make_rng`). A fixed sine/cosine bank, a LayerNorm (ones and
zeros), a slice-and-concatenate wrapper create none: `init` gives identical variables for
`PRNGKey(0)` and `PRNGKey(1)`, so the same key handed to it and to a draw is no reuse.

The fact is proved, never assumed (unknown stays "may draw"): the class derives from
`flax.linen.Module` directly; every dataclass field is a plain value (`int`, `str`,
`tuple[int, ...]`, `Optional[float]`: a field typed `nn.Module`, `Callable` or `Any` may be
a drawing submodule passed in); and every call anywhere in its body is one of: a method of
`self` or of a value, `self.param` with a constant initialiser (`zeros`, `ones`,
`constant(c)`, a lambda that ignores its rng), `self.variable`, jax.numpy / numpy / math /
lax, a builtin, a flax activation, a flax library layer of `FLAX_DRAWFREE_LAYERS` with
constant initialisers (key_draw_facts.py), a draw-free Module class of this module, a
function of this module whose calls pass the same test, or a class of another project
module whose summary says it draws nothing (`ModuleSummary.drawfree_modules`, imported by
`from m import Cls`). A
`make_rng`, any other library or unknown call, a decorator call, another base class: may
draw.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxlint.analysis.calls import CallGraph
from jaxlint.analysis.key_draw_facts import (
    DRAWFREE_INITIALIZER_FUNCTIONS,
    DRAWFREE_INITIALIZER_MAKERS,
    FLAX_ACTIVATIONS,
    FLAX_DRAWFREE_LAYERS,
)
from jaxlint.analysis.syntax import ancestors

__all__ = ["DrawFree"]

_MAX_DEPTH = 4
FLAX_MODULE = "flax.linen.Module"
# libraries whose functions make arrays, never parameters or submodules
_ARRAY_LIBRARIES = ("jax.numpy.", "jax.lax.", "jax.nn.", "numpy.", "math.", "jax.scipy.")
_BUILTINS = frozenset(
    {
        "len", "range", "int", "float", "bool", "str", "tuple", "list", "dict", "set",
        "isinstance", "issubclass", "min", "max", "abs", "sum", "zip", "enumerate", "round",
        "sorted", "reversed", "any", "all", "print", "repr", "divmod", "pow", "slice",
        "ValueError", "TypeError", "AssertionError", "NotImplementedError", "RuntimeError",
        "KeyError", "IndexError",
    }
)  # fmt: skip
_PLAIN_TYPES = frozenset({"int", "float", "bool", "str", "complex", "bytes", "None"})
_PLAIN_GENERICS = frozenset(
    {
        "tuple", "list", "dict", "typing.Tuple", "typing.List", "typing.Dict",
        "typing.Sequence", "collections.abc.Sequence", "typing.Optional", "typing.Union",
        "typing.Literal",
    }
)  # fmt: skip


class DrawFree:
    """Which flax.linen Module classes of one module draw nothing at `init`."""

    def __init__(self, calls: CallGraph, imported: Iterable[str] = ()) -> None:
        self.calls = calls
        self.index = calls.index
        # the names this module imports other project modules' classes proven draw-free by
        # (`KeyHelpers.drawfree`, from their summaries)
        self.imported = frozenset(imported)
        self._cache: dict[int, bool] = {}

    def class_draws_nothing(self, cls: ast.ClassDef, depth: int = 0) -> bool:
        key = id(cls)
        if key in self._cache:
            return self._cache[key]
        self._cache[key] = False  # a cycle proves nothing
        out = depth <= _MAX_DEPTH and self._check_class(cls, depth)
        self._cache[key] = out
        return out

    def constructor_draws_nothing(self, made: ast.Call, depth: int = 0) -> bool:
        """`made` (a constructor call) builds a module whose `init` draws nothing: a class of
        this module, a flax norm layer with constant initialisers, or an imported class
        proven draw-free by its module's summary."""
        if any(kw.arg is None for kw in made.keywords) or any(
            isinstance(a, ast.Starred) for a in made.args
        ):
            return False
        q = self.index.qualname(made.func)
        if q in FLAX_DRAWFREE_LAYERS:
            positional, init_keywords = FLAX_DRAWFREE_LAYERS[q]
            return len(made.args) <= positional and all(
                self.constant_initializer(kw.value)
                for kw in made.keywords
                if kw.arg in init_keywords
            )
        if self._imported_class(made.func):
            return True
        cls = self.calls.class_named(made.func)
        return cls is not None and self.class_draws_nothing(cls, depth + 1)

    def constant_initializer(self, init: ast.AST) -> bool:
        """An initialiser that ignores its rng: `nn.initializers.zeros`, `ones`,
        `zeros_init()`, `constant(0.1)`, or a lambda that never reads its first parameter."""
        if isinstance(init, ast.Call):
            return self.index.qualname(init.func) in DRAWFREE_INITIALIZER_MAKERS
        if isinstance(init, ast.Lambda):
            args = init.args.posonlyargs + init.args.args
            if not args:
                return init.args.vararg is not None  # `lambda *_: w`
            first = args[0].arg
            return not any(isinstance(n, ast.Name) and n.id == first for n in ast.walk(init.body))
        return self.index.qualname(init) in DRAWFREE_INITIALIZER_FUNCTIONS

    # -- the proof ----------------------------------------------------------------------------
    def _check_class(self, cls: ast.ClassDef, depth: int) -> bool:
        if cls.keywords or len(cls.bases) != 1:
            return False
        if self.index.qualname(cls.bases[0]) != FLAX_MODULE:
            return False
        if not all(self._identity_decorator(d) for d in cls.decorator_list):
            return False
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign) and not self._plain_annotation(stmt.annotation):
                return False
        nodes = (n for stmt in cls.body for n in ast.walk(stmt))
        return self._calls_draw_nothing(nodes, depth, ())

    def _identity_decorator(self, dec: ast.AST) -> bool:
        """A class decorator of this module that hands the class back unchanged: a registry
        (`@register("NAME")` whose inner `decorator(cls)` stores `cls` and returns it), so
        the decorated name is the class itself."""
        factory = None
        if isinstance(dec, ast.Call):
            factory = self.index.resolve_function(dec.func)
            if not isinstance(factory, ast.FunctionDef):
                return False
            returned = _returns(factory)
            inner = {s.name: s for s in factory.body if isinstance(s, ast.FunctionDef) and s.name}
            if not returned or not all(isinstance(r, ast.Name) and r.id in inner for r in returned):
                return False
            decorators = [inner[r.id] for r in returned]  # type: ignore[union-attr]
        else:
            fn = self.index.resolve_function(dec)
            if not isinstance(fn, ast.FunctionDef):
                return False
            decorators = [fn]
        return all(_returns_first_parameter(fn) for fn in decorators)

    def _calls_draw_nothing(
        self, nodes: Iterable[ast.AST], depth: int, seen: tuple[ast.AST, ...]
    ) -> bool:
        for node in nodes:
            if isinstance(node, ast.Call) and not self._call_draws_nothing(node, depth, seen):
                return False
        return True

    def _call_draws_nothing(self, call: ast.Call, depth: int, seen: tuple[ast.AST, ...]) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            if func.value.id == "self":
                if func.attr == "make_rng":
                    return False
                if func.attr == "param":
                    init = call.args[1] if len(call.args) > 1 else None
                    init = init or next(
                        (kw.value for kw in call.keywords if kw.arg in ("init_fn", "init")), None
                    )
                    return init is not None and self.constant_initializer(init)
                # a method of the class (walked too), a plain field, a submodule built in
                # the class (its construction is walked)
                return func.attr == "variable" or self._known_member(call, func.attr)
        if isinstance(func, ast.Subscript):
            base = func.value
            return (
                isinstance(base, ast.Attribute)
                and isinstance(base.value, ast.Name)
                and base.value.id == "self"
                and self._known_member(call, base.attr)
            )
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return True  # `nn.Dense(3)(x)`: the construction is walked
        q = self.index.qualname(func)
        if q is None and isinstance(func, ast.Attribute):
            return True  # `x.reshape(...)`, `pe.at[...].set(...)`
        if q in _BUILTINS and isinstance(func, ast.Name) and self._unbound(func):
            return True
        if q is not None and q.startswith(_ARRAY_LIBRARIES):
            return True
        if q in FLAX_ACTIVATIONS or q in DRAWFREE_INITIALIZER_MAKERS:
            return True
        if q in FLAX_DRAWFREE_LAYERS or self._imported_class(func):
            return self.constructor_draws_nothing(call, depth)
        if self.calls.class_named(func) is not None:
            return self.constructor_draws_nothing(call, depth)
        fn = self.index.resolve_function(func) if isinstance(func, ast.Name) else None
        if fn is not None and fn not in seen and depth < _MAX_DEPTH:
            return self._calls_draw_nothing(ast.walk(fn), depth + 1, (*seen, fn))
        return False

    def _known_member(self, node: ast.AST, attr: str) -> bool:
        """`self.<attr>` of the class around `node` is a method, a (plain) field, or only
        ever assigned constructions and displays of them (`self.dense = Foo(...)`,
        `self.layers = [Foo(i) for i in ...]`), each walked by the proof."""
        cls = next((a for a in ancestors(node) if isinstance(a, ast.ClassDef)), None)
        if cls is None:
            return False
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == attr:
                return True
            if (
                isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and stmt.target.id == attr
            ):
                return True
        values = self.calls.self_assignments(cls).get(attr, [])  # the call graph's table
        return bool(values) and all(v is not None and _constructions(v) for v in values)

    def _imported_class(self, func: ast.AST) -> bool:
        """`func` is a name bound by an import of another project module's class proven
        draw-free there (the importer's seeds: `KeyHelpers.drawfree`)."""
        if not isinstance(func, ast.Name) or func.id not in self.imported:
            return False
        b = self.index.binding(func.id, self.index.scope_of(func))
        return b is not None and b.kind == "import"

    def _unbound(self, name: ast.Name) -> bool:
        return not self.index.lookup(name.id, self.index.scope_of(name))

    def _plain_annotation(self, ann: ast.AST) -> bool:
        """A field type that cannot hold a submodule: `int`, `str`, `tuple[int, ...]`,
        `Optional[float]`, `int | None`, a dtype."""
        if isinstance(ann, ast.Constant):
            return ann.value is None or ann.value is Ellipsis
        if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
            return self._plain_annotation(ann.left) and self._plain_annotation(ann.right)
        if isinstance(ann, ast.Subscript):
            q = self.index.qualname(ann.value)
            if q not in _PLAIN_GENERICS:
                return False
            inner = ann.slice
            parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            if q == "typing.Literal":
                return all(isinstance(p, ast.Constant) for p in parts)
            return all(self._plain_annotation(p) for p in parts)
        if isinstance(ann, ast.Name) and ann.id in _PLAIN_TYPES and self._unbound(ann):
            return True
        q = self.index.qualname(ann)
        return q is not None and (q in _PLAIN_TYPES or q.startswith(("jax.numpy.", "numpy.")))


def _constructions(value: ast.AST) -> bool:
    """A call, or a list/tuple display or comprehension of calls."""
    if isinstance(value, ast.Call):
        return True
    if isinstance(value, (ast.List, ast.Tuple)):
        return bool(value.elts) and all(isinstance(e, ast.Call) for e in value.elts)
    return isinstance(value, (ast.ListComp, ast.GeneratorExp)) and isinstance(value.elt, ast.Call)


def _returns(fn: ast.FunctionDef) -> list[ast.expr | None]:
    """The values of `fn`'s own `return` statements (not those of nested functions)."""
    out: list[ast.expr | None] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            out.append(node.value)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _returns_first_parameter(fn: ast.FunctionDef) -> bool:
    """Every `return` of `fn` hands back its first parameter, never rebound in it."""
    args = fn.args.posonlyargs + fn.args.args
    if not args:
        return False
    first = args[0].arg
    returned = _returns(fn)
    rebound = any(
        isinstance(n, ast.Name) and n.id == first and isinstance(n.ctx, ast.Store)
        for n in ast.walk(fn)
    )
    return (
        bool(returned)
        and not rebound
        and all(isinstance(r, ast.Name) and r.id == first for r in returned)
    )
