"""Which attribute keys are one stored value: `state.rng` read twice is one key read twice only
when reading it gives back what was stored.

The key analysis tracks keys kept on objects (`self.key`, `state.rng`) by their attribute
path. That is right for an attribute the program stores (`self.key = ...`, a dataclass or
TrainState field `rng: jax.Array`, `state.replace(rng=...)`), and wrong for a computed one:
coax's `RandomStateMixin.rng` is a property that splits the object's key and returns the new
half, so every `q1.rng` is a fresh key (v29 rows, tuning material: coax doc examples, JAX201
x12). A key property of this module's classes is computed; so is a property of that name
that another project module's class defines to split its key (`ModuleSummary.key_properties`,
given to every module of the project as `KeyProperties`: which class an object of another
module is of is not known, so the name speaks for it), unless this module stores or declares
the attribute itself. An attribute of an unknown class stays tracked: a TrainState field
declared in another module is the common case (v23, v25 rows: true reuses of `state.rng`).
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.syntax import own_returns, walk

__all__ = ["ModuleAttributes", "key_properties"]

_PROPERTIES = frozenset({"property", "functools.cached_property", "cached_property"})
# a property that makes a new key from the object's own on each read
_KEY_MAKERS = frozenset({"jax.random.split", "jax.random.fold_in"})


class ModuleAttributes:
    """The attribute names one module stores or declares, and its key properties (those of
    its classes, `key_properties`, and `project`: the project's, `KeyProperties`). Read from
    the module index's lists (its nodes in order, its classes), not a walk of the tree."""

    def __init__(self, index: ModuleIndex, project: frozenset[str] = frozenset()) -> None:
        stored = {
            node.attr  # `x.rng = ...`, `self.key, sub = split(self.key)`
            for node in index.order
            if type(node) is ast.Attribute and type(node.ctx) is ast.Store
        }
        for cls in index.classes:
            for item in cls.body:
                if type(item) is ast.AnnAssign and type(item.target) is ast.Name:
                    stored.add(item.target.id)  # a dataclass / NamedTuple field
                elif type(item) is ast.Assign:
                    stored.update(t.id for t in item.targets if type(t) is ast.Name)
        self.stored = frozenset(stored)
        self.own = frozenset(key_properties(index))
        self.project = project

    def computed(self, name: str) -> bool:
        """`name` (a tracked key name, `q1.rng`) is an attribute whose every read may be a new
        key: a key property of this module, or one of the project that this module neither
        stores nor declares. A property that returns a stored key (`return self._key`) is
        one key."""
        if "[" in name or name.count(".") != 1:
            return False
        attr = name.split(".")[1]
        return attr in self.own or (attr in self.project and attr not in self.stored)


def key_properties(index: ModuleIndex) -> list[str]:
    """The properties of this module's classes that split or fold a key and return a value:
    `self._key, key = jax.random.split(self._key); return key`."""
    out: set[str] = set()
    for cls in index.classes:
        for item in cls.body:
            if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if not any(_is_property(d) for d in item.decorator_list):
                continue
            if any(r.value is not None for r in own_returns(item)) and any(
                type(n) is ast.Call and index.qualname(n.func) in _KEY_MAKERS for n in walk(item)
            ):
                out.add(item.name)
    return sorted(out)


def _is_property(decorator: ast.expr) -> bool:
    """`@property`, `@functools.cached_property` (not a setter: it returns nothing)."""
    return (dotted(decorator) or "") in _PROPERTIES
