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

# top-level module or package of jaxlint -> layer (low to high); a sub-package or module listed
# on its own gets its own layer (the longest listed prefix wins), and the package-level checks
# below see through that: a package whose parts sit on both sides of another package is a cycle
LAYER = {
    "__init__": 0,
    "core": 0,
    "analysis": 1,
    "edits": 2,
    "rules": 3,
    "docgen": 4,
    "prefilter": 4,
    "engine": 4,
    # LintOptions and FixResult: what the faces build and read without importing the engine
    "options": 4,
    # the editor's lint of an edited module, by parts (engine.lint_text on masked modules)
    "incremental": 4,
    "files": 5,
    "add_noqa": 5,
    "run": 6,
    "project_index": 6,
    # `jaxlint verify`'s planner (no JAX): findings and their facts -> jobs (schema: verify.jobs)
    "verify": 7,
    "templates": 7,
    "skill": 7,
    # the sandbox side, the one place JAX runs; it reads the planner's job schema
    "runtime": 8,
    # starting the sandbox and reading its results: above the runtime they launch
    "verify.run": 9,
    "verify.report": 9,
    # the library facade (lint, fix, explain, plan a verify); every face calls it
    "api": 10,
    # the faces: the CLI, the language server, MCP, flake8, verify's entry, the pytest plugin
    "integrations": 11,
    "commands": 11,
    "cli": 11,
    "__main__": 11,
    "verify.driver": 11,
    "runtime.toolbox.commands": 11,
    "pytest_plugin": 11,
}

# (importer, imported) pairs that point up today, each with the reason it is still there;
# shrink this table, never grow it
ALLOWED: dict[tuple[str, str], str] = {
    (
        "jaxlint.verify.plan",
        "jaxlint.runtime.capture",
    ): "debt (verify owner, issue 26): the planner reads `main_block_lines` (which lines are "
    "the `__main__` block), a text helper of the capture module; it belongs below both",
    (
        "jaxlint.verify.plan_inputs",
        "jaxlint.runtime.toolbox.inputs",
    ): "debt (verify owner, issue 26): the planner splits `--args` with the toolbox's "
    "`split_items`, a text helper; it belongs below both",
    (
        "jaxlint.verify.plan_entries",
        "jaxlint.runtime.capture_hook",
    ): "debt (verify owner, issue 25): the planner reads `module_wrappers` (which module-level "
    "names are `jax.pmap(f)` / `jax.jit(shard_map(f))`), the capture hook's syntax reading of "
    "the same file; it belongs below both",
}

# module cycles that exist today (as sorted tuples of the modules in the cycle)
ALLOWED_CYCLES: set[tuple[str, ...]] = set()

# cycles between top-level packages (the first name below `jaxlint.`), with the reason each is
# still there. The module layers cannot see these when a package's modules are placed apart.
ALLOWED_PACKAGE_CYCLES: dict[tuple[str, ...], str] = {
    ("runtime", "verify"): "debt (verify owner, issue 26): `verify` holds both the planner, "
    "below the sandbox (runtime/side.py reads verify.jobs), and the launcher and driver above "
    "it (verify/run.py starts runtime.sandbox; verify/driver.py uses runtime.toolbox.common), "
    "plus the two planner imports in ALLOWED; to go, the job schema moves below both (or "
    "the planner becomes its own package) and the two text helpers move down",
}

# -- the faces and the facade (issue 26) -------------------------------------------------------

# each face, as the modules (and packages) it is made of
FACES: dict[str, tuple[str, ...]] = {
    "cli": (
        "jaxlint.cli",
        "jaxlint.commands",
        "jaxlint.__main__",
        "jaxlint.integrations.lsp_command",
        "jaxlint.integrations.mcp_command",
        "jaxlint.runtime.toolbox.commands",
    ),
    "lsp": ("jaxlint.integrations.lsp",),
    "mcp": ("jaxlint.integrations.mcp",),
    "flake8": ("jaxlint.integrations.flake8",),
    "verify": ("jaxlint.verify.driver",),
    "pytest": ("jaxlint.pytest_plugin",),
}

# what a face reaches only through `jaxlint.api`: module -> the names a face may still import
# from it (data types and display helpers, not the work)
BEHIND_THE_FACADE: dict[str, frozenset[str]] = {
    "jaxlint.engine": frozenset(),
    "jaxlint.files.driver": frozenset(),
    "jaxlint.files.notebook": frozenset(),
    "jaxlint.project_index": frozenset(),
    "jaxlint.analysis.project": frozenset(),
    "jaxlint.run.cache": frozenset(),
    "jaxlint.run.parallel": frozenset({"Progress"}),
    "jaxlint.verify.plan": frozenset(
        {"InputOptions", "function_of", "capture_targets", "kinds_for"}
    ),
    "jaxlint.runtime.sandbox": frozenset(),
}

