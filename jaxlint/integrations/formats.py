"""Output formats: each is `render(diagnostics, ...) -> str`.

JSON uses ruff's field names so tools that read ruff's output read ours; SARIF is 2.1.0 as
GitHub code scanning accepts it; `github` prints workflow commands (annotations).
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

from jaxlint import DOCS_URL, __version__
from jaxlint.core.diagnostic import Diagnostic

FORMATS = ("text", "concise", "full", "json", "sarif", "github")


# SARIF `rank` (0-100, higher is more relevant) from the diagnostic's confidence
SARIF_RANK = {"high": 90.0, "medium": 60.0}


def rule_url(code: str) -> str:
    return f"{DOCS_URL}#{code.lower()}"


# ANSI styles as ruff uses them: path bold, separators cyan, code bold red, [*] cyan
_STYLES = {"bold": "1", "cyan": "36", "code": "1;31", "blue": "1;34", "red": "31"}


def _c(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if color else text


def _location(d: Diagnostic, color: bool = False) -> str:
    cell = f"cell {d.cell + 1}:" if d.cell is not None else ""
    if color:
        sep = _c(":", "cyan", True)
        cell = f"cell {d.cell + 1}{sep}" if d.cell is not None else ""
        return f"{_c(d.path, 'bold', True)}{sep}{cell}{d.line}{sep}{d.col + 1}"
    return f"{d.path}:{cell}{d.line}:{d.col + 1}"


def _mark(d: Diagnostic, unsafe: bool, color: bool = False) -> str:
    if d.fix is None:
        return ""
    if d.fix.applies(unsafe):  # a display-only suggestion is never marked as fixable
        return _c("[*]", "cyan", color) + " "
    return ""


def suggestion(d: Diagnostic) -> str | None:
    """The line that shows a display-only fix: a suggestion for the user, never applied."""
    if d.fix is None or not d.fix.display_only:
        return None
    what = d.fix.message
    if not what and len(d.fix.edits) == 1:
        what = f"replace with `{d.fix.edits[0].content}`"
    return f"Suggested fix: {what or 'see the rule docs'} (not applied automatically)"


def _head(d: Diagnostic, unsafe: bool, color: bool) -> str:
    sep = _c(":", "cyan", color)
    return f"{_location(d, color)}{sep} {_c(d.code, 'code', color)} {_mark(d, unsafe, color)}{d.message}\n"


def render_concise(
    diags: Sequence[Diagnostic], unsafe: bool = False, color: bool = False, **_: object
) -> str:
    return "".join(_head(d, unsafe, color) for d in diags)


SNIPPET_WIDTH = 160


def _cells(text: str) -> int:
    """Terminal cells `text` takes: 2 for East Asian wide and full-width characters (most
    emoji), 0 for combining marks, 1 otherwise."""
    n = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def render_text(
    diags: Sequence[Diagnostic],
    unsafe: bool = False,
    sources: dict[str, list[str]] | None = None,
    color: bool = False,
    **_: object,
) -> str:
    """One line per finding, then the source line with a caret, like ruff's full output."""
    out = []
    for d in diags:
        out.append(_head(d, unsafe, color))
        # a notebook's cell is keyed (path, cell index)
        lines = (sources or {}).get(d.path if d.cell is None else (d.path, d.cell))  # type: ignore[call-overload]
        if lines and 1 <= d.line <= len(lines):
            text = lines[d.line - 1].rstrip("\r\n").expandtabs(1)
            end = d.span.end.col if d.span.end.line == d.line else len(text)
            start, end = min(d.col, len(text)), max(min(end, len(text)), d.col)
            # a line past SNIPPET_WIDTH shows a window around the span (a generated file's
            # 2,000-character line was echoed whole), cut at character boundaries
            lo = 0
            if len(text) > SNIPPET_WIDTH:
                lo = max(0, start - SNIPPET_WIDTH // 3)
                hi = min(len(text), max(lo + SNIPPET_WIDTH, start + 1))
                text = ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")
                shift = 1 if lo else 0
                start, end = start - lo + shift, min(end - lo + shift, len(text))
            gutter = f"{d.line:>4} | "
            out.append(f"{_c(gutter, 'blue', color)}{text}\n")
            pad = _c(" " * (len(gutter) - 2) + "| ", "blue", color)
            # carets under what a terminal shows: a wide character (an emoji, CJK) takes two
            # cells, a combining mark none (columns count characters, as ruff's do)
            lead, under = _cells(text[:start]), _cells(text[start:end])
            out.append(pad + " " * lead + _c("^" * max(1, under), "red", color) + "\n")
        hint = suggestion(d)
        if hint:
            out.append(f"  {hint}\n")
        for note in d.notes:
            out.append(note if note.endswith("\n") else note + "\n")
    return "".join(out)


def _fix_json(d: Diagnostic) -> dict | None:
    if d.fix is None:
        return None
    return {
        "applicability": d.fix.safety,
        "message": d.fix.message or None,
        "edits": [
            {
                "content": e.content,
                "location": {"row": e.start.line, "column": e.start.col + 1},
                "end_location": {"row": e.end.line, "column": e.end.col + 1},
            }
            for e in d.fix.edits
        ],
    }


def render_json(diags: Sequence[Diagnostic], **_: object) -> str:
    items = [
        {
            "code": d.code,
            "name": d.name,
            "message": d.message,
            "filename": d.path,
            "cell": None if d.cell is None else d.cell + 1,  # 1-based, as ruff and the text output
            "location": {"row": d.line, "column": d.col + 1},
            "end_location": {"row": d.span.end.line, "column": d.span.end.col + 1},
            "fix": _fix_json(d),
            "url": rule_url(d.code),
            "noqa_row": d.line,
            "severity": d.severity,
            "confidence": d.confidence,
        }
        for d in diags
    ]
    return json.dumps(items, indent=2) + "\n"


def _file_region(d: Diagnostic, maps: dict) -> tuple[int, int, int, int]:
    """(line, column, end line, end column), 1-based, in the file GitHub shows: for a finding
    in a notebook cell, the `.ipynb` line that holds the flagged source (the cell's row would
    be a line of the raw JSON); a notebook that cannot be read again (stdin) keeps the cell's."""
    line, col = max(d.line, 1), d.col + 1
    end_line, end_col = max(d.span.end.line, 1), max(d.span.end.col + 1, 1)
    if d.cell is None or not d.path.endswith(".ipynb") or not os.path.isfile(d.path):
        return line, col, end_line, end_col
    from jaxlint.files.notebook import file_position, file_rows

    if d.path not in maps:
        maps[d.path] = file_rows(d.path)
    start = file_position(maps[d.path], d.cell, d.line, d.col)
    if start is None:
        return line, col, end_line, end_col
    end = file_position(maps[d.path], d.cell, d.span.end.line, d.span.end.col)
    if end is None or end < start:
        end = start
    return start[0], start[1] + 1, end[0], max(end[1] + 1, 1)


def render_sarif(diags: Sequence[Diagnostic], **_: object) -> str:
    from jaxlint.rules import rules_by_code

    known = rules_by_code()
    codes = sorted({d.code for d in diags} | set())
    rules = []
    for code in codes:
        rule = known.get(code)
        rules.append(
            {
                "id": code,
                "name": rule.name if rule else "internal-error",
                "shortDescription": {
                    "text": rule.summary() if rule else "file could not be analysed"
                },
                "fullDescription": {
                    "text": _what_it_does(rule)
                    if rule
                    else "jaxlint could not read, parse or analyse the file."
                },
                "helpUri": rule_url(code),
                "help": _help(rule),
                "defaultConfiguration": {"level": "error" if code == "JAX000" else "warning"},
                "properties": {"tags": ["jax"]},
            }
        )
    index = {code: i for i, code in enumerate(codes)}
    results = []
    maps: dict = {}
    for d in diags:
        line, col, end_line, end_col = _file_region(d, maps)
        uri = (
            os.path.relpath(d.path).replace(os.sep, "/")
            if os.path.isabs(d.path)
            else d.path.replace(os.sep, "/")
        )
        result = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": "error"
            if d.severity == "error"
            else ("note" if d.severity == "info" else "warning"),
            "message": {"text": d.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                        "region": {
                            "startLine": line,
                            "startColumn": col,
                            "endLine": end_line,
                            "endColumn": end_col,
                        },
                    }
                }
            ],
        }
        result["rank"] = SARIF_RANK[d.confidence]
        result["properties"] = {"confidence": d.confidence}
        if d.cell is not None:  # the cell and its row too, as the other formats give them
            result["properties"]["cell"] = d.cell + 1
            result["properties"]["cellLine"] = d.line
        results.append(result)
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxlint",
                        "version": __version__,
                        "informationUri": DOCS_URL,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"


