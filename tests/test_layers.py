"""The layer order of shared/ARCHITECTURE.md §5, as a test.

Every `from jaxlint.X import ...` (module level or inside a function) must point down or
sideways: a lower layer never imports a higher one, so each layer can be read and tested alone.
Today's violations are listed in `ALLOWED`; each refactoring step removes its rows, and a new
violation fails here. The import-cycle check counts function-level imports too.

Layers (low to high) follow the Appendix of ARCHITECTURE.md; new top-level modules must be given a
layer here, so the test also catches a module that nobody placed.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "jaxlint"

# top-level module or package of jaxlint -> layer (low to high)
LAYER = {
    "__init__": 0,
    "core": 0,
    "analysis": 1,
    "edits": 2,
    "rules": 3,
    "docgen": 4,
    "prefilter": 4,
    "engine": 4,
    "files": 5,
    "add_noqa": 5,
    "run": 6,
    "project_index": 6,
    "integrations": 7,
    "templates": 7,
    # `jaxlint verify`: the static planner (no JAX) and the runtime, the one place JAX runs
    "verify": 7,
    "runtime": 7,
    "skill": 7,
    "pytest_plugin": 7,
    "commands": 8,
    "cli": 8,
    "__main__": 8,
    # faces that sit beside the CLI and use its commands (agents drive jaxlint through them)
    "integrations.mcp": 8,
    "integrations.mcp_command": 8,
}

# (importer, imported) pairs that point up today; shrink this list, never grow it
ALLOWED: set[tuple[str, str]] = set()

# module cycles that exist today (as sorted tuples of the modules in the cycle)
ALLOWED_CYCLES: set[tuple[str, ...]] = set()


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        out[".".join(rel.parts).removesuffix(".__init__")] = path
    return out


def _layer(module: str) -> int:
    """The layer of the longest entry of LAYER that is a prefix of `module` (below `jaxlint.`)."""
    parts = module.split(".")[1:] or ["__init__"]
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in LAYER:
            return LAYER[key]
    raise AssertionError(f"{module}: give `{parts[0]}` a layer in tests/test_layers.py")


def _imports(module: str, path: pathlib.Path) -> set[str]:
    """Every jaxlint module this file imports, at any depth of the file."""
    out = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, name] if name else base)
            if name == "jaxlint" or name.startswith("jaxlint."):
                out.add(name)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("jaxlint.")}
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph = {}
    for mod, path in mods.items():
        deps = set()
        for name in _imports(mod, path):
            # `from jaxlint.rules import base` names a module; `from jaxlint.x import f` a module
            while name not in mods and "." in name:
                name = name.rpartition(".")[0]
            if name in mods and name != mod:
                deps.add(name)
        graph[mod] = deps
    return graph


def test_every_module_has_a_layer():
    for mod in _modules():
        _layer(mod)


def test_imports_point_down():
    graph = _graph()
    upward = {
        (mod, dep) for mod, deps in graph.items() for dep in deps if _layer(dep) > _layer(mod)
    }
    new = sorted(upward - ALLOWED)
    assert not new, "imports that point up a layer:\n" + "\n".join(f"{a} -> {b}" for a, b in new)
    gone = sorted(ALLOWED - upward)
    assert not gone, "fixed, so remove from ALLOWED: " + ", ".join(f"{a} -> {b}" for a, b in gone)


def _cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: set[tuple[str, ...]] = set()
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.add(tuple(sorted(comp)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _without_packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Drop edges into a package's own __init__ re-exports: `rules` -> `rules.x` -> `rules`."""
    return {
        m: {d for d in deps if not (m.startswith(d + ".") or d.startswith(m + "."))}
        for m, deps in graph.items()
    }


def test_no_new_import_cycles():
    cycles = _cycles(_without_packages(_graph()))
    new = sorted(cycles - ALLOWED_CYCLES)
    assert not new, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in new)
    gone = sorted(ALLOWED_CYCLES - cycles)
    assert not gone, "cycle gone, so remove it from ALLOWED_CYCLES: " + str(gone)
