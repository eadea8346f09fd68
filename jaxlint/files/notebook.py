"""Jupyter notebooks: lint and fix code cells in place, touching nothing else.

A notebook format over the engine's text interface: the functions here take the notebook's JSON
text (or cell texts) and return diagnostics or fixed text; `files.driver` reads and writes files.

Cells follow ruff: a cell with a cell magic (`%%bash`, `%%writefile`) anywhere is skipped, except
the magics whose body is Python (`%%time`, `%%timeit`, `%%capture`, `%%debug`, `%%prun`,
`%%python`, `%%python3`, `%%pypy`): their magic line is masked and the rest is linted. `%%time`,
`%%timeit`, `%time stmt` and `%timeit stmt` become the clock reads they are (a timed region for
JAX601/JAX602). A cell
that starts with an automagic (`pip install x`, `cd dir`) is skipped too. Line magics, shell escapes and help lines are masked
with same-line placeholders (`x = !ls` keeps its binding), so positions do not move. The cells
are joined into one module, each cell starting on a known line, so names defined in earlier
cells are known in later ones; positions are reported per cell, and so are the lines that messages cite ("consumed on line
2", or "line 4 (cell 2)" for another cell). A fixed notebook is written
back only when re-serialising reproduces the original bytes exactly (key order, indentation,
ASCII escaping, final newline), so outputs and metadata are never disturbed.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from dataclasses import dataclass, field, replace

from jaxlint.core.diagnostic import Diagnostic, Edit, Fix, Position, Span, internal_error
from jaxlint.core.source import ReadError, SourceText, decode_source
from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.files.read import read_bytes
from jaxlint.files.result import FileFixResult, unified_diff

MAGIC_LINE = re.compile(r"^(\s*)(%|!|\?\?|\?)")
ASSIGN_MAGIC = re.compile(r"^(\s*)([A-Za-z_][\w.,\s]*?)\s*=\s*[!%]")
HELP_SUFFIX = re.compile(r"^\s*[\w.]+\?\??\s*$")
# ruff's lists (crates/ruff_notebook cell.rs): cell magics whose body is Python, and the
# IPython magics that Jupyter runs without `%` (automagic) as a cell's first word
TRANSPARENT_CELL_MAGICS = frozenset(
    {"capture", "debug", "prun", "pypy", "python", "python3", "time", "timeit"}
)
AUTOMAGICS = frozenset(
    """alias alias_magic autoawait autocall automagic bookmark cd code_wrap colors conda config
    debug dhist dirs doctest_mode edit env gui history killbgscripts load load_ext loadpy logoff
    logon logstart logstate logstop lsmagic macro magic mamba matplotlib micromamba notebook page
    pastebin pdb pdef pdoc pfile pinfo pinfo2 pip popd pprint precision prun psearch psource pushd
    pwd pycat pylab quickref recall rehashx reload_ext rerun reset reset_selective run save sc
    set_env sx system tb time timeit unalias unload_ext who who_ls whos xdel xmode""".split()
)
CITED_LINE = re.compile(r"\b(lines? )(\d+)(?:( and )(\d+))?")


def skip_cell(lines: list[str]) -> bool:
    """ruff's rule: automagic first line, or a cell magic other than the transparent ones."""
    first = lines[0].split() if lines else []
    if first and first[0] in AUTOMAGICS:
        return True
    for line in lines:
        words = line.split()
        if words and len(words[0]) > 2 and words[0].startswith("%%"):
            if words[0][2:] not in TRANSPARENT_CELL_MAGICS:
                return True
    return False


@dataclass
class Cell:
    index: int  # position among all cells (what users see as cell N+1)
    start: int  # first line of this cell in the joined module (1-based)
    lines: list[str]  # original source lines (no newline)
    masked: dict[int, str]  # line offset -> original text for masked lines
    as_list: bool  # stored as a list of strings (usual) or one string
    end: str = ""  # the line after the cell: the boundary (a `%%time` cell's clock read)
    # `%time stmt` lines: offset -> (column of stmt in the joined line, columns added, indent)
    shifts: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # IPython's `leading_indent`: the whitespace the first line starts with, removed from every
    # line that starts with it (those offsets), as IPython does before running the cell
    indent: str = ""
    dedented: frozenset[int] = frozenset()