def _what_it_does(rule) -> str:  # noqa: ANN001 - a Rule class
    from jaxlint.rules.docs import docs_of

    docs = docs_of(rule)
    section = docs.section("What it does")
    return section.prose if section and section.prose else docs.summary


def _help(rule) -> dict[str, str]:  # noqa: ANN001 - a Rule class or None
    """The rule's page, from the one parse of its docs (text and Markdown)."""
    if rule is None:
        return {"text": "", "markdown": ""}
    from jaxlint.rules.docs import explain_markdown, explain_text

    return {"text": explain_text(rule), "markdown": explain_markdown(rule)}


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def render_github(diags: Sequence[Diagnostic], **_: object) -> str:
    out = []
    maps: dict = {}
    for d in diags:
        level = "error" if d.severity == "error" else "warning"
        line, col, end_line, end_col = _file_region(d, maps)
        props = (
            f"file={_gh_escape(d.path, True)},line={line},col={col},"
            f"endLine={end_line},endColumn={end_col},title={d.code}"
        )
        # a notebook finding points at the .ipynb line holding its source; the message names
        # the cell and its row, as the other formats give them
        where = f"cell {d.cell + 1}, line {d.line}: " if d.cell is not None else ""
        out.append(f"::{level} {props}::{_gh_escape(f'{where}{d.code} {d.message}')}\n")
    return "".join(out)


def render_statistics(diags: Sequence[Diagnostic], **_: object) -> str:
    from jaxlint.rules import rules_by_code

    known = rules_by_code()
    counts = Counter(d.code for d in diags)
    fixable = Counter(d.code for d in diags if d.fix is not None and d.fix.safety == "safe")
    lines = []
    for code, n in counts.most_common():
        name = known[code].name if code in known else "internal-error"
        mark = "[*]" if fixable[code] else "   "
        lines.append(f"{n:>5}\t{code}\t{mark} {name}\n")
    return "".join(lines)


RENDERERS: dict[str, Callable[..., str]] = {
    "text": render_text,
    "full": render_text,
    "concise": render_concise,
    "json": render_json,
    "sarif": render_sarif,
    "github": render_github,
}
