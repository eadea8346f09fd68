"""The rules: `ALL_RULES`, built once at import by `rules.registry` from the code table."""

from __future__ import annotations

from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.registry import collect

__all__ = ["ALL_RULES", "Context", "Examples", "Rule", "get_rule", "rules_by_code"]

ALL_RULES: tuple[type[Rule], ...] = collect()
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
