"""Decide from a file's text alone which rules could fire on it, before any analysis.

Why this is sound: every rule keys on *qualified names* (`jax.random.normal`,
`time.perf_counter`, a traced function found through `jax.jit`, ...), and
`analysis.imports.ModuleIndex` builds a qualified name only from the module's own import
statements, alias assignments and attribute chains. Each component of a qualified name
therefore appears in the text as a whole identifier. A rule whose names all contain one of
a few words cannot fire on a file that contains none of them, so its analysis can be
skipped; a file on which no selected rule can fire is parsed (syntax errors are still
reported) but not analysed at all.

Each rule of the registry (`jaxlint.rules.ALL_RULES`) has a *gate*: a list of word groups,
every group must have at least one word in the text (an AND of ORs); other rule classes
(test doubles, plugins) are always run unless they declare `prefilter_words`. The default gate is one group: the JAX-family roots (derived from
the name tables of the rules and analyses, plus `jax`, `flax`, `equinox`, `optax`,
`numpy`, ...) and every component of the configured `jit-decorators`. A rule has a narrower
gate when it declares `prefilter_words` (a tuple of words, or a tuple of tuples for several
groups), derived from the name table it matches (`PMAPS`, `SHARD_MAPS`, the clocks, a
`RenameRule`'s `RENAMES`); it replaces the default gate, or with `prefilter_with_default` is
ANDed with it.

`tests/test_prefilter.py` runs every rule's invalid examples and checks that no rule that
fires there is filtered out; a new rule whose examples contain none of the words fails that
test and should declare `prefilter_words`.
"""

from __future__ import annotations

import builtins
import importlib
import os
import re
import sys
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from jaxlint.analysis.jax_api import LIBRARY_ROOTS
from jaxlint.analysis.project_text import has_word
from jaxlint.core.config import Settings

# Always part of the default gate, whatever the name tables say today.
BASE_ROOTS = LIBRARY_ROOTS
ANALYSIS_MODULES = (
    "jaxlint.analysis.jax_api",
    "jaxlint.analysis.imports",
    "jaxlint.analysis.transforms",
    "jaxlint.analysis.flow.taint",
    "jaxlint.analysis.flow.key_terms",
    "jaxlint.analysis.flow.keys",
    "jaxlint.analysis.flow.key_repeats",
)
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\.?$")

# JAXLINT_NO_PREFILTER=1 analyses every file with every selected rule (for debugging and for
# checking that the prefilter changes no result: benchmarks/speed.py --check-prefilter)
DISABLED = os.environ.get("JAXLINT_NO_PREFILTER", "") not in ("", "0")

Gate = tuple[frozenset[str], ...]  # AND over groups, OR within a group


def _strings(value: object, depth: int = 0) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif depth < 3 and isinstance(value, (set, frozenset, tuple, list)):
        for item in value:
            yield from _strings(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k, depth + 1)
            yield from _strings(v, depth + 1)


def _dotted_names(module: object, extra: Iterable[object] = ()) -> set[str]:
    out: set[str] = set()
    for key, value in [*vars(module).items(), *((None, v) for v in extra)]:
        if isinstance(key, str) and key.startswith("__"):
            continue
        out.update(s for s in _strings(value) if _DOTTED.match(s))
    return out


@lru_cache(maxsize=1)
def jax_roots() -> frozenset[str]:
    """Root packages of every qualified name the rules and analyses look for (not stdlib)."""
    from jaxlint.rules import ALL_RULES

    names: set[str] = set()
    modules = {sys.modules[r.__module__] for r in ALL_RULES}
    for name in ANALYSIS_MODULES:
        try:
            modules.add(importlib.import_module(name))
        except ImportError:  # pragma: no cover - an analysis being renamed
            continue
    for module in modules:
        rules = [r for r in ALL_RULES if r.__module__ == module.__name__]
        names |= _dotted_names(module, [v for r in rules for v in vars(r).values()])
    roots = {n.split(".", 1)[0] for n in names}
    stdlib = set(getattr(sys, "stdlib_module_names", ())) | set(dir(builtins))
    return BASE_ROOTS | frozenset(r for r in roots if r not in stdlib)


def _registered(rule: type) -> bool:
    """Only the registry's rules are covered by the soundness argument and its tests."""
    from jaxlint.rules import rules_by_code

    return rules_by_code().get(getattr(rule, "code", "")) is rule


def _declared(rule: type) -> Gate | None:
    words = getattr(rule, "prefilter_words", None)
    if not words:
        return None
    if all(isinstance(w, str) for w in words):
        return (frozenset(words),)
    return tuple(frozenset(g) for g in words)


