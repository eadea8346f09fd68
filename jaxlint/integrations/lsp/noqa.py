"""Where a `# noqa: JAX###` can go on a line, and the edit that adds one (the LSP's
"Disable JAX### on this line" action).

A comment cannot follow a backslash continuation or sit inside a multi-line string, so the line
ends come from the tokenizer, not from the text; an existing `# noqa: ...` list gets the code
appended instead of a second comment.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

from jaxlint.core.suppressions import NOQA


@dataclass(frozen=True)
class LineEnds:
    """Per line: where a trailing comment can go (None: nowhere) and the existing comment."""

    appendable: frozenset[int]  # 1-based lines that end in a NEWLINE/NL token
    comments: dict[int, tuple[int, str]]  # 1-based line -> (code-point column, comment text)

    @classmethod
    def of(cls, text: str) -> LineEnds:
        appendable: set[int] = set()
        comments: dict[int, tuple[int, str]] = {}
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type in (tokenize.NEWLINE, tokenize.NL):
                    appendable.add(tok.start[0])
                elif tok.type == tokenize.COMMENT:
                    comments[tok.start[0]] = (tok.start[1], tok.string)
                elif tok.type == tokenize.ENDMARKER:
                    appendable.add(tok.start[0])
        except (tokenize.TokenError, SyntaxError, IndentationError):
            pass
        return cls(frozenset(appendable), comments)


def noqa_edit(text_line: str, line: int, code: str, ends: LineEnds) -> tuple[int, int, str] | None:
    """(start col, end col, replacement) on `line` that adds `code` to its `# noqa`, or None
    when a comment cannot go there (the line ends inside a string or after a backslash)."""
    content = text_line.rstrip("\r\n")
    comment = ends.comments.get(line)
    if comment is not None:
        col, comment_text = comment
        m = NOQA.search(comment_text)
        if m and m.group("codes") and not re.search(r"# noqa\s+:", comment_text, re.I):
            codes_text = m.group("codes")
            insert = col + m.start("codes") + len(codes_text.rstrip(", \t"))
            return (insert, insert, f", {code}")
        end = col + len(comment_text)
        return (end, len(content), f"  # noqa: {code}")
    if line not in ends.appendable:
        return None
    stripped = len(content.rstrip())
    return (stripped, len(content), f"  # noqa: {code}")
