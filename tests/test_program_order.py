"""Program order is asked of the flow graph (issue 23): no position comparison outside it.

`analysis/flow/` (the graph, its builder, the forward walker and the key analysis that rides on
it) is where "does A run before B" is decided. Elsewhere in the static layer, comparing source
positions (`a.lineno < b.lineno`, `(n.lineno, n.col_offset) >= start`, `_pos(x) < y`) is a
second, syntactic answer to that question, the kind that made the v10 notebooks' JAX503
findings wrong (a rebinding "after the jitted function is called" that ran before its first
call). Ask `ModuleFacts.flow` (`may_run_after`, `may_run_first`, `runs_between`,
`reaching`, `certain_binding`, ...) instead. Sorting findings by position for a stable report
order is not a decision about program order and is not checked. The runtime (locating code
in a file the sandbox reads), `core/` and `files/` (text positions) are out of scope.

A new comparison fails here; one that must stay gets a row in ALLOWED with its reason.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "jaxlint"
CHECKED = ("analysis", "rules", "edits", "engine.py", "prefilter.py", "project_index.py")
EXEMPT = ("analysis/flow/",)
POSITIONS = frozenset({"lineno", "end_lineno", "col_offset", "end_col_offset"})
ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)

# (path under jaxlint/, function) -> why it still compares positions; shrink, never grow
ALLOWED: dict[tuple[str, str], str] = {
    ("analysis/pending.py", "syncs"): (
        "evaluation order inside one statement (host reads left of the clock read in "
        "`dt = time.time() - t0 if float(y) else 0`): the graph's steps are statements"
    ),
}


def _mentions_position(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in POSITIONS:
            return True
        if isinstance(n, ast.Constant) and n.value in POSITIONS:
            return True  # getattr(node, "lineno", 0)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_pos":
            return True
    return False


def _files() -> list[pathlib.Path]:
    out: list[pathlib.Path] = []
    for part in CHECKED:
        p = ROOT / part
        out.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return [f for f in out if not any(f.relative_to(ROOT).as_posix().startswith(e) for e in EXEMPT)]


def _comparisons(path: pathlib.Path) -> list[tuple[str, int, str]]:
    tree = ast.parse(path.read_text())
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = child.name
            if (
                isinstance(child, ast.Compare)
                and any(isinstance(op, ORDERING) for op in child.ops)
                and _mentions_position(child)
            ):
                found.append((name, child.lineno, ast.unparse(child)))
            visit(child, name)

    visit(tree, "<module>")
    return found


def test_no_position_comparison_outside_the_flow_graph():
    bad = []
    for f in _files():
        rel = f.relative_to(ROOT).as_posix()
        for function, line, text in _comparisons(f):
            if (rel, function) not in ALLOWED:
                bad.append(f"jaxlint/{rel}:{line} in {function}: {text}")
    assert not bad, "ask ModuleFacts.flow instead of comparing positions:\n" + "\n".join(bad)


def test_allowed_rows_are_still_needed():
    used = {
        (f.relative_to(ROOT).as_posix(), function)
        for f in _files()
        for function, _, _ in _comparisons(f)
    }
    stale = sorted(set(ALLOWED) - used)
    assert not stale, f"remove these rows of ALLOWED, nothing needs them: {stale}"


def test_the_check_sees_a_comparison(tmp_path: pathlib.Path):
    p = tmp_path / "probe.py"
    p.write_text("def f(a, b):\n    return a.lineno < getattr(b, 'lineno', 0)\n")
    assert [(fn, line) for fn, line, _ in _comparisons(p)] == [("f", 2)]
