"""Suppression comments: `# noqa` (flake8's exact rules), `# jaxlint: disable[=CODES]`,
`# jaxlint: disable-file[=CODES]` and flake8's `# flake8: noqa`.

Codes are case-sensitive everywhere (`# noqa`, `disable`, `disable-file`), as in ruff and in
flake8 (which compares the codes it finds exactly): `# noqa: jax101` names a code no rule has,
so it suppresses nothing, in `jaxlint check`, the LSP and flake8 alike. The keyword itself is
not (`# NOQA`). `miscased` finds such codes where they would have covered a finding, so the
CLI and the flake8 plugin can warn about them (`miscased_warning`).

flake8 semantics for `# noqa`: codes match by prefix; a code list that does not parse
(`# noqa: JAX`, `# NOQA : JAX101`) is a blanket noqa; the comment is searched in the text
of the reported line's *token range* (the lines from one NL/NEWLINE token to the next), so
a noqa after a multi-line string or a backslash continuation covers all its lines, while
one on the closing `)` of a call does not cover the call's first line.

`# jaxlint: disable=...` after code applies to that line; on its own line it applies to the
next statement, and to its whole block when that statement is a def/class/loop/if/with
(decorators included). Without `=CODES` it disables every code, like a bare `# noqa`.
`# jaxlint: disable-file` (anywhere, on its own line or after code) disables the whole file,
or only `=CODES`; `# flake8: noqa` without codes disables the whole file too (flake8 skips
such files; with codes flake8 ignores the comment, and so do we).

Every directive remembers which codes it matched, so the opt-in unused-suppression rule
(JAX001, ruff's RUF100) can say which ones suppressed nothing, and remove them safely: only
directives found in real comment tokens are reported or edited, never text in a string.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field

from jaxlint.core.diagnostic import Diagnostic, Edit, Fix, Position, Span

# flake8's own pattern (defaults.NOQA_INLINE_REGEX)
NOQA = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
NOQA_CODES = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)
# flake8's defaults.NOQA_FILE
FLAKE8_FILE = re.compile(r"\s*#\s*flake8[:=]\s*noqa(\s|$)", re.I)  # matched at line start
DISABLE = re.compile(
    r"#\s*jaxlint:\s*(?P<kind>disable-file|disable)(?![\w-])"
    r"(?:\s*=\s*(?P<codes>[A-Za-z]+[0-9]*(?:\s*,\s*[A-Za-z]+[0-9]*)*))?"
)
BOUNDARY = "# jaxlint: cell-boundary"  # notebook cells joined into one module
UNUSED_CODE = "JAX001"


@dataclass(eq=False)
class Directive:
    """One suppression comment and what it covers."""

    kind: str  # "noqa" | "disable" | "file" | "flake8-file"
    line: int  # where the comment text is (1-based)
    first: int  # lines covered, inclusive
    last: int
    codes: tuple[str, ...]  # code prefixes as written (case-sensitive); () means every code
    start: int  # code-point columns of the directive text on `line`
    end: int
    comment: bool = False  # inside a real comment token (not a string): may be edited
    used: set[str] = field(default_factory=set)  # entries of `codes` that matched ("" blanket)

    def match(self, d: Diagnostic) -> str | None:
        """The entry that covers `d` ("" for a blanket directive), or None."""
        if not (self.first <= d.line <= self.last):
            return None
        if not self.codes:
            return ""
        for c in self.codes:
            if d.code.startswith(c):
                return c
        return None


@dataclass
class Suppressions:
    directives: list[Directive] = field(default_factory=list)

    def suppresses(self, d: Diagnostic, noqa: bool = True) -> bool:
        """Whether `d` is suppressed; marks every directive that covers it as used.

        A JAX001 finding is silenced only by a directive that names it (`# noqa: JAX001`,
        `disable-file=JAX0`): a blanket directive cannot silence the report about itself.
        """
        hit = False
        for directive in self.directives:
            entry = directive.match(d)
            if entry is None or (entry == "" and d.code == UNUSED_CODE):
                continue
            directive.used.add(entry)
            if noqa or directive.kind != "noqa":
                hit = True
        return hit

    def covers(self, line: int, code: str) -> bool:
        """Whether a directive that names `code` (or a prefix of it) covers `line`; blanket
        directives do not count and nothing is marked used (a rule asking, not a finding)."""
        return any(
            x.first <= line <= x.last and any(code.startswith(c) for c in x.codes)
            for x in self.directives
        )


_NEWLINE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as `SourceText` counts them (only CR, LF and CRLF end a line)."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _codes(text: str) -> tuple[str, ...]:
    """The codes as written: compared case-sensitively, like ruff and flake8."""
    return tuple(dict.fromkeys(NOQA_CODES.findall(text)))


def token_ranges(text: str) -> tuple[dict[int, tuple[int, int]], dict[int, tuple[int, str]]]:
    """flake8's noqa line ranges (line -> (first, last)) and the real comments per line
    (line -> (column, text)). Empty when the text does not tokenize."""
    ranges: dict[int, tuple[int, int]] = {}
    comments: dict[int, tuple[int, str]] = {}
    lo, hi = None, None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = (tok.start[1], tok.string)
            lo = tok.start[0] if lo is None else min(lo, tok.start[0])
            hi = tok.end[0] if hi is None else max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                for n in range(lo, hi + 1):
                    ranges[n] = (lo, hi)
                lo = hi = None
    except (tokenize.TokenError, SyntaxError, IndentationError, ValueError):
        return {}, {}
    return ranges, comments


def _in_comment(line: int, col: int, comments: dict[int, tuple[int, str]]) -> bool:
    c = comments.get(line)
    return c is not None and col >= c[0]


def _may_span(lines: list[str], candidates: list[int]) -> bool:
    """Whether a noqa line may be part of a multi-line token range (a triple-quoted string
    opens or closes on it, or a backslash continues it or the line before)."""
    for i in candidates:
        t = lines[i - 1]
        if '"""' in t or "'''" in t or t.endswith("\\"):
            return True
        if i > 1 and lines[i - 2].endswith("\\"):
            return True
    return False


