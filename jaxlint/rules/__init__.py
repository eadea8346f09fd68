"""Rule registry, built once at import from the family modules."""

from __future__ import annotations

import importlib

from jaxlint.rules.base import Context, Examples, Rule

__all__ = ["ALL_RULES", "Context", "Examples", "Rule", "get_rule", "rules_by_code"]

FAMILIES = (
    "tracing",
    "prng",
    "sharding",
    "compile",
    "mutation",
    "benchmarking",
    "dtypes",
    "deprecations",
    "suppression",
)


def _collect() -> tuple[type[Rule], ...]:
    found: dict[str, type[Rule]] = {}
    for family in FAMILIES:
        try:
            module = importlib.import_module(f"jaxlint.rules.{family}")
        except ModuleNotFoundError as exc:
            if exc.name == f"jaxlint.rules.{family}":
                continue
            raise
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule and obj.code:
                if obj.code in found and found[obj.code] is not obj:
                    raise RuntimeError(f"duplicate rule code {obj.code}")
                found[obj.code] = obj
    return tuple(sorted(found.values(), key=lambda r: r.code))


ALL_RULES: tuple[type[Rule], ...] = _collect()
_BY_CODE = {r.code: r for r in ALL_RULES}


def rules_by_code() -> dict[str, type[Rule]]:
    return dict(_BY_CODE)


def get_rule(code: str) -> type[Rule] | None:
    code = code.upper()
    if code in _BY_CODE:
        return _BY_CODE[code]
    for r in ALL_RULES:
        if r.name == code.lower():
            return r
    return None
