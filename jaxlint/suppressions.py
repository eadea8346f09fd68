"""`# noqa`, `# noqa: JAX101,JAX1` and `# jaxlint: disable=JAX101`, matching flake8.

flake8 semantics: codes match by prefix; a code list that does not parse (`# noqa: JAX`,
`# NOQA : JAX101`) is a blanket noqa. `# jaxlint: disable=...` on its own line applies to
the next statement, and to its whole block when that statement is a def/class/loop/if/with.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from jaxlint.diagnostic import Diagnostic

# flake8's own pattern (defaults.NOQA_INLINE_REGEX)
NOQA = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
NOQA_CODES = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)
DISABLE = re.compile(r"#\s*jaxlint:\s*disable=(?P<codes>[A-Za-z0-9_,\s-]+)")
BLANKET = ("",)  # prefix "" matches every code


@dataclass
class Suppressions:
    lines: dict[int, tuple[str, ...]] = field(default_factory=dict)  # line -> code prefixes
    ranges: list[tuple[int, int, tuple[str, ...]]] = field(default_factory=list)

    def suppresses(self, d: Diagnostic) -> bool:
        line = d.line
        codes = self.lines.get(line)
        if codes is not None and any(d.code.startswith(c) for c in codes):
            return True
        return any(
            a <= line <= b and any(d.code.startswith(c) for c in cs) for a, b, cs in self.ranges
        )

    def noqa_line(self, line: int) -> bool:
        return line in self.lines


def _noqa_codes(comment: str) -> tuple[str, ...] | None:
    m = NOQA.search(comment)
    if m is None:
        return None
    codes = m.group("codes")
    if not codes:
        return BLANKET
    return tuple(c.upper() for c in NOQA_CODES.findall(codes))


def collect(lines: list[str], tree: ast.Module | None = None) -> Suppressions:
    """Scan comment text; `tree` lets a standalone disable comment cover a whole block."""
    sup = Suppressions()
    pending: list[tuple[int, tuple[str, ...]]] = []
    for i, text in enumerate(lines, start=1):
        if "#" not in text:
            continue
        lower = text.lower()
        if "noqa" in lower:
            codes = _noqa_codes(text[text.index("#") :])
            if codes is not None:
                sup.lines[i] = tuple(sorted(set(sup.lines.get(i, ())) | set(codes)))
        if "jaxlint" in lower:
            m = DISABLE.search(text)
            if m:
                codes = tuple(
                    c.strip().upper() for c in re.split(r"[,\s]+", m.group("codes")) if c.strip()
                )
                if text.lstrip().startswith("#"):
                    pending.append((i, codes))
                else:
                    sup.lines[i] = tuple(sorted(set(sup.lines.get(i, ())) | set(codes)))
    if pending:
        starts = _statement_ranges(tree) if tree is not None else {}
        for line, codes in pending:
            target = line + 1
            while target <= len(lines) and (
                not lines[target - 1].strip() or lines[target - 1].lstrip().startswith(("#", "@"))
            ):
                target += 1
            end = starts.get(target, target)
            sup.ranges.append((line, end, codes))
    return sup


def _statement_ranges(tree: ast.Module) -> dict[int, int]:
    out: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            out.setdefault(node.lineno, node.end_lineno or node.lineno)
            for d in getattr(node, "decorator_list", ()):
                out.setdefault(d.lineno, node.end_lineno or node.lineno)
    return out