def collect(
    lines: list[str],
    tree: ast.Module | None = None,
    text: str | None = None,
    exact: bool = False,
) -> Suppressions:
    """All directives of a module; `tree` lets a standalone disable cover a whole block.

    Tokenizing costs about as much as parsing, so it is done only when `exact` (JAX001 needs
    to know which directives are real comments) or when a noqa line may belong to a
    multi-line token range. Otherwise each noqa covers its own line, which is flake8's range
    for it, except for a `# noqa` written in the middle line of a multi-line string.
    """
    sup = Suppressions()
    if text is None:
        text = "\n".join(lines) + "\n"
    candidates = [
        i
        for i, t in enumerate(lines, start=1)
        if "#" in t and ("noqa" in (low := t.lower()) or "jaxlint" in low or "flake8" in low)
    ]
    if not candidates:
        return sup
    if exact or _may_span(lines, candidates):
        ranges, comments = token_ranges(text)
    else:
        ranges, comments = {}, {}
    pending: list[tuple[int, tuple[str, ...], int, int, bool]] = []
    seen_ranges: set[tuple[int, int]] = set()
    for i in candidates:
        raw = lines[i - 1]
        low = raw.lower()
        if "noqa" in low:
            span = ranges.get(i, (i, i))
            if span not in seen_ranges:
                seen_ranges.add(span)
                _noqa_directive(sup, lines, span, comments)
            m = FLAKE8_FILE.match(raw)
            if m:
                sup.directives.append(
                    Directive(
                        "flake8-file",
                        i,
                        1,
                        len(lines) + 1,
                        (),
                        raw.index("#"),
                        len(raw.rstrip()),
                        _in_comment(i, raw.index("#"), comments),
                    )
                )
        if "jaxlint" in low:
            for m in DISABLE.finditer(raw):
                codes = _codes(m.group("codes") or "")
                real = _in_comment(i, m.start(), comments)
                if m.group("kind") == "disable-file":
                    sup.directives.append(
                        Directive("file", i, 1, len(lines) + 1, codes, m.start(), m.end(), real)
                    )
                elif raw[: m.start()].strip():
                    sup.directives.append(
                        Directive("disable", i, i, i, codes, m.start(), m.end(), real)
                    )
                else:
                    pending.append((i, codes, m.start(), m.end(), real))
                break
    if pending:
        starts = _statement_ranges(tree) if tree is not None else {}
        for line, codes, a, b, real in pending:
            target = line + 1
            while target <= len(lines):
                t = lines[target - 1]
                if t.strip() == BOUNDARY:
                    break
                if t.strip() and not t.lstrip().startswith(("#", "@")):
                    break
                target += 1
            end = starts.get(target, target)
            sup.directives.append(Directive("disable", line, line, end, codes, a, b, real))
    return sup


def _noqa_directive(
    sup: Suppressions,
    lines: list[str],
    span: tuple[int, int],
    comments: dict[int, tuple[int, str]],
) -> None:
    """flake8 searches the joined text of the range for the first `# noqa`."""
    lo, hi = span
    for n in range(lo, hi + 1):
        m = NOQA.search(lines[n - 1]) if n <= len(lines) else None
        if m is None:
            continue
        codes = _codes(m.group("codes")) if m.group("codes") else ()
        end = m.end()
        if codes:
            end = m.start("codes") + len(m.group("codes").rstrip(", \t"))
        sup.directives.append(
            Directive("noqa", n, lo, hi, codes, m.start(), end, _in_comment(n, m.start(), comments))
        )
        return


def miscased(lines: list[str], diags: Iterable[Diagnostic]) -> list[tuple[Diagnostic, str]]:
    """(finding, code as written) for each finding a suppression comment names in the wrong
    case (`# noqa: jax101` on a JAX101 line): the comment suppresses nothing, since codes are
    case-sensitive, and the user almost certainly meant it to. Cheap when no comment has a
    lower-case code (one regex over the lines); parses the text only when one does."""
    if not any(_LOWER_CODE.search(t) for t in lines if "#" in t):
        return []
    text = "\n".join(lines) + "\n"
    try:
        tree: ast.Module | None = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        tree = None
    sup = collect(lines, tree, text)
    out: list[tuple[Diagnostic, str]] = []
    for d in diags:
        for x in sup.directives:
            if not (x.first <= d.line <= x.last):
                continue
            for c in x.codes:
                if c != c.upper() and d.code.startswith(c.upper()) and not d.code.startswith(c):
                    out.append((d, c))
    return out


