"""What the project index reads from a file's text before analysing it: whether it names a
JAX transform (else it cannot trace another module's function), can call `jax.random` (else
its functions consume no key), or imports inside a function. Whole-word searches, kept apart
from the analysis in `analysis.project`."""

from __future__ import annotations

import re
from collections.abc import Iterable

from jaxlint.analysis.jax_api import GRAD_LIKE, JIT_LIKE

# A module can only trace a function if it names a transform: every component of a qualified
# name is a whole word of the text (see jaxlint.prefilter), so the last one is.
TRANSFORM_WORDS = frozenset(q.rsplit(".", 1)[-1] for q in (*JIT_LIKE, *GRAD_LIKE))


# searched first: once one is found, the other words are searched only before it
# (`_search_words`), so a common word found early saves a scan of the text per other word
_COMMON_FIRST = ("jit", "vmap", "grad", "map", "scan", "cond", "value_and_grad", "pmap")


def _words_pattern(extra: Iterable[str]) -> tuple[re.Pattern[str], tuple[str, ...]]:
    found = TRANSFORM_WORDS | {w.rsplit(".", 1)[-1] for w in extra if w}
    words = sorted(
        found,
        key=lambda w: (_COMMON_FIRST.index(w) if w in _COMMON_FIRST else len(_COMMON_FIRST), w),
    )
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")
    return pattern, tuple(words)


_PATTERNS: dict[tuple[str, ...], tuple[re.Pattern[str], tuple[str, ...]]] = {}


def _search_words(pattern: re.Pattern[str], words: tuple[str, ...], text: str) -> bool:
    """`pattern.search(text)` for a pattern of whole `words` (`\\b(?:w1|w2|...)\\b`).

    Words that are ASCII identifiers (all of the built-in ones): a substring search per word, each
    occurrence tested for a word character on either side (`has_word`), which is what
    `\\b` tests; the regex, which begins with a word boundary and so gets no literal-prefix
    scan, stepped through the text a character at a time from the first occurrence of any
    word (`cond` in `second`, `map` in `tree_map`: 0.19 against 0.12 CPU-s over the speed
    corpus, the same answers). Other words (a `jit-decorators` entry that is no identifier):
    the regex, from near the first place one of them occurs at all. Only the words that
    contain no other are searched for there (`grad` finds `value_and_grad` too): an
    occurrence of a longer word starts at most its length before the one it contains, so
    the regex starts that much earlier. (A search from `pos` still sees the character
    before it for the boundary.)"""
    plain = _PLAIN.get(words)
    if plain is None:
        plain = _PLAIN[words] = all(w.isascii() and w.isidentifier() for w in words)
    if plain:
        return any(has_word(text, w) for w in words)
    found = _SHORTEST.get(words)
    if found is None:
        found = _SHORTEST[words] = _shortest(words)
    shortest, margin = found
    first = -1
    for w in shortest:
        i = text.find(w, 0, first + len(w) if first >= 0 else len(text))
        if i != -1 and (first < 0 or i < first):
            first = i
    return first >= 0 and pattern.search(text, max(first - margin, 0)) is not None


def _shortest(words: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """The words that contain no other word (in their order), and the longest word's length."""
    kept = tuple(w for w in words if not any(o != w and o in w for o in words))
    return kept, max((len(w) for w in words), default=0)


_SHORTEST: dict[tuple[str, ...], tuple[tuple[str, ...], int]] = {}
_PLAIN: dict[tuple[str, ...], bool] = {}  # `_search_words`: every word an ASCII identifier


def has_word(text: str, word: str) -> bool:
    """`word` (an identifier) occurs in `text` with no word character (`str.isalnum`, `_`:
    the regex's `\\w` for a `str` pattern) right before or after it."""
    n = len(word)
    start = text.find(word)
    while start != -1:
        before = text[start - 1] if start else " "
        after = text[start + n] if start + n < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(word, start + 1)
    return False


def uses_transform(text: str, jit_decorators: tuple[str, ...] = ()) -> bool:
    """Whether the text names a JAX transform (else it cannot produce outgoing seeds)."""
    found = _PATTERNS.get(jit_decorators)
    if found is None:
        found = _PATTERNS[jit_decorators] = _words_pattern(jit_decorators)
    return _search_words(*found, text)


_RANDOM = re.compile(r"\brandom\b")
_RANDOM_WORDS = ("random",)
_IMPORT = re.compile(r"\bimport\b")
# a top-level `NAME = 24` (`NAME: int = -1`): the module may have constants for its importers
CONSTANT_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*[ \t]*(?::[^=\n]*)?=[ \t]*-?\d", re.MULTILINE)
# an import statement inside a def (or a docstring line that reads like one: harmless)
NESTED_IMPORT = re.compile(r"^[ \t]+(?:import [\w.]|from [\w.]+ import\b)", re.MULTILINE)


_STATIC_DECL_WORDS = (
    "static",
    # pytree classes whose fields are leaves (`ModuleSummary.leaf_attributes`)
    "NamedTuple",
    "dataclass",
    "register_dataclass",
    "PyTreeNode",
    "Struct",
    "Module",
    "register_pytree_node_class",
    "register_pytree_node",
    "pytree_node",
    "property",
    "cached_property",
    "meta_fields",
    "tree_flatten",
    "static_field",
)
_STATIC_DECL = re.compile(r"\b(?:" + "|".join(_STATIC_DECL_WORDS) + r")\b")


def declares_static(text: str) -> bool:
    """Whether the text can declare static attributes of a class (pytree meta fields,
    shape-metadata properties: `ModuleSummary.static_attributes`) or the leaves of a pytree
    class (`ModuleSummary.leaf_attributes`), which its importers read."""
    return "class" in text and _search_words(_STATIC_DECL, _STATIC_DECL_WORDS, text)


# a parameter annotated as a Python int (`num_keys: int`, `offset: Optional[int] = None`)
_INT_PARAM = re.compile(r"\w\s*:\s*(?:int|Optional\[int\]|int \| None)\s*[,)=]")


def returns_numpy(text: str) -> bool:
    """Whether the text can define a helper that returns a host NumPy array of `int`
    parameters (`kinds.returns_host_numpy`: `ModuleSummary.static_returns`)."""
    return "numpy" in text and _INT_PARAM.search(text) is not None


def uses_random(text: str) -> bool:
    """Whether the text can call `jax.random` (else its functions consume no key)."""
    return _search_words(_RANDOM, _RANDOM_WORDS, text)
