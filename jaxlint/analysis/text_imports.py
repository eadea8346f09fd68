"""The project's import graph, read from the text of its files (never imported or run).

The x64 evidence (analysis/x64.py) follows it: a file that turns x64 on at import time counts
for the files it imports and for those that import it. Import statements are found by a
regular expression over the text (`import a.b`, `from a import b`, relative forms), so a file
that does not parse still has its imports, and notebooks give the code of their cells.
"""

from __future__ import annotations

import os
import re

__all__ = ["SKIP_DIRS", "import_graph", "imports_of", "notebook_code"]

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        "env",
        "node_modules",
        "build",
        "dist",
        "site-packages",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
    }
)

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[\w, \t*]+)"
    r"|import[ \t]+([\w., \t]+))",
    re.M,
)


def _module_names(root: str, path: str) -> list[str]:
    """The dotted names `path` may be imported as: relative to the root and to every folder
    between (`src/pkg/mod.py`: `src.pkg.mod`, `pkg.mod`, `mod`); a package is its folder."""
    rel = os.path.relpath(path, root)[: -len(".py")].split(os.sep)
    if rel[-1] == "__init__":
        rel = rel[:-1]
    return [".".join(rel[i:]) for i in range(len(rel)) if rel[i:]]


def import_graph(
    root: str, texts: dict[str, str]
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """File -> the project files its import statements name (and the `__init__`s of the
    packages on the way: importing `a.b` runs `a/__init__.py`)."""
    by_name: dict[str, set[str]] = {}
    for path in texts:
        for name in _module_names(root, path):
            by_name.setdefault(name, set()).add(path)
    # files without `import` in them are still importable: index every .py under a package
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for fname in files:
            if fname.endswith(".py"):
                path = os.path.join(folder, fname)
                if path not in texts:
                    for name in _module_names(root, path):
                        by_name.setdefault(name, set()).add(path)
    graph: dict[str, set[str]] = {}
    for path, text in texts.items():
        graph[path] = imports_of(root, path, text, by_name)
    # a module's own package `__init__`s run before it
    for path in {p for paths in by_name.values() for p in paths}:
        folder = os.path.dirname(path)
        while folder.startswith(root) and folder != root:
            init = os.path.join(folder, "__init__.py")
            if os.path.isfile(init) and init != path:
                graph.setdefault(path, set()).add(init)
            folder = os.path.dirname(folder)
    return graph, by_name


def imports_of(root: str, path: str, text: str, by_name: dict[str, set[str]]) -> set[str]:
    """The project files the import statements of `text` (the code of `path`) name."""
    package = os.path.relpath(os.path.dirname(path), root).split(os.sep)
    package = [] if package == ["."] else package
    out: set[str] = set()
    for match in _IMPORT.finditer(text):
        source, names, plain = match.groups()
        wanted: list[str] = []
        if plain is not None:
            wanted = [m.split()[0] for m in plain.split(",") if m.strip()]
        else:
            dots = len(source) - len(source.lstrip("."))
            base = source.lstrip(".")
            if dots:
                up = package[: len(package) - (dots - 1)] if dots - 1 <= len(package) else []
                base = ".".join([*up, base] if base else up)
            listed = re.sub(r"#[^\n]*", "", names).replace("(", "").replace(")", "")
            items = [n.split()[0] for n in listed.split(",") if n.strip()]
            wanted = [base] if base else []
            wanted += [f"{base}.{n}" if base else n for n in items if n != "*"]
        for mod in wanted:
            parts = mod.split(".")
            for i in range(1, len(parts) + 1):
                out.update(by_name.get(".".join(parts[:i]), ()))
    out.discard(path)
    return out


def notebook_code(text: str) -> str:
    """The code cells of a notebook's JSON, joined (empty when it is not one)."""
    import json

    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return ""
    out = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            src = cell.get("source", "")
            out.append("".join(src) if isinstance(src, list) else str(src))
    return "\n".join(out)