# a prefilter only: the keyword in any case, then a code with a lower-case letter
_LOWER_CODE = re.compile(r"(?i:noqa|jaxlint:\s*disable)[^#]*[a-z][A-Za-z]*[0-9]+")


def miscased_warning(path: str, d: Diagnostic, written: str) -> str:
    """The one line both `jaxlint check` and the flake8 plugin print for `miscased`."""
    where = f"{path}:cell {d.cell + 1}:{d.line}" if d.cell is not None else f"{path}:{d.line}"
    return (
        f"{where}: `{written}` in a suppression comment does not suppress {d.code}: rule codes"
        f" are case-sensitive (as in ruff and flake8); write `{written.upper()}`"
    )


def _statement_ranges(tree: ast.Module) -> dict[int, int]:
    out: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            out.setdefault(node.lineno, node.end_lineno or node.lineno)
            for d in getattr(node, "decorator_list", ()):
                out.setdefault(d.lineno, node.end_lineno or node.lineno)
    return out


def apply(
    diags: list[Diagnostic],
    sup: Suppressions,
    noqa: bool = True,
) -> list[Diagnostic]:
    """The findings no directive suppresses (JAX000 is never suppressed)."""
    return [d for d in diags if d.code == "JAX000" or not sup.suppresses(d, noqa)]


# -- JAX001: unused suppressions -----------------------------------------------------------


def unused(
    sup: Suppressions,
    lines: list[str],
    path: str,
    active: Iterable[str],
) -> list[Diagnostic]:
    """JAX001 findings for directives (or codes in them) that suppressed nothing.

    Only codes that some rule run on this file could have produced are judged: codes of
    other tools (`E501`), of rules not selected here, and a bare `# noqa` (it may be meant
    for flake8) are never reported. `JAX001` entries themselves are not judged either.
    """
    checkable = [c for c in active if c != UNUSED_CODE]
    out: list[Diagnostic] = []
    for x in sup.directives:
        if not x.comment or x.kind == "flake8-file":
            continue
        if not x.codes:
            if x.kind == "noqa" or "" in x.used:
                continue
            bad: list[str] = []
        else:
            bad = [
                c
                for c in x.codes
                if c not in x.used
                and c != UNUSED_CODE
                and c.startswith("JAX")
                and any(r.startswith(c) for r in checkable)
            ]
            if not bad:
                continue
        out.append(_unused_diag(x, bad, lines, path))
    return out


_LABEL = {
    "noqa": "`noqa`",
    "disable": "`jaxlint: disable`",
    "file": "`jaxlint: disable-file`",
}


def _unused_diag(x: Directive, bad: list[str], lines: list[str], path: str) -> Diagnostic:
    label = _LABEL[x.kind]
    if bad:
        listed = ", ".join(f"`{c}`" for c in bad)
        message = f"Unused {label} directive (unused: {listed})"
    else:
        message = f"Unused blanket {label} directive"
    keep = [c for c in x.codes if c not in bad]
    raw = lines[x.line - 1]
    if bad and keep:
        head = raw[x.start : x.end]
        m = re.search(r":\s?" if x.kind == "noqa" else r"=\s*", head)
        prefix_end = x.start + (m.end() if m else len(head))
        sep = ", " if x.kind == "noqa" else ","
        edit = Edit(Position(x.line, prefix_end), Position(x.line, x.end), sep.join(keep))
        fix_message = "Remove unused codes " + ", ".join(bad)
    else:
        edit = _remove_directive(x, raw, len(lines))
        fix_message = "Remove the unused directive"
    return Diagnostic(
        code=UNUSED_CODE,
        message=message,
        path=path,
        span=Span.of(x.line, x.start, x.line, x.end),
        name="unused-suppression",
        fix=Fix((edit,), "safe", fix_message),
    )


def _remove_directive(x: Directive, raw: str, n_lines: int) -> Edit:
    """Delete the directive; the rest of the comment (if any) stays a comment."""
    before = raw[: x.start]
    rest = raw[x.end :]
    rest_stripped = rest.strip()
    if rest_stripped.startswith("#") or not rest_stripped:
        tail = rest_stripped
    else:
        tail = "# " + rest_stripped.lstrip(",; ")
    if not before.strip():
        if not tail:  # the whole line is the directive: delete the line
            if x.line < n_lines:
                return Edit(Position(x.line, 0), Position(x.line + 1, 0), "")
            return Edit(Position(x.line, 0), Position(x.line, len(raw)), "")
        indent = before
        return Edit(Position(x.line, len(indent)), Position(x.line, len(raw)), tail)
    keep_to = len(before.rstrip())
    return Edit(
        Position(x.line, keep_to), Position(x.line, len(raw)), ("  " + tail) if tail else ""
    )