# IPython's timing magics as the clock reads they stand for, so the benchmarking rules (JAX601
# unblocked result, JAX602 compile in the timing) see their timed region: `%%time` times its
# cell (a clock read on the magic's line and one on the boundary line after the cell), `%time
# stmt` its statement (both reads on the statement's line). The names cannot clash with a
# user's: they are dunder names no notebook defines.
CLOCK = "__jaxlint_time__"
CELL_T0 = "__jaxlint_cell_t0__"
LINE_T0 = "__jaxlint_line_t0__"
# `%%time`, `%%timeit [-n N -r R ...] [setup]`; `%time stmt`, `%timeit [-n N ...] stmt`
TIME_CELL = re.compile(r"^%%time(?:it(?:\s.*)?)?\s*$")
TIME_LINE = re.compile(r"^(\s*)(%timeit(?:\s+-(?:[nrp]\s*\d+|[tcqo]))*\s+|%time\s+)(\S.*)$")
CELL_START = f"import time as {CLOCK}; {CELL_T0} = {CLOCK}.perf_counter()  # jaxlint: %%time"
LINE_PREFIX = f"import time as {CLOCK}; {LINE_T0} = {CLOCK}.perf_counter(); "
LINE_SUFFIX = f"; {CLOCK}.perf_counter() - {LINE_T0}"


def _timed_line(line: str) -> tuple[str, tuple[int, int, int]] | None:
    """`%time y = f(x)` as `import time ...; t0 = clock(); y = f(x); clock() - t0`, one line:
    (that line, its shift), or None unless the statement is one simple statement (not compound,
    continued, or followed by a comment that would swallow the second clock read)."""
    m = TIME_LINE.match(line)
    if m is None or line.rstrip().endswith("\\"):
        return None
    indent, magic, stmt = m.groups()
    code, comment = _split_comment(stmt)
    try:
        body = ast.parse(LINE_PREFIX + code + LINE_SUFFIX).body
    except SyntaxError:
        return None
    if len(body) != 4:
        return None
    shift = (len(indent) + len(LINE_PREFIX), len(LINE_PREFIX) - len(magic), len(indent))
    return indent + LINE_PREFIX + code + LINE_SUFFIX + comment, shift


def _split_comment(stmt: str) -> tuple[str, str]:
    """(`y = f(x)`, `  # note`) from `y = f(x)  # note`; a `#` inside a string is no comment."""
    if "#" not in stmt:
        return stmt, ""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(stmt).readline))
    except (tokenize.TokenError, SyntaxError):
        return stmt, ""
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            code = stmt[: tok.start[1]].rstrip()
            return code, stmt[len(code) :]
    return stmt, ""


def _mask(line: str, n: int) -> str | None:
    m = ASSIGN_MAGIC.match(line)
    if m:
        return f"{m.group(1)}{m.group(2)} = __jaxlint_magic__()  # {n}"
    m = MAGIC_LINE.match(line)
    if m or HELP_SUFFIX.match(line):
        indent = m.group(1) if m else line[: len(line) - len(line.lstrip())]
        return f"{indent}pass  # jaxlint: ipython-magic {n}"
    return None


def _leading_indent(lines: list[str]) -> tuple[str, frozenset[int]]:
    """IPython's input transformers `leading_empty_lines` + `leading_indent`: a cell whose
    first non-blank line is indented runs with that indentation removed from each line that
    starts with it (` x = 1` runs; Python alone would raise IndentationError)."""
    first = next((ln for ln in lines if ln.strip()), "")
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent:
        return "", frozenset()
    return indent, frozenset(k for k, ln in enumerate(lines) if ln.startswith(indent))


def _cells(nb: dict, line_timing: bool = True) -> list[Cell]:
    """The code cells to lint, masked; `line_timing=False` leaves `%time stmt` lines masked as
    any line magic (the fixer's view: a fix for a timed statement would land on its line).
    The fixer's view also leaves out indented cells (IPython's `leading_indent`): the lint
    view dedents them, and a fix could not be written back at the original indentation."""
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
        if skip_cell(lines):
            continue
        indent, dedented = _leading_indent(lines)
        if indent and not line_timing:
            continue  # the fixer's view (see above)
        for k in dedented:
            lines[k] = lines[k][len(indent) :]
        masked: dict[int, str] = {}
        shifts: dict[int, tuple[int, int, int]] = {}
        cont = False
        for k, raw in enumerate(lines):
            timed = _timed_line(raw) if line_timing and not cont else None
            if timed is not None:
                masked[k], (lines[k], shifts[k]) = raw, timed
                continue
            placeholder = (
                _mask(raw, k) if not cont else f"{raw[: len(raw) - len(raw.lstrip())]}pass"
            )
            if cont or placeholder is not None:
                masked[k] = raw
                lines[k] = placeholder if placeholder is not None else "pass"
                cont = raw.rstrip().endswith("\\")
        end = BOUNDARY
        if TIME_CELL.match(masked.get(0, "")):
            lines[0] = CELL_START
            end = f"{CLOCK}.perf_counter() - {CELL_T0}  {BOUNDARY}"
        cells.append(Cell(i, line, lines, masked, as_list, end, shifts, indent, dedented))
        line += len(lines) + 1  # a separator line between cells
    return cells


