"""Jupyter notebooks: lint and fix code cells in place, touching nothing else.

Cell magics (`%%bash`) skip the cell; line magics, shell escapes and help lines are masked
with same-line placeholders (`x = !ls` keeps its binding), so positions do not move. The cells
are joined into one module, each cell starting on a known line, so names defined in earlier
cells are known in later ones; positions are reported per cell. A fixed notebook is written
back only when re-serialising reproduces the original bytes exactly (key order, indentation,
ASCII escaping, final newline), so outputs and metadata are never disturbed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from jaxlint.diagnostic import Diagnostic, Position, Span
from jaxlint.engine import LintOptions, fix_text, internal_error, lint_text
from jaxlint.source import ReadError, decode_source

MAGIC_LINE = re.compile(r"^(\s*)(%|!|\?\?|\?)")
ASSIGN_MAGIC = re.compile(r"^(\s*)([A-Za-z_][\w.,\s]*?)\s*=\s*[!%]")
HELP_SUFFIX = re.compile(r"^\s*[\w.]+\?\??\s*$")


@dataclass
class Cell:
    index: int  # position among all cells (what users see as cell N+1)
    start: int  # first line of this cell in the joined module (1-based)
    lines: list[str]  # original source lines (no newline)
    masked: dict[int, str]  # line offset -> original text for masked lines
    as_list: bool  # stored as a list of strings (usual) or one string


def _mask(line: str, n: int) -> str | None:
    m = ASSIGN_MAGIC.match(line)
    if m:
        return f"{m.group(1)}{m.group(2)} = __jaxlint_magic__()  # {n}"
    m = MAGIC_LINE.match(line)
    if m or HELP_SUFFIX.match(line):
        indent = m.group(1) if m else line[: len(line) - len(line.lstrip())]
        return f"{indent}pass  # jaxlint: ipython-magic {n}"
    return None


def _cells(nb: dict) -> list[Cell]:
    cells: list[Cell] = []
    line = 1
    for i, cell in enumerate(nb.get("cells", [])):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        as_list = isinstance(src, list)
        text = "".join(src) if as_list else str(src)
        lines = text.split("\n")
        if text.endswith("\n"):
            lines = lines[:-1]
        if text.lstrip().startswith("%%"):
            continue
        masked: dict[int, str] = {}
        cont = False
        for k, raw in enumerate(lines):
            placeholder = (
                _mask(raw, k) if not cont else f"{raw[: len(raw) - len(raw.lstrip())]}pass"
            )
            if cont or placeholder is not None:
                masked[k] = raw
                lines[k] = placeholder if placeholder is not None else "pass"
                cont = raw.rstrip().endswith("\\")
        cells.append(Cell(i, line, lines, masked, as_list))
        line += len(lines) + 1  # a blank separator line between cells
    return cells


BOUNDARY = "# jaxlint: cell-boundary"


def _joined(cells: list[Cell]) -> str:
    return "".join("\n".join(c.lines) + "\n" + BOUNDARY + "\n" for c in cells)


def _locate(cells: list[Cell], line: int) -> tuple[Cell, int] | None:
    for c in reversed(cells):
        if line >= c.start:
            return c, line - c.start + 1
    return None


def _relocate(d: Diagnostic, cells: list[Cell]) -> Diagnostic | None:
    where = _locate(cells, d.line)
    if where is None:
        return None
    cell, local = where
    end_where = _locate(cells, d.span.end.line)
    end_line = end_where[1] if end_where and end_where[0] is cell else local
    span = Span(Position(local, d.span.start.col), Position(end_line, d.span.end.col))
    return replace(d, span=span, cell=cell.index, fix=None if d.fix is None else d.fix)


def _load(path: str) -> tuple[str, dict]:
    with open(path, "rb") as fh:
        data = fh.read()
    text = decode_source(data).text
    nb = json.loads(text)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise ValueError("not a notebook (no `cells` list)")
    return text, nb


def lint_notebook(path: str, options: LintOptions, display: str) -> list[Diagnostic]:
    try:
        _, nb = _load(path)
    except (OSError, ReadError) as exc:
        return [internal_error(display, f"could not read notebook: {exc}")]
    except (ValueError, json.JSONDecodeError) as exc:
        return [internal_error(display, f"could not read notebook: invalid JSON ({exc})")]
    cells = _cells(nb)
    joined = _joined(cells)
    diags = lint_text(joined, display, options)
    out = []
    for d in diags:
        moved = _relocate(d, cells)
        if moved is not None:
            out.append(moved)
    return out


def _dump_like(original: str, nb: dict) -> tuple | None:
    """Serialise `nb` in the style the original file used, or None if no style matches."""
    trailing = "\n" if original.endswith("\n") else ""
    for indent in (1, 2, 4, 0, None):
        for ensure_ascii in (False, True):
            for seps in ((",", ": "), (",", ":")):
                try:
                    text = json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii, separators=seps)
                except (TypeError, ValueError):
                    return None
                if text + trailing == original:
                    return (indent, ensure_ascii, seps, trailing)  # type: ignore[return-value]
    return None


def fix_notebook(path: str, display: str, options: LintOptions, unsafe: bool, write: bool):  # noqa: ANN201
    from jaxlint.fixing import FileFixResult, unified_diff, write_atomic

    try:
        original, nb = _load(path)
    except (OSError, ReadError, ValueError) as exc:
        return FileFixResult(remaining=[internal_error(display, f"could not read notebook: {exc}")])
    style = _dump_like(original, json.loads(original))
    cells = _cells(nb)
    joined = _joined(cells)
    result = fix_text(joined, display, options, unsafe=unsafe)
    remaining = [m for m in (_relocate(d, cells) for d in result.remaining) if m is not None]
    if result.text == joined or not result.fixed:
        return FileFixResult(remaining=remaining, failed=result.failed)
    if style is None:
        note = internal_error(
            display, "notebook not rewritten: its JSON layout could not be reproduced"
        )
        return FileFixResult(remaining=[*remaining, note], failed=result.failed)
    pieces = result.text.split("\n" + BOUNDARY + "\n")[: len(cells)]
    if len(pieces) != len(cells):
        note = internal_error(display, "notebook not rewritten: fixed cells could not be separated")
        return FileFixResult(remaining=[*remaining, note], failed=result.failed)
    for cell, new_text in zip(cells, pieces):
        lines = new_text.split("\n")
        for k, raw in cell.masked.items():
            if k < len(lines):
                lines[k] = raw
        src = nb["cells"][cell.index]["source"]
        body = "\n".join(lines)
        had_final_nl = ("".join(src) if isinstance(src, list) else src).endswith("\n")
        if had_final_nl:
            body += "\n"
        if cell.as_list:
            nb["cells"][cell.index]["source"] = body.splitlines(keepends=True)
        else:
            nb["cells"][cell.index]["source"] = body
    indent, ensure_ascii, seps, trailing = style  # type: ignore[misc]
    text = json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii, separators=seps) + trailing
    out = FileFixResult(fixed=result.fixed, remaining=remaining, failed=result.failed)
    out.diff = unified_diff(original, text, display)
    if write and text != original:
        write_atomic(path, text.encode("utf-8"))
    return out