# (face, face it calls) where one face starts another; each with its reason
FACE_CALLS: dict[tuple[str, str], str] = {
    ("cli", "lsp"): "`jaxlint lsp` starts the language server",
    ("cli", "mcp"): "`jaxlint mcp` starts the MCP server",
    ("mcp", "verify"): "the `verify` tool runs `verify_file`, verify's public Python API",
}


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
    new = sorted(upward - set(ALLOWED))
    assert not new, "imports that point up a layer:\n" + "\n".join(f"{a} -> {b}" for a, b in new)
    gone = sorted(set(ALLOWED) - upward)
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


def _package(module: str) -> str:
    """The first name below `jaxlint.`; a face's modules count as that face wherever their
    files are (`verify/driver.py` is verify's face, not part of the planner)."""
    face = _face_of(module)
    return f"face:{face}" if face else (module.split(".")[1:] or ["__init__"])[0]


def _package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for mod, deps in graph.items():
        here = _package(mod)
        out.setdefault(here, set()).update(_package(d) for d in deps if _package(d) != here)
    return out


def test_no_new_package_cycles():
    """Packages as well as modules: `verify` and `runtime` on one layer hid their cycle."""
    cycles = _cycles(_package_graph(_graph()))
    new = sorted(cycles - set(ALLOWED_PACKAGE_CYCLES))
    assert not new, "package cycles:\n" + "\n".join(" <-> ".join(c) for c in new)
    gone = sorted(set(ALLOWED_PACKAGE_CYCLES) - cycles)
    assert not gone, "package cycle gone, so remove it from ALLOWED_PACKAGE_CYCLES: " + str(gone)


def test_package_cycle_check_sees_the_verify_runtime_cycle():
    """The check itself: the edges that make the listed cycle are found (a test that cannot
    see the cycle would pass with any table)."""
    packages = _package_graph(_graph())
    assert "verify" in packages["runtime"] and "runtime" in packages["verify"]


def test_every_exception_says_why():
    for table in (ALLOWED, ALLOWED_PACKAGE_CYCLES, FACE_CALLS):
        for key, reason in table.items():
            assert len(reason.split()) >= 5, f"{key}: say why it is allowed"


def _face_of(module: str) -> str | None:
    for face, parts in FACES.items():
        if any(module == p or module.startswith(p + ".") for p in parts):
            return face
    return None


def _named_imports(path: pathlib.Path, module: str) -> list[tuple[str, str]]:
    """(imported module, name) for every `from jaxlint.X import name` in the file."""
    out = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, name] if name else base)
            if name == "jaxlint" or name.startswith("jaxlint."):
                out.extend((name, a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            out.extend((a.name, "") for a in node.names if a.name.startswith("jaxlint."))
    return out


def _face_violations(mods: dict[str, pathlib.Path]) -> list[str]:
    bad = []
    for mod, path in mods.items():
        face = _face_of(mod)
        if face is None:
            continue
        for target, name in _named_imports(path, mod):
            full = f"{target}.{name}" if name else target
            if full in mods:  # `from jaxlint.files import driver`: the module itself
                target, name = full, ""
            if target in BEHIND_THE_FACADE and name not in BEHIND_THE_FACADE[target]:
                bad.append(f"{mod} -> {full}: behind the facade, call jaxlint.api")
            other = _face_of(target)
            if other is not None and other != face and (face, other) not in FACE_CALLS:
                bad.append(f"{mod} -> {full}: another face ({other}); move it into jaxlint.api")
            if name.startswith("_") and not name.startswith("__") and other != face:
                bad.append(f"{mod} -> {full}: a private name of another module's package")
    return bad


def test_faces_go_through_the_facade():
    """The five faces (and the pytest plugin) reach the engine, the file driver, the runner and
    the project index only through `jaxlint.api`, never call into another face except where
    FACE_CALLS says one starts the other, and import no other face's private names."""
    bad = _face_violations(_modules())
    assert not bad, "\n".join(bad)


def test_every_face_calls_the_facade():
    """Each face that lints imports `jaxlint.api` somewhere (not a face that only starts one)."""
    mods = _modules()
    users = {
        _face_of(mod)
        for mod, path in mods.items()
        if any(
            t == "jaxlint.api" or (t, n) == ("jaxlint", "api") for t, n in _named_imports(path, mod)
        )
    }
    assert {"cli", "lsp", "mcp", "flake8", "verify"} <= users


def test_face_check_sees_what_mcp_used_to_import(tmp_path):
    """The check itself, on a face module that imports what the MCP server did before the
    facade (`commands._rule_rows`) and what it still must not (`engine.lint_text`)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from jaxlint.commands import _rule_rows\nfrom jaxlint.engine import lint_text\n"
        "from jaxlint.integrations.mcp.roots import RootsPolicy\nfrom jaxlint import api\n"
    )
    bad = _face_violations({**_modules(), "jaxlint.integrations.mcp.probe": probe})
    assert bad == [
        "jaxlint.integrations.mcp.probe -> jaxlint.commands._rule_rows: another face (cli); "
        "move it into jaxlint.api",
        "jaxlint.integrations.mcp.probe -> jaxlint.commands._rule_rows: a private name of "
        "another module's package",
        "jaxlint.integrations.mcp.probe -> jaxlint.engine.lint_text: behind the facade, call "
        "jaxlint.api",
    ]