BOUNDARY = "# jaxlint: cell-boundary"


SEPARATOR = re.compile(r"\n[^\n]*" + re.escape(BOUNDARY) + r"\n")


def _joined(cells: list[Cell]) -> str:
    return "".join("\n".join(c.lines) + "\n" + (c.end or BOUNDARY) + "\n" for c in cells)


def _pieces(text: str, cells: list[Cell]) -> list[str]:
    """The fixed joined text cut back into its cells' texts."""
    return SEPARATOR.split(text)[: len(cells)]


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
    start_col = _unshift(cell, local, d.span.start.col)
    span = Span(
        Position(local, start_col), Position(end_line, _unshift(cell, end_line, d.span.end.col))
    )
    message = _cell_lines(d.message, cells, cell)
    if d.code == "JAX602" and _calibrated(cell, local - 1 if local - 1 in cell.shifts else 0):
        return None  # `%timeit` without `-n` calls the statement to calibrate before timing
    if d.code.startswith("JAX60") and local - 1 in cell.shifts:
        message += f" (the timing is this line's `{_magic(cell, local - 1)}`)"
    elif d.code.startswith("JAX60") and cell.end not in ("", BOUNDARY):
        message += f" (the timing is this cell's `{_magic(cell, 0)}`)"
    fix = d.fix
    if fix is not None and (local - 1 in cell.shifts or cell.indent):
        # on a `%time` line the fixer does not see its timing, and it leaves indented cells
        # out (see `_cells`): no fix is offered that `--fix` would not apply
        fix = None
    if fix is not None:  # edits in cell coordinates too (the JSON output shows them)
        fix = _cell_fix(fix, cells)
    return replace(d, span=span, cell=cell.index, message=message, fix=fix)


def _cell_fix(fix: Fix, cells: list[Cell]) -> Fix:
    """The fix with its edits in cell coordinates, mapped when they are built (a lazy fix
    stays lazy)."""

    def mapped() -> tuple[Edit, ...] | None:
        if not fix.available:
            return None
        return tuple(
            replace(e, start=_cell_pos(cells, e.start), end=_cell_pos(cells, e.end))
            for e in fix.edits
        )

    if fix.built:
        return Fix(mapped(), fix.safety, fix.message)
    if not fix.buildable:
        return fix  # detached: nothing to map
    return Fix.lazy(mapped, fix.safety, fix.message, certain=fix.certain)


def _calibrated(cell: Cell, k: int) -> bool:
    """Masked line `k` is a `%timeit`/`%%timeit` without `-n`: IPython's autorange runs the
    statement (compiling it) before the timed runs, so no reported time includes the compile."""
    words = cell.masked.get(k, "").split()
    if not words or words[0] not in ("%timeit", "%%timeit"):
        return False
    return not any(w.startswith("-n") for w in words[1:])


def _magic(cell: Cell, k: int) -> str:
    """The timing magic of masked line `k` (`%%time`, `%%timeit`, `%time`, `%timeit`)."""
    words = cell.masked.get(k, "").split()
    return words[0] if words else "%%time"


def _unshift(cell: Cell, local: int, col: int) -> int:
    """A column of a `%time stmt` line, from the joined line back to the cell's (and of a
    dedented line, back to its indentation)."""
    if local - 1 in cell.dedented:
        col += len(cell.indent)
    shift = cell.shifts.get(local - 1)
    if shift is None:
        return col
    stmt_col, added, indent = shift
    return col - added if col >= stmt_col else indent


def _cell_pos(cells: list[Cell], pos: Position) -> Position:
    where = _locate(cells, pos.line)
    return pos if where is None else Position(where[1], pos.col)


