"""The rule registry: the classes `core/codes.py` names, imported from their family packages.

The code table is the source of truth; this module checks it against the code both ways, once
at import: every listed class exists in its family package's namespace with the listed code and
name, and every coded `Rule` subclass in the rule packages is listed (a rule left out of the
table, or a table row for a rule that is gone, fails loudly instead of silently changing what
`jaxlint check` runs).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from jaxlint.core.codes import CODES, FAMILIES, OPT_IN
from jaxlint.rules.base import Rule


class RegistryError(RuntimeError):
    """The code table and the rule packages disagree (a jaxlint bug, caught at import)."""


def _families() -> dict[str, ModuleType]:
    return {family: importlib.import_module(f"jaxlint.rules.{family}") for family in FAMILIES}


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


def _coded_rules(families: dict[str, ModuleType]) -> set[type[Rule]]:
    """Coded Rule subclasses in the family packages: in their namespaces or their modules."""
    found = {
        obj
        for module in families.values()
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule and obj.code
    }
    prefixes = tuple(f"jaxlint.rules.{family}" for family in families)
    found |= {
        sub
        for sub in _subclasses(Rule)
        if sub.code and (sub.__module__ in prefixes or sub.__module__.startswith(prefixes))
    }
    return found


def collect() -> tuple[type[Rule], ...]:
    """The listed rule classes, sorted by code; raises RegistryError on any disagreement."""
    families = _families()
    listed: list[type[Rule]] = []
    for row in CODES:
        cls = getattr(families[row.family], row.cls, None)
        if not (isinstance(cls, type) and issubclass(cls, Rule)):
            raise RegistryError(
                f"{row.code}: no rule class {row.cls} in jaxlint.rules.{row.family}"
            )
        if (cls.code, cls.name) != (row.code, row.name):
            raise RegistryError(
                f"{row.code}: {row.cls} says {cls.code} `{cls.name}`, the table `{row.name}`"
            )
        if cls.default == (row.code in OPT_IN):
            raise RegistryError(
                f"{row.code}: {row.cls}.default is {cls.default}, core/codes.py OPT_IN says "
                f"{row.code not in OPT_IN}"
            )
        listed.append(cls)
    if len({r.code for r in listed}) != len(listed):
        raise RegistryError("duplicate rule code in core/codes.py")
    missing = sorted(_coded_rules(families) - set(listed), key=lambda r: r.code)
    if missing:
        names = ", ".join(f"{r.code} ({r.__module__}.{r.__name__})" for r in missing)
        raise RegistryError(f"rules not listed in core/codes.py: {names}")
    return tuple(sorted(listed, key=lambda r: r.code))