@cache
def _rule_gate(rule: type, default: frozenset[str]) -> Gate:
    declared = _declared(rule)
    if declared is not None:
        # the narrow gate replaces the default one only for rules that need no JAX-family name
        # beyond it (a `jax.random.*` call names `jax`; a pmap or a rename-table name is the
        # name itself); the others AND both
        return (*declared, default) if getattr(rule, "prefilter_with_default", False) else declared
    if not _registered(rule):
        return ()  # a rule from elsewhere (a test double, a plugin): always analysed
    return (default,)


def default_words(settings: Settings | None) -> frozenset[str]:
    return _default_words(settings.jit_decorators if settings is not None else ())


@lru_cache(maxsize=64)
def _default_words(jit_decorators: tuple[str, ...]) -> frozenset[str]:
    words = set(jax_roots())
    for deco in jit_decorators:
        words.update(part for part in deco.split(".") if part)
    return frozenset(words)


# ASCII words: every gate word is an ASCII identifier; a non-ASCII identifier yields its ASCII
# runs (`jaxé` gives `jax`), a superset, so a rule is at worst analysed for nothing (30% faster
# than the Unicode pattern on the speed corpus)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*", re.ASCII)
# `_identifiers`: what `_IDENTIFIER` finds, from a `str.translate` of the ASCII text (every
# character that is no ASCII letter, digit or underscore made a space) and a split: about
# 30 % cheaper than the regex's matches on the speed corpus (a string made per occurrence).
# A split word starting with a digit is what the regex skips up to its first letter.
_NOT_WORD = str.maketrans(
    {chr(i): " " for i in range(128) if not (chr(i).isalnum() or chr(i) == "_")}
)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_DIGITS = "0123456789"


def _identifiers(text: str) -> set[str]:
    """`set(_IDENTIFIER.findall(text))`, the same set."""
    if not text.isascii():
        text = _NON_ASCII.sub(" ", text)  # a non-ASCII character ends an ASCII run
    words = set(text.translate(_NOT_WORD).split())
    leading = [w for w in words if w[0] in _DIGITS]
    if leading:
        words.difference_update(leading)
        words.update(s for w in leading if (s := w.lstrip(_DIGITS)))
    return words


def _plain(word: str) -> bool:
    """A word `_IDENTIFIER` finds whole: an ASCII identifier."""
    return word.isidentifier() and word.isascii()


class _Words:
    """Whole-word lookups in one text: its identifiers are collected once (one regex pass,
    cheaper than a substring search per word once there are more than a handful of words),
    and a group of identifier words is one set intersection."""

    __slots__ = ("text", "_ids")

    def __init__(self, text: str) -> None:
        self.text = text
        self._ids: set[str] | None = None

    def ids(self) -> set[str]:
        if self._ids is None:
            self._ids = _identifiers(self.text)
        return self._ids

    def has(self, word: str) -> bool:
        if not _plain(word):  # a declared word with a dot or a space, a non-ASCII name
            return has_word(self.text, word)
        return word in self.ids()

    def passes(self, gate: tuple[tuple[frozenset[str], tuple[str, ...]], ...]) -> bool:
        """Every group of a planned gate (`_plan`) has a word in the text: its ASCII
        identifier words as one set intersection, the others (a dot, a space, a non-ASCII
        name) searched in the text."""
        ids = self.ids()
        return all(
            not words.isdisjoint(ids) or any(has_word(self.text, w) for w in others)
            for words, others in gate
        )


# Within a group the search stops at the first word found: try the likely ones first.
_LIKELY = ("jax", "numpy", "flax", "equinox", "optax", "random", "time")


def _search_order(word: str) -> tuple[int, int]:
    return (_LIKELY.index(word) if word in _LIKELY else len(_LIKELY), -len(word))


@lru_cache(maxsize=256)
def _plan(
    rules: tuple[type, ...], default: frozenset[str]
) -> tuple[tuple[type, tuple[tuple[frozenset[str], tuple[str, ...]], ...]], ...]:
    """Each rule with its gate: per group, the identifier words (one set intersection with
    the text's identifiers) and the other words, in the order they are searched."""
    return tuple(
        (
            r,
            tuple(
                (
                    frozenset(w for w in g if _plain(w)),
                    tuple(sorted((w for w in g if not _plain(w)), key=_search_order)),
                )
                for g in _rule_gate(r, default)
            ),
        )
        for r in rules
    )


def applicable(text: str, rules: Sequence[type], settings: Settings | None = None) -> list:
    """The rules of `rules` that could fire on `text` (same order); may be empty."""
    if DISABLED or not rules:
        return list(rules)
    words = _Words(text)
    return [r for r, gate in _plan(tuple(rules), default_words(settings)) if words.passes(gate)]