def _cell_lines(message: str, cells: list[Cell], here: Cell) -> str:
    """Lines cited in a message, from joined-module lines to cell lines."""
    last = cells[-1].start + len(cells[-1].lines) if cells else 0

    def one(n: str) -> str:
        line = int(n)
        where = _locate(cells, line) if 1 <= line <= last else None
        if where is None:
            return n
        cell, local = where
        return str(local) if cell is here else f"{local} (cell {cell.index + 1})"

    def sub(m: re.Match) -> str:
        out = m.group(1) + one(m.group(2))
        if m.group(4):
            out += m.group(3) + one(m.group(4))
        return out

    return CITED_LINE.sub(sub, message) if "line" in message else message


def _parse(text: str) -> dict:
    nb = json.loads(text)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise ValueError("not a notebook (no `cells` list)")
    return nb


def lint_notebook_text(text: str, options: LintOptions, display: str) -> list[Diagnostic]:
    """Lint a notebook's JSON text (a file's, or stdin with `--stdin-filename x.ipynb`)."""
    try:
        nb = _parse(text)
    except (ValueError, json.JSONDecodeError) as exc:
        return [internal_error(display, f"could not read notebook: invalid JSON ({exc})")]
    cells = _cells(nb)
    joined = _joined(cells)
    diags = lint_text(joined, display, options)
    return [m for m in (_relocate(d, cells) for d in diags) if m is not None]


def lint_cells(sources: list[str], options: LintOptions, display: str) -> list[Diagnostic]:
    """Lint code cells given as texts (an editor's notebook); `cell` indexes `sources`."""
    nb = {"cells": [{"cell_type": "code", "source": src} for src in sources]}
    cells = _cells(nb)
    diags = lint_text(_joined(cells), display, options)
    return [m for m in (_relocate(d, cells) for d in diags) if m is not None]


def cell_lines(path: str) -> dict[tuple[str, int], list[str]]:
    """{(path, cell index): the cell's source lines} for the text output's source snippets."""
    try:
        nb = _parse(decode_source(read_bytes(path)).text)
    except (OSError, ReadError, ValueError):
        return {}
    out: dict[tuple[str, int], list[str]] = {}
    for i, cell in enumerate(nb.get("cells", [])):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            src = cell.get("source", "")
            out[(path, i)] = ("".join(src) if isinstance(src, list) else str(src)).split("\n")
    return out


def _cell_body(cell: Cell, fixed: str, original: str) -> str:
    """A cell's fixed text with its masked magic lines restored and its final newline kept.

    A placeholder is found where it was, shifted by the lines fixes inserted before it (an
    import that a fix adds at the top of the first cell, above a masked `%matplotlib`)."""
    lines = fixed.split("\n")
    delta = 0
    for k in sorted(cell.masked):
        placeholder = cell.lines[k]
        at = k + delta
        if not (0 <= at < len(lines) and lines[at] == placeholder):
            found = [j for j in range(max(at, 0), len(lines)) if lines[j] == placeholder]
            if found:
                at = found[0]
        if 0 <= at < len(lines):
            lines[at] = _restored(cell, k, lines[at])
            delta = at - k
    if cell.indent and len(lines) == len(cell.lines):  # `--add-noqa` (same lines): re-indent
        lines = [cell.indent + ln if k in cell.dedented else ln for k, ln in enumerate(lines)]
    body = "\n".join(lines)
    return body + "\n" if original.endswith("\n") else body


def _restored(cell: Cell, k: int, now: str) -> str:
    """The original text of masked line `k`; a `%time stmt` line keeps what was appended to its
    statement (`--add-noqa`'s comment): `%time` + the statement + the new tail."""
    original = cell.masked[k]
    m = TIME_LINE.match(original) if k in cell.shifts else None
    if m is None:
        return original
    head = m.group(1) + LINE_PREFIX
    if not now.startswith(head) or LINE_SUFFIX not in now:
        return original
    return m.group(1) + m.group(2) + now[len(head) :].replace(LINE_SUFFIX, "", 1)


def fix_cells(
    sources: list[str], options: LintOptions, display: str, unsafe: bool = False
) -> list[str]:
    """Code cells given as texts, with fixes applied across the notebook (an editor's
    fix-all); unchanged when the fixed cells cannot be separated again."""
    nb = {"cells": [{"cell_type": "code", "source": src} for src in sources]}
    cells = _cells(nb, line_timing=False)
    joined = _joined(cells)
    result = fix_text(joined, display, options, unsafe=unsafe)
    pieces = _pieces(result.text, cells)
    out = list(sources)
    if result.text == joined or len(pieces) != len(cells):
        return out
    for cell, new_text in zip(cells, pieces):
        out[cell.index] = _cell_body(cell, new_text, sources[cell.index])
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


