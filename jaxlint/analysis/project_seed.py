"""The seed a traced call in one module plants in the function of another module it calls: which
parameters receive tracers, through which transform and chain, and the literals every such
call binds (`Seed.bound_literals`: a `backend="jax"` left at its default decides
`if backend == "cpu":` under tracing, param_constants.decided_arms). Apart from the rest of
the project data so each file stays readable."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jaxlint.analysis.syntax import param_defaults

if TYPE_CHECKING:
    from jaxlint.analysis.imports import ModuleIndex

__all__ = ["Seed", "narrow_literals"]

_STARRED = ast.Starred


@dataclass(frozen=True)
class Seed:
    """A function of this module called with traced arguments from another module."""

    kind: str  # "jit" | "grad", the caller's
    via: str  # the caller's transform
    positions: tuple[int, ...] = ()  # positional arguments that receive traced values
    keywords: tuple[str, ...] = ()  # keyword arguments that receive traced values
    chain: tuple[str, ...] = ()  # `train.train_step`, ..., `losses.loss_fn`
    # what the traced calls bind, joined over them (`bound_literals`): the fewest and the
    # most positional arguments ((-1, -1): a call with `*args`/`**kwargs`, nothing known),
    # the keywords every call passes and those some call passes, and the literal arguments
    # every call passes alike (`"#2"` for the third positional one, else the keyword)
    arity: tuple[int, int] = (-1, -1)
    keywords_all: tuple[str, ...] = ()
    keywords_any: tuple[str, ...] = ()
    literals: tuple[tuple[str, object], ...] = ()

    def to_json(self) -> list:
        return [
            self.kind,
            self.via,
            list(self.positions),
            list(self.keywords),
            list(self.chain),
            list(self.arity),
            list(self.keywords_all),
            list(self.keywords_any),
            [list(kv) for kv in self.literals],
        ]

    @classmethod
    def from_json(cls, row: list) -> Seed:
        kind, via, positions, keywords, chain = row[:5]
        extra: list[Any] = row[5:] if len(row) == 9 else [[-1, -1], [], [], []]
        arity, kw_all, kw_any, literals = extra
        return cls(
            str(kind),
            str(via),
            tuple(int(p) for p in positions),
            tuple(str(k) for k in keywords),
            tuple(str(c) for c in chain),
            (int(arity[0]), int(arity[1])),
            tuple(str(k) for k in kw_all),
            tuple(str(k) for k in kw_any),
            tuple((str(k), v) for k, v in literals if _literal_value(v)),
        )

    @classmethod
    def of_call(
        cls,
        kind: str,
        via: str,
        positions: tuple[int, ...],
        keywords: tuple[str, ...],
        chain: tuple[str, ...],
        call: ast.Call,
    ) -> Seed:
        """The seed one traced call makes, with what it binds (see the fields)."""
        if any(isinstance(a, _STARRED) for a in call.args) or any(
            kw.arg is None for kw in call.keywords
        ):
            return cls(kind, via, positions, keywords, chain)
        named = tuple(sorted(kw.arg for kw in call.keywords if kw.arg))
        literals = [
            (f"#{i}", a.value)
            for i, a in enumerate(call.args)
            if isinstance(a, ast.Constant) and _literal_value(a.value)
        ]
        literals += [
            (kw.arg, kw.value.value)
            for kw in call.keywords
            if kw.arg and isinstance(kw.value, ast.Constant) and _literal_value(kw.value.value)
        ]
        n = len(call.args)
        return cls(
            kind, via, positions, keywords, chain, (n, n), named, named, tuple(sorted(literals))
        )

    def bound_literals(self, fn: ast.AST) -> dict[str, object]:
        """The parameters of `fn` that every traced call binds to one literal: passed as that
        literal by every call, or left by every call at a literal default. Empty when a call
        is not known (`arity` (-1, -1))."""
        if self.arity[0] < 0 or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return {}
        args = fn.args
        positional = [*args.posonlyargs, *args.args]
        defaults = param_defaults(fn)
        literals = dict(self.literals)
        low, high = self.arity
        out: dict[str, object] = {}
        for i, a in enumerate([*positional, *args.kwonlyargs]):
            name, at = a.arg, i < len(positional)
            if at and i < low and name not in self.keywords_any and f"#{i}" in literals:
                out[name] = literals[f"#{i}"]  # every call passes it here, as one literal
            elif (not at or i >= high) and name in self.keywords_all and name in literals:
                out[name] = literals[name]  # every call names it, as one literal
            elif (not at or i >= high) and name not in self.keywords_any:
                d = defaults.get(name)  # no call passes it: its default
                if isinstance(d, ast.Constant) and _literal_value(d.value):
                    out[name] = d.value
        return out

    def merge(self, other: Seed) -> Seed:
        """Two callers: traced where either passes tracers; abstract if either is a jit."""
        kind = "jit" if "jit" in (self.kind, other.kind) else self.kind
        # the message names a caller of the kind reported (a jit one when there is one)
        first = min(
            (s for s in (self, other) if s.kind == kind),
            key=lambda s: (len(s.chain), s.chain, s.via),
        )
        known = self.arity[0] >= 0 and other.arity[0] >= 0
        return Seed(
            kind,
            first.via,
            tuple(sorted(set(self.positions) | set(other.positions))),
            tuple(sorted(set(self.keywords) | set(other.keywords))),
            first.chain,
            (min(self.arity[0], other.arity[0]), max(self.arity[1], other.arity[1]))
            if known
            else (-1, -1),
            tuple(sorted(set(self.keywords_all) & set(other.keywords_all))) if known else (),
            tuple(sorted(set(self.keywords_any) | set(other.keywords_any))) if known else (),
            _common_literals(self.literals, other.literals) if known else (),
        )


def _common_literals(
    a: tuple[tuple[str, object], ...], b: tuple[tuple[str, object], ...]
) -> tuple[tuple[str, object], ...]:
    """The literals both seeds carry alike: the same key, type and value (`1`, `1.0` and
    `True` are equal in Python, not here)."""
    theirs = {(k, type(v).__name__, v) for k, v in b}
    return tuple(sorted(((k, v) for k, v in a if (k, type(v).__name__, v) in theirs), key=repr))


def _literal_value(v: object) -> bool:
    """A literal a seed carries: a string, a number, a bool or None (JSON-able, comparable)."""
    return v is None or isinstance(v, (str, int, float, bool))


def narrow_literals(
    index: ModuleIndex,
    literals: dict[str, object],
    call: ast.Call,
    target: ast.AST,
    bound_self: bool,
) -> dict[str, object]:
    """`literals` (a seeded function's `bound_literals`) less what the traced call `call` of
    this module binds otherwise: a direct call by name is read like a seeding call; a
    method's call, or one through a transform, binds what is not read here: none stay."""
    here: dict[str, object] = {}
    if not bound_self and index.resolve_function(call.func) is target:
        here = Seed.of_call("jit", "", (), (), (), call).bound_literals(target)
    return {
        k: v for k, v in literals.items() if k in here and type(here[k]) is type(v) and here[k] == v
    }
