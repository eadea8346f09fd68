"""Shared generators for the fuzz tests and benchmarks/fuzz.py.

Inputs: hypothesmith's grammar-based programs when it is installed; always, mutations of
real JAX code (every rule's examples plus the bundled examples): line deletions,
duplications, swaps, indentation changes, byte flips, truncation.
"""

from __future__ import annotations

import ast
import os
import textwrap
import warnings

from hypothesis import strategies as st

from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.rules import ALL_RULES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus() -> list[str]:
    texts = []
    for rule in ALL_RULES:
        ex = rule.examples
        texts.extend(ex.invalid)
        texts.extend(ex.valid)
        texts.extend(b for b, _ in ex.fixes)
        texts.extend(b for b, _ in ex.unsafe_fixes)
    out = [textwrap.dedent(t).lstrip("\n") for t in texts]
    examples = os.path.join(ROOT, "examples")
    if os.path.isdir(examples):
        for name in sorted(os.listdir(examples)):
            if name.endswith(".py"):
                with open(os.path.join(examples, name), encoding="utf-8") as fh:
                    out.append(fh.read())
    return out


CORPUS = corpus()


@st.composite
def mutated_source(draw) -> str:
    text = draw(st.sampled_from(CORPUS))
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(0, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(
            st.sampled_from(
                ["delete", "dup", "swap", "indent", "dedent", "flip", "truncate", "join"]
            )
        )
        if op == "delete":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            lines[i] = "    " + lines[i]
        elif op == "dedent":
            lines[i] = lines[i].lstrip(" ")
        elif op == "flip" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            ch = draw(st.sampled_from(list("()[]{}:,.=+-*/'\"#\\ \t\nxé𝄞")))
            lines[i] = lines[i][:k] + ch + lines[i][k + 1 :]
        elif op == "truncate":
            lines = lines[: i + 1]
        elif op == "join" and i + 1 < len(lines):
            lines[i] = lines[i].rstrip("\n") + " " + lines.pop(i + 1)
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    return "".join(lines).replace("\r\n", "\n").replace("\n", nl)


def grammar_source():
    try:
        import hypothesmith
    except ImportError:
        return None
    return hypothesmith.from_grammar()


ALL_CODES = frozenset(r.code for r in ALL_RULES)


def check_invariants(text: str) -> None:
    """`check` never raises; `--fix` output parses (when the input did) and is idempotent."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        _check_invariants(text)


def _check_invariants(text: str) -> None:
    options = LintOptions(codes=ALL_CODES)
    diags = lint_text(text, "fuzz.py", options)
    internal = [d for d in diags if d.code == "JAX000" and "internal error" in d.message]
    assert not internal, internal[0].message
    try:
        ast.parse(text)
        parses = True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        parses = False
    if not parses:
        return
    for unsafe in (False, True):
        result = fix_text(text, "fuzz.py", options, unsafe=unsafe)
        ast.parse(result.text)
        again = fix_text(result.text, "fuzz.py", options, unsafe=unsafe)
        assert again.text == result.text, "fix is not idempotent"