def _remaining(
    nb: dict, found: list[Diagnostic], text: str, options: LintOptions, display: str
) -> list[Diagnostic]:
    """The findings of the (fixed) notebook `nb`, whose JSON is `text`: `found` (positions in
    the fixed joined text) mapped through its cells, which a fix that inserted a line moved;
    linted afresh when it has `%time` lines, which the fixer saw masked (see `_cells`)."""
    cells = _cells(nb)
    if any(c.shifts or c.indent for c in cells):  # the fixer saw other cells than these
        return lint_notebook_text(text, options, display)
    return [m for m in (_relocate(d, cells) for d in found) if m is not None]


def fix_notebook_text(
    original: str, display: str, options: LintOptions, unsafe: bool
) -> tuple[FileFixResult, str]:
    """(FileFixResult, the fixed notebook JSON); the JSON is `original` when nothing changed."""
    try:
        nb = _parse(original)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        note = internal_error(display, f"could not read notebook: invalid JSON ({exc})")
        return FileFixResult(remaining=[note]), original
    style = _dump_like(original, json.loads(original))
    cells = _cells(nb, line_timing=False)
    joined = _joined(cells)
    result = fix_text(joined, display, options, unsafe=unsafe)
    fixed = [m for m in (_relocate(d, cells) for d in result.fixed) if m is not None]
    if result.text == joined or not result.fixed:
        remaining = _remaining(nb, result.remaining, original, options, display)
        return FileFixResult(remaining=remaining, failed=result.failed), original

    def unfixed(why: str) -> tuple[FileFixResult, str]:
        # the notebook keeps its text: its findings, at its own rows (not the fixed text's)
        remaining = lint_notebook_text(original, options, display)
        note = internal_error(display, f"notebook not rewritten: {why}")
        return FileFixResult(remaining=[*remaining, note], failed=result.failed), original

    if style is None:
        return unfixed("its JSON layout could not be reproduced")
    pieces = _pieces(result.text, cells)
    if len(pieces) != len(cells):
        return unfixed("fixed cells could not be separated")
    text = _rewritten(nb, cells, pieces, style)
    remaining = _remaining(nb, result.remaining, text, options, display)
    out = FileFixResult(fixed=fixed, remaining=remaining, failed=result.failed)
    out.diff = unified_diff(original, text, display)
    return out, text


def _rewritten(nb: dict, cells: list[Cell], pieces: list[str], style: tuple) -> str:
    """`nb` with its cells' sources replaced by `pieces` (texts of the joined module, magics
    restored), serialised in the original file's JSON style."""
    for cell, new_text in zip(cells, pieces):
        src = nb["cells"][cell.index]["source"]
        body = _cell_body(cell, new_text, "".join(src) if isinstance(src, list) else src)
        if cell.as_list:
            nb["cells"][cell.index]["source"] = body.splitlines(keepends=True)
        else:
            nb["cells"][cell.index]["source"] = body
    indent, ensure_ascii, seps, trailing = style
    return json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii, separators=seps) + trailing


def add_noqa_notebook(original: str, options: LintOptions, display: str) -> tuple[str, int, int]:
    """`--add-noqa` for a notebook: (its JSON with `# noqa: CODES` on the cell lines of its
    findings, directives added, findings left). Only source lines change, as with `--fix`; a
    finding on a masked magic line is left (its comment would go with the placeholder), and a
    notebook whose JSON layout cannot be reproduced is left whole."""
    from jaxlint.add_noqa import add_noqa_text

    try:
        nb = _parse(original)
    except ValueError:
        return original, 0, 0
    style = _dump_like(original, json.loads(original))
    cells = _cells(nb)
    joined = _joined(cells)
    on_magic = {c.start + k for c in cells for k in c.masked if k not in c.shifts}
    found = [d for d in lint_text(joined, display, options) if d.code not in ("JAX000", "JAX001")]
    wanted = [d for d in found if d.line not in on_magic and _locate(cells, d.line) is not None]
    left = len(found) - len(wanted)
    if not wanted:
        return original, 0, left
    if style is None:
        return original, 0, len(found)
    result = add_noqa_text(SourceText(joined), wanted)
    pieces = _pieces(result.text, cells)
    if not result.added or len(pieces) != len(cells):
        return original, 0, len(found)
    return _rewritten(nb, cells, pieces, style), result.added, left + result.skipped


