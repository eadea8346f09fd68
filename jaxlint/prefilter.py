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
`numpy`, ...) and every component of the configured `jit-decorators`. A few rules have a
narrower gate, derived from their own name tables (`RULE_GATES` below); a rule can also
declare `prefilter_words` itself (a tuple of words, or a tuple of tuples for several
groups), which takes precedence.

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
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache

from jaxlint.config import Settings

# Always part of the default gate, whatever the name tables say today.
BASE_ROOTS = frozenset(
    {"jax", "jaxlib", "flax", "equinox", "optax", "numpy", "chex", "haiku", "numpyro", "diffrax"}
)
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


def _last_components(names: Iterable[str]) -> frozenset[str]:
    return frozenset(n.rstrip(".").rsplit(".", 1)[-1] for n in names)


def _roots(names: Iterable[str]) -> frozenset[str]:
    return frozenset(n.split(".", 1)[0] for n in names)


def _module_attr(module: str, attr: str) -> object:
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None


# Narrower gates for rules whose cost is worth it, each derived from the rule's own name
# table where it has one. Returning None means "no narrower gate" (the default gate
# applies), so a renamed table can only make the prefilter weaker, never wrong.
RANDOM: Gate = (frozenset({"random"}),)  # flow/keys.py: keys are made/consumed by jax.random.*


def _gate_random(rule: type) -> Gate | None:
    return RANDOM


def _gate_host_rng(rule: type) -> Gate | None:
    prefixes = _module_attr(rule.__module__, "HOST_RNG_PREFIXES")
    if not prefixes:
        return None
    # `numpy.random.` / `random.`: the word `random` is in every such name
    words = {p.rstrip(".").rsplit(".", 1)[-1] for p in prefixes}  # type: ignore[union-attr]
    return (frozenset(words),)


def _gate_timing(rule: type) -> Gate | None:
    clocks = _module_attr(rule.__module__, "CLOCKS")
    timeit = _module_attr(rule.__module__, "TIMEIT")
    if not clocks or timeit is None:
        return None
    # a clock read (time.*, timeit.*) around JAX work: both must be named in the file
    return (_roots([*clocks, *timeit]),)  # type: ignore[misc]


def _gate_pmap(rule: type) -> Gate | None:
    pmaps = _module_attr(rule.__module__, "PMAPS")
    return (_last_components(pmaps),) if pmaps else None  # type: ignore[arg-type]


def _gate_shard_map(rule: type) -> Gate | None:
    names = _module_attr(rule.__module__, "SHARD_MAPS")
    # the rule looks only at functions given to a `shard_map` it resolves by name
    return (_last_components(names),) if names else None  # type: ignore[arg-type]


def _gate_renames(rule: type) -> Gate | None:
    """Rename tables (`deprecations.RenameRule`): a finding is a reference to, or an import
    of, an old dotted name or a name under an old module, so the old name's last component
    is in the text. Only for direct subclasses that change no lookup and no visitor (a mixin
    or a pattern-based `dynamic_move` could match names outside the table)."""
    base = _module_attr("jaxlint.rules.deprecations", "RenameRule")
    renames = getattr(rule, "RENAMES", None)
    if not isinstance(base, type) or not renames or rule.__mro__[1:2] != (base,):
        return None
    for name in vars(rule):
        if name.startswith(("visit_", "leave_")) or name in ("finish", "move_for", "dynamic_move"):
            return None
    return (_last_components(renames),)


RULE_GATES: dict[str, Callable[[type], Gate | None]] = {
    "JAX201": _gate_random,  # key reuse
    "JAX202": _gate_random,  # constant seed in a loop
    "JAX203": _gate_random,  # split / fold_in collision
    "JAX205": _gate_random,  # legacy PRNGKey
    "JAX206": _gate_random,  # arithmetic on keys made in the module
    "JAX207": _gate_random,  # key broadcast by vmap (KeyFlow needs a jax.random call)
    "JAX208": _gate_random,  # fixed seed in a repeated function
    "JAX209": _gate_random,  # module-level key consumed in functions
    "JAX204": _gate_host_rng,
    "JAX301": _gate_pmap,
    "JAX303": _gate_shard_map,  # shard_map + grad + psum
    "JAX304": _gate_shard_map,  # unplaced shard_map input
    "JAX601": _gate_timing,
    "JAX602": _gate_timing,
}
# The narrow gate replaces the default one only for rules that need no JAX-family name
# beyond it (a `jax.random.*` call names `jax`; a pmap or a rename-table name is the name
# itself). The others keep the default group too: an AND of both.
NARROW_ONLY = frozenset(
    {
        "JAX201",
        "JAX202",
        "JAX203",
        "JAX205",
        "JAX206",
        "JAX207",
        "JAX208",
        "JAX209",
        "JAX301",
        "JAX303",
        "JAX304",
    }
)


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
        return declared
    if not _registered(rule):
        return ()  # a rule from elsewhere (a test double, a plugin): always analysed
    make = RULE_GATES.get(rule.code)
    if make is not None:
        narrow = make(rule)
        if narrow:
            return narrow if rule.code in NARROW_ONLY else (*narrow, default)
        return (default,)
    narrow = _gate_renames(rule)
    return narrow if narrow else (default,)


def default_words(settings: Settings | None) -> frozenset[str]:
    return _default_words(settings.jit_decorators if settings is not None else ())


@lru_cache(maxsize=64)
def _default_words(jit_decorators: tuple[str, ...]) -> frozenset[str]:
    words = set(jax_roots())
    for deco in jit_decorators:
        words.update(part for part in deco.split(".") if part)
    return frozenset(words)


_IDENTIFIER = re.compile(r"[^\W\d]\w*")


class _Words:
    """Whole-word lookups in one text: its identifiers are collected once (one regex pass,
    cheaper than a substring search per word once there are more than a handful of words)."""

    __slots__ = ("text", "_ids")

    def __init__(self, text: str) -> None:
        self.text = text
        self._ids: set[str] | None = None

    def has(self, word: str) -> bool:
        if not word.isidentifier():  # a declared word with a dot or a space
            return has_word(self.text, word)
        if self._ids is None:
            self._ids = set(_IDENTIFIER.findall(self.text))
        return word in self._ids

    def passes(self, gate: Iterable[Iterable[str]]) -> bool:
        return all(any(self.has(w) for w in group) for group in gate)


def has_word(text: str, word: str) -> bool:
    """`word` occurs in `text` not preceded or followed by an identifier character."""
    n = len(word)
    start = text.find(word)
    while start != -1:
        before = text[start - 1] if start else " "
        after = text[start + n] if start + n < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(word, start + 1)
    return False


# Within a group the search stops at the first word found: try the likely ones first.
_LIKELY = ("jax", "numpy", "flax", "equinox", "optax", "random", "time")


def _search_order(word: str) -> tuple[int, int]:
    return (_LIKELY.index(word) if word in _LIKELY else len(_LIKELY), -len(word))


@lru_cache(maxsize=256)
def _plan(
    rules: tuple[type, ...], default: frozenset[str]
) -> tuple[tuple[type, tuple[tuple[str, ...], ...]], ...]:
    return tuple(
        (r, tuple(tuple(sorted(g, key=_search_order)) for g in _rule_gate(r, default)))
        for r in rules
    )


def applicable(text: str, rules: Sequence[type], settings: Settings | None = None) -> list:
    """The rules of `rules` that could fire on `text` (same order); may be empty."""
    if DISABLED or not rules:
        return list(rules)
    words = _Words(text)
    return [r for r, gate in _plan(tuple(rules), default_words(settings)) if words.passes(gate)]
