"""Newer syntax than the running Python can parse: PEP 695 generics, PEP 701 f-strings.

`ast` only parses the grammar of the interpreter it runs on, so on Python 3.10/3.11 a module
with `def f[T](x: T)` or `f"{d["k"]}"` would be unparsable. libcst parses them; this module
rewrites just those constructs to same-length, same-lines text that the running `ast` accepts
(type parameters become spaces, `type X = ...` becomes `_=0; X = ...`, a PEP 701 f-string
becomes a blank string literal), so every position elsewhere in the file is unchanged and the
rest of the module is linted normally. Only used after `ast.parse` failed.

`parse` and `parses` are the one parse-with-downgrade: the engine, the fix loop and the project
index all parse through them, so a file that one of them accepts, all accept.
"""

from __future__ import annotations

import ast
import sys
import warnings
from dataclasses import dataclass

from jaxlint.core.diagnostic import Diagnostic, internal_error
from jaxlint.core.source import SourceText


def downgrade_syntax(text: str) -> str | None:
    """Same-layout text parsable by this Python's `ast`, or None if libcst cannot help."""
    if sys.version_info >= (3, 12) or len(text) > 5_000_000:
        return None
    try:
        return _downgrade(text)
    except (Exception, RecursionError):  # a best effort: the caller reports the syntax error
        return None


def _downgrade(text: str) -> str | None:
    try:
        import libcst as cst
        from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
    except ImportError:  # pragma: no cover - libcst is a core dependency
        return None
    try:
        module = cst.parse_module(text)
    except Exception:
        return None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    spans: list[tuple[CodeRange, str]] = []  # (range, kind)
    for node, rng in positions.items():
        if isinstance(node, cst.TypeParameters):
            spans.append((rng, "blank"))
        elif isinstance(node, cst.TypeAlias):
            spans.append((rng, "type-alias"))
        elif isinstance(node, cst.FormattedString):
            spans.append((rng, "fstring"))
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        return starts[line - 1] + col

    chars = list(text)

    def blank(a: int, b: int) -> None:
        for i in range(a, b):
            if chars[i] not in "\r\n":
                chars[i] = " "

    fstrings = []
    for rng, kind in spans:
        a = offset(rng.start.line, rng.start.column)
        b = offset(rng.end.line, rng.end.column)
        if kind == "blank":
            blank(a, b)
        elif kind == "type-alias" and text.startswith("type", a):
            chars[a : a + 4] = list("_=0;")
        elif kind == "fstring":
            fstrings.append((a, b))
    candidate = "".join(chars)
    if _parses(candidate):
        return candidate
    # blank the f-strings (outermost first) whose text the old grammar rejects
    for a, b in sorted(fstrings, key=lambda s: s[0] - s[1]):
        piece = candidate[a:b]
        if _parses(piece):
            continue
        size = b - a
        if "\n" not in piece and "\r" not in piece:
            replacement = '"' + " " * (size - 2) + '"'
        elif size >= 6:
            replacement = '"""' + "".join(c if c in "\r\n" else " " for c in piece[3:-3]) + '"""'
        else:
            return None
        chars[a:b] = list(replacement)
        candidate = "".join(chars)
    return candidate if _parses(candidate) else None


def _parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


@dataclass
class ParseResult:
    tree: ast.Module | None
    error: Diagnostic | None = None


def parse(source: SourceText, path: str) -> ParseResult:
    """`ast.parse`, with syntax errors turned into one JAX000 at the parser's position."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences etc. are not our business
            return ParseResult(ast.parse(source.text, filename=path, type_comments=False))
    except SyntaxError as exc:
        downgraded = downgrade_syntax(source.text)
        if downgraded is not None:
            try:
                return ParseResult(ast.parse(downgraded, filename=path))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                pass
        line = exc.lineno or 1
        col = max((exc.offset or 1) - 1, 0)
        # `offset` counts code points on the text given; clamp to the line
        col = min(col, len(source.line(line)))
        msg = exc.msg or "invalid syntax"
        hint = ""
        if "print" in msg.lower() and "parentheses" in msg.lower():
            hint = " (Python 2 code?)"
        return ParseResult(None, internal_error(path, f"could not parse: {msg}{hint}", line, col))
    except (RecursionError, MemoryError):
        return ParseResult(
            None, internal_error(path, "could not parse: the file is nested too deeply")
        )
    except ValueError as exc:
        return ParseResult(None, internal_error(path, f"could not parse: {exc}"))


def parses(text: str) -> bool:
    """Whether `text` parses here, directly or after `downgrade_syntax` (a fix must keep it so)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
        return True
    except SyntaxError:
        return downgrade_syntax(text) is not None
    except (ValueError, RecursionError, MemoryError):
        return False