# -- where a cell's lines are in the notebook file (SARIF and GitHub annotations) -------------

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def _child(path: tuple | None, key: object) -> tuple | None:
    """The tracked path below `path` (only `cells[n].source[k]` matters), else None."""
    if path == () and key == "cells":
        return ("cells",)
    if path == ("cells",) and isinstance(key, int):
        return ("cells", key)
    if path is not None and len(path) == 2 and key == "source":
        return (*path, "source")
    if path is not None and len(path) == 3 and isinstance(key, int):
        return (*path, key)
    return None


def _scan(text: str, i: int, path: tuple | None, out: dict[int, list[int]]) -> int:
    """Skip the JSON value at `i` (returns its end), recording the offsets of the strings of
    `cells[n].source` in `out[n]`. Strings are skipped by one regex each, so outputs holding
    megabytes of base64 images cost little."""
    i = _WS.match(text, i).end()  # type: ignore[union-attr]
    ch = text[i : i + 1]
    if ch == '"':
        m = _STRING.match(text, i)
        if m is None:
            raise ValueError("unterminated string")
        if path is not None and len(path) >= 3:  # the source, as one string or an element
            out.setdefault(path[1], []).append(i)
        return m.end()
    if ch in ("[", "{"):
        close, n = ("]" if ch == "[" else "}"), 0
        i += 1
        while True:
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i : i + 1] == close:
                return i + 1
            key: object = n
            if ch == "{":
                m = _STRING.match(text, i)
                if m is None:
                    raise ValueError("expected a key")
                key = json.loads(m.group())
                i = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
                if text[i : i + 1] != ":":
                    raise ValueError("expected `:`")
                i += 1
            i = _scan(text, i, _child(path, key), out)
            n += 1
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if text[i : i + 1] == ",":
                i += 1
            elif text[i : i + 1] != close:
                raise ValueError("expected `,`")
    m = _SCALAR.match(text, i)
    if m is None:
        raise ValueError(f"unexpected {ch!r}")
    return m.end()


def source_positions(text: str) -> dict[int, list[tuple[int, int, bool]]]:
    """{cell index: for each line of the cell's source, (line, column, exact) in the
    notebook's JSON text}: the 1-based line that holds it and the 0-based column where the
    line's text starts, `exact` when that text is stored without escapes (so a cell column
    maps by adding it; otherwise the column is the string's start). Lets SARIF and GitHub
    annotations point at the file GitHub shows instead of at cell-relative rows. Empty when
    the text is not JSON the scanner reads."""
    import bisect

    offsets: dict[int, list[int]] = {}
    try:
        _scan(text, 0, (), offsets)
    except (ValueError, IndexError, RecursionError):
        return {}
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out: dict[int, list[tuple[int, int, bool]]] = {}
    for cell, strings in offsets.items():
        rows: list[tuple[int, int, bool]] = []
        at_line_start = True
        for offset in strings:
            raw = _STRING.match(text, offset).group()  # type: ignore[union-attr]
            row = bisect.bisect_right(starts, offset)
            col = offset - starts[row - 1]
            decoded = json.loads(raw)
            pieces = decoded.split("\n")
            for k, piece in enumerate(pieces):
                if k == len(pieces) - 1 and piece == "" and k > 0:
                    break  # the string ended with its line's newline
                if k == 0 and not at_line_start:
                    continue  # the rest of a line an earlier string began
                exact = k == 0 and raw[1 : 1 + len(piece)] == piece
                rows.append((row, col + 1 if exact else col, exact))
            at_line_start = decoded.endswith("\n")
        out[cell] = rows
    return out


def file_position(
    rows: dict[int, list[tuple[int, int, bool]]], cell: int, line: int, col: int
) -> tuple[int, int] | None:
    """(1-based line, 0-based column) in the notebook file of a cell's (line, column), or None
    when the map lacks the line."""
    cell_rows = rows.get(cell)
    if not cell_rows or not 1 <= line <= len(cell_rows):
        return None
    row, start, exact = cell_rows[line - 1]
    return row, start + col if exact else start


def file_rows(path: str) -> dict[int, list[tuple[int, int, bool]]]:
    """`source_positions` of the notebook file at `path` (empty when it cannot be read)."""
    try:
        return source_positions(decode_source(read_bytes(path)).text)
    except (OSError, ReadError, ValueError):
        return {}
