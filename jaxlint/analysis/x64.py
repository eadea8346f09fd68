"""Is 64-bit mode (`jax_enable_x64`) on where this code runs? Evidence from the module and
from the project around it.

x64 is a process-wide switch that is usually flipped far from the code that needs it: in a
`conftest.py`, the package `__init__`, an application's entry point, or the CI environment
(`JAX_ENABLE_X64=1 pytest`). A module that asks for float64 is only suspicious when nothing
in its project turns x64 on. Evidence, any of which counts:

* in the module: `jax.config.update("jax_enable_x64", ...)` (not False), any mention of
  `jax_enable_x64`/`JAX_ENABLE_X64`, `jax.enable_x64(...)`, `jax_explicit_x64_dtypes="allow"`,
  or flags read from the environment (`jax.config.parse_flags_with_absl()`,
  `config_with_absl`): the environment may enable it;
* in the project (the nearest folder above the file holding `pyproject.toml`, `setup.py`,
  `setup.cfg` or `.git`; without one, the nearest holding `tox.ini` or `pytest.ini`, else the
  folder holding the file's top-level package), for every module: `JAX_ENABLE_X64` set (to anything but 0/false) in `.github/workflows/*.yml`, `tox.ini`,
  `pytest.ini`, `pyproject.toml`, `setup.cfg`, `noxfile.py` or a `Makefile` (the environment
  of every run); a `tox.ini` or `pytest.ini` setting it in a folder below the root counts
  for the files under that folder;
* a `conftest.py` enabling it or reading flags from absl counts for the files under its
  folder and the project modules they import (pytest loads it before it collects them): a
  conftest in `tests/fortran_validation/` does nothing for a module no test there imports;
* in the project, for the modules on its import path only: a Python file enabling it at
  import time (`config.update("jax_enable_x64", True)`, `os.environ["JAX_ENABLE_X64"] =
  "1"`, at module level, `if __name__ == "__main__":` included) counts for the modules it
  imports (directly or through other project modules, package `__init__`s included) and for
  the modules that import it. A sibling script that turns x64 on runs in its own process and
  does nothing for a module it never imports; a test that turns it on for itself
  (`setUpModule`, a test function, a `with jax.enable_x64():` block) does nothing for other
  modules. A test module that turns it on at import counts for the other test modules of its
  pytest run (the same outermost `tests` folder: pytest imports them all while it collects,
  before any test runs; analysis/x64_session.py). Imports are read from the text (`import a.b`, `from a import b`, relative forms),
  never executed;
* the `x64 = true` setting (read by the rule).

The static layer reads other files' text, never imports them. The project scan runs once per
project root and process (`project_enables_x64`); the import closure once per file.

Runtime guards: code that runs only when x64 is on (`if not jax.config.x64_enabled: return`,
`@pytest.mark.skipif(not jax.config.x64_enabled, ...)`, `if jax.config.jax_enable_x64:`) is
fine whatever the project does (`x64_guarded`).
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors
from jaxlint.analysis.text_imports import SKIP_DIRS, import_graph, imports_of, notebook_code
from jaxlint.analysis.x64_session import enables_at_collection, pytest_module, test_root

X64_CONTEXTS = frozenset({"jax.enable_x64", "jax.experimental.enable_x64", "jax.config.enable_x64"})
X64_NAMES = frozenset({"jax_enable_x64", "JAX_ENABLE_X64"})
ABSL_FLAG_READERS = frozenset({"parse_flags_with_absl", "config_with_absl"})
# libraries that turn x64 on when they are imported: NetKet (`NETKET_ENABLE_X64`, default
# True: "Enable (or disable) double precision in NetKet and jax", its configuration options).
# A module that sets that variable itself is left to its own evidence. v18 rows, tuning
# material: netket_foundation, netket_qsl, netket_dynamics (JAX701 x6).
X64_ON_IMPORT = frozenset({"netket"})
_X64_ON_IMPORT_SWITCHES = ("NETKET_ENABLE_X64", "netket_enable_x64")
# Library constructors that create parameters or computations in the dtype they are given:
# qualname prefix -> the keywords that carry it (`nn.Dense(3, param_dtype=jnp.float64)` makes
# float32 parameters, with a UserWarning, when x64 is off).
LIBRARY_DTYPE_KEYWORDS: dict[str, tuple[str, ...]] = {
    "flax.linen.": ("dtype", "param_dtype"),
    "flax.nnx.": ("dtype", "param_dtype"),
    "equinox.nn.": ("dtype",),
}

# Flax layers that call the initializers they are given with their own `param_dtype`
# (`kernel_init(key, shape, self.param_dtype)`, linen and nnx alike): layer qualname -> the
# initializer keywords. An initializer's default dtype (`variance_scaling(..., dtype=
# jnp.float_)`) is then overridden and never requested; a 64-bit `param_dtype` is the layer's
# own request (`LIBRARY_DTYPE_KEYWORDS`). Checked: benchmarks/precision_v6/check_repros/
# B_jax701_float_init.py (alone the initializer warns; in nn.SelfAttention the kernels are
# float32, no warning).
_DENSE = ("kernel_init", "bias_init")
_ATTENTION = ("kernel_init", "bias_init", "out_kernel_init", "out_bias_init")
_NORM = ("scale_init", "bias_init")
_RECURRENT = ("kernel_init", "recurrent_kernel_init", "bias_init")
PARAM_DTYPE_INITIALIZERS: dict[str, tuple[str, ...]] = {
    **{
        f"flax.linen.{layer}": _DENSE
        for layer in ("Dense", "DenseGeneral", "Conv", "ConvTranspose", "ConvLocal", "Einsum")
    },
    **{
        f"flax.linen.{layer}": _ATTENTION
        for layer in ("MultiHeadDotProductAttention", "MultiHeadAttention", "SelfAttention")
    },
    **{
        f"flax.linen.{layer}": _NORM
        for layer in ("LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm", "InstanceNorm")
    },
    **{
        f"flax.linen.{layer}": _RECURRENT
        for layer in ("LSTMCell", "OptimizedLSTMCell", "GRUCell", "SimpleCell", "MGUCell")
    },
    "flax.linen.Embed": ("embedding_init",),
    **{
        f"flax.nnx.{layer}": _DENSE
        for layer in ("Linear", "LinearGeneral", "Conv", "ConvTranspose", "Einsum")
    },
    "flax.nnx.MultiHeadAttention": _ATTENTION,
    **{
        f"flax.nnx.{layer}": _NORM
        for layer in ("LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm", "InstanceNorm")
    },
    "flax.nnx.Embed": ("embedding_init",),
}


def initializer_dtype_overridden(call: ast.AST, qualname: Callable[[ast.AST], str | None]) -> bool:
    """Whether `call` (an initializer factory such as `variance_scaling(...)`) is passed
    straight as an initializer keyword of a flax layer (`PARAM_DTYPE_INITIALIZERS`), which
    calls it with its `param_dtype`: the dtype the factory was given is not what is made.
    `qualname`: the module's import resolution (`ModuleIndex.qualname`)."""
    kw = syntax.parent(call)
    if not isinstance(kw, ast.keyword) or kw.arg is None or kw.value is not call:
        return False
    layer = syntax.parent(kw)
    if not isinstance(layer, ast.Call):
        return False
    return kw.arg in PARAM_DTYPE_INITIALIZERS.get(qualname(layer.func) or "", ())


# what marks a project's root (as the project index's roots, project_index.ROOT_MARKERS). A
# test runner's configuration (`pytest.ini`, `tox.ini`) is not one: it often sits in the test
# folder (catalyst's frontend/test/pytest.ini), and as a root it cut the tests off from the
# package they import, which turns x64 on (v13: 11 JAX701 rows). It is still evidence for
# the files below it (`RUNNER_CONFIGS`); it is the root only where no project marker is above.
ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
RUNNER_CONFIGS = ("tox.ini", "pytest.ini")
CONFIG_FILES = ("tox.ini", "pytest.ini", "pyproject.toml", "setup.cfg", "noxfile.py", "Makefile")
MAX_FILES = 20000  # a project scan stops here (a huge tree: no evidence from the rest)

_FALSE = r"""(?:0|false|False|FALSE|no|off)"""
# `config.update("jax_enable_x64", True)` / `os.environ["JAX_ENABLE_X64"] = "1"` /
# `os.environ.setdefault("JAX_ENABLE_X64", "true")` / `flags.jax_enable_x64 = True`
_PY_ENABLES = re.compile(
    r"""["']jax_enable_x64["']\s*,\s*(?!["']?""" + _FALSE + r"""\b)\S"""
    r"""|["']JAX_ENABLE_X64["']\s*\]?\s*[=,]\s*(?!["']?""" + _FALSE + r"""\b)\S"""
    r"""|\bjax_enable_x64\s*=\s*True\b"""
)
# `JAX_ENABLE_X64=1 pytest`, `JAX_ENABLE_X64: 1`, `env = ["JAX_ENABLE_X64=True"]`,
# `JAX_ENABLE_X64: ${{ matrix.x64 }}` (may be on)
_CONFIG_ENABLES = re.compile(
    r"""JAX_ENABLE_X64["']?\s*[:=]\s*(?!["']?""" + _FALSE + r"""\b)["']?\S"""
)
_ABSL = re.compile(r"\b(?:parse_flags_with_absl|config_with_absl)\b")


def _autouse_x64_fixture(text: str) -> bool:
    """A conftest's autouse fixture runs every test under its folder inside
    `with jax.enable_x64(True):` (or `jax.experimental.enable_x64()`): x64 is on for them
    (v21 rows, tuning material: jax-healpy tests/conftest.py, a session-scoped
    `default_x64` fixture, JAX701). Read from the text's syntax, never imported."""
    if "enable_x64" not in text or "autouse" not in text:
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not any(_autouse(d) for d in fn.decorator_list):
            continue
        for node in ast.walk(fn):
            if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                _enables_x64_context(item.context_expr) for item in node.items
            ):
                return True
    return False


def _autouse(decorator: ast.expr) -> bool:
    """`@pytest.fixture(autouse=True, ...)` (any spelling of the fixture decorator)."""
    return isinstance(decorator, ast.Call) and any(
        k.arg == "autouse" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in decorator.keywords
    )


def _enables_x64_context(expr: ast.expr) -> bool:
    """`jax.enable_x64(True)`, `enable_x64()`, `jax.experimental.enable_x64(True)`."""
    if not isinstance(expr, ast.Call):
        return False
    name = expr.func.attr if isinstance(expr.func, ast.Attribute) else getattr(expr.func, "id", "")
    if name != "enable_x64":
        return False
    arg = expr.args[0] if expr.args else next((k.value for k in expr.keywords), None)
    return arg is None or (isinstance(arg, ast.Constant) and arg.value is True)


@dataclass
class _ProjectX64:
    """What a project scan found: evidence for every module, the files that turn x64 on at
    import time, and the project's import graph (file -> project files it imports)."""

    everywhere: bool = False
    enabling: set[str] = dataclasses.field(default_factory=set)
    # top-level functions that turn x64 on in their body, by file (`def jax_enable_x64():
    # config.update("jax_enable_x64", True)`); the files that call one anywhere (evidence for
    # themselves: the call may run before their float64 code)
    enablers: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    calling: set[str] = dataclasses.field(default_factory=set)
    imports: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    by_name: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    answers: dict[str, bool] = dataclasses.field(default_factory=dict)
    reached: frozenset[str] | None = None  # the files the enabling files import, transitively
    program_reached: frozenset[str] | None = None  # what programs enabling it import
    # pytest modules collected in one session with a test module that turns x64 on at import
    session: set[str] = dataclasses.field(default_factory=set)


_TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$")
_ROOTS: dict[str, str] = {}
_PROJECTS: dict[str, _ProjectX64] = {}
_RUNNER_FOLDERS: dict[str, bool] = {}  # folder -> a runner configuration there enables x64


# -- the module ---------------------------------------------------------------------------------


def module_enables_x64(index: ModuleIndex) -> bool:
    """The module itself turns x64 on, or reads JAX flags from the environment, or imports a
    library that turns it on (`X64_ON_IMPORT`) outside any function."""
    module = index.scopes[index.tree].bindings  # imports that run when the module does
    imported = {b.qualname for found in module.values() for b in found if b.kind == "import"}
    if any((q or "").split(".", 1)[0] in X64_ON_IMPORT for q in imported) and (
        _imports_x64_library(index.tree)
    ):
        return True
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in X64_NAMES:
                call = syntax.parent(node)
                if (
                    isinstance(call, ast.Call)
                    and len(call.args) == 2
                    and call.args[0] is node
                    and isinstance(call.args[1], ast.Constant)
                    and call.args[1].value in (False, 0, "0", "false", "False")
                ):
                    continue  # explicitly disabled
                return True
            if node.value == "jax_explicit_x64_dtypes":
                call = syntax.parent(node)
                if isinstance(call, ast.Call) and any(
                    isinstance(a, ast.Constant) and a.value == "allow" for a in call.args
                ):
                    return True
        elif isinstance(node, ast.Attribute):
            if node.attr in X64_NAMES or node.attr in ABSL_FLAG_READERS:
                return True
        elif isinstance(node, ast.Name) and node.id in ABSL_FLAG_READERS:
            return True
        elif isinstance(node, ast.Call) and index.qualname(node.func) in X64_CONTEXTS:
            return True
    return False


def _imports_x64_library(tree: ast.Module) -> bool:
    """An import of a library of `X64_ON_IMPORT` that runs when the module is imported (not
    inside a function), in a module that does not set the library's switch itself."""
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        else:
            continue
        if not any(isinstance(a, FUNCTION_NODES) for a in ancestors(node)):
            roots.update(n.split(".", 1)[0] for n in names)
    if not roots & X64_ON_IMPORT:
        return False
    return not any(
        (isinstance(n, ast.Constant) and n.value in _X64_ON_IMPORT_SWITCHES)
        or (isinstance(n, ast.Attribute) and n.attr in _X64_ON_IMPORT_SWITCHES)
        for n in ast.walk(tree)
    )


# -- runtime guards -----------------------------------------------------------------------------


def _mentions_x64(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and "x64" in n.id.lower():
            return True
        if isinstance(n, ast.Attribute) and "x64" in n.attr.lower():
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and "x64" in n.value.lower():
            return True
    return False


_SKIPS = ("skipTest", "skip", "skipif", "xfail", "exit")


def _leaves(stmts: list[ast.stmt]) -> bool:
    """The block ends the surrounding code: return/raise/continue/break or a test skip."""
    for stmt in stmts:
        if isinstance(stmt, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
            return True
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _SKIPS:
                return True
    return False


def x64_guarded(node: ast.AST) -> bool:
    """`node` runs only when x64 is on (as far as the code around it says): inside an `if`
    or conditional expression testing x64, after an `if <x64 test>: return/skip` in an
    enclosing block, or in a function/class whose decorators test x64 (`skipif`)."""
    child: ast.AST = node
    for anc in ancestors(node):
        if isinstance(anc, (ast.If, ast.IfExp, ast.While)) and child is not anc.test:
            if _mentions_x64(anc.test):
                return True
        if isinstance(anc, (*FUNCTION_NODES, ast.ClassDef)):
            decorators = getattr(anc, "decorator_list", [])
            if any(_mentions_x64(d) for d in decorators):
                return True
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(anc, field, None)
            if isinstance(stmts, list) and child in stmts:
                for stmt in stmts[: stmts.index(child)]:
                    if isinstance(stmt, ast.If) and _mentions_x64(stmt.test):
                        if _leaves(stmt.body) or _leaves(stmt.orelse):
                            return True
                    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                        if _mentions_x64(stmt.value) and _leaves([stmt]):
                            return True  # `pytest.skip(...)` / `self.skipTest` naming x64
        child = anc
    return False


# -- the project --------------------------------------------------------------------------------


def project_root(path: str) -> str | None:
    """The nearest folder above `path` that holds a project marker (else the nearest holding
    a test runner's configuration); None for a path that is not a file on disk (stdin,
    examples)."""
    if not path or path.startswith("<"):
        return None
    full = os.path.abspath(path)
    if not os.path.isfile(full):
        return None
    folder = os.path.dirname(full)
    if folder in _ROOTS:
        return _ROOTS[folder]
    seen = []
    cur = folder
    root = None
    runner = None  # the nearest folder with a runner configuration, for a project without markers
    while True:
        if cur in _ROOTS:
            root = _ROOTS[cur]
            break
        seen.append(cur)
        if any(os.path.exists(os.path.join(cur, m)) for m in ROOT_MARKERS):
            root = cur
            break
        if runner is None and any(os.path.exists(os.path.join(cur, m)) for m in RUNNER_CONFIGS):
            runner = cur
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    if root is None and runner is not None:
        root = runner
        seen = [f for f in seen if f == root or f.startswith(root + os.sep)]
    if root is None:
        # no marker anywhere above: the folder holding the file's top-level package
        root = folder
        while os.path.isfile(os.path.join(root, "__init__.py")):
            parent = os.path.dirname(root)
            if parent == root:
                break
            root = parent
        seen = [f for f in seen if f == root or f.startswith(root + os.sep)]
    for f in seen:
        _ROOTS[f] = root
    return root


def _runner_config_enables(folder: str, root: str) -> bool:
    """A test runner's configuration in a folder between the file and the project root
    (`frontend/test/pytest.ini` with `env = JAX_ENABLE_X64=1`): the environment of the runs
    under it (the root's own is read by the project scan)."""
    cur = folder
    while cur != root and cur.startswith(root + os.sep):
        known = _RUNNER_FOLDERS.get(cur)
        if known is None:
            known = False
            for name in RUNNER_CONFIGS:
                text = _read(os.path.join(cur, name))
                if "JAX_ENABLE_X64" in text and _CONFIG_ENABLES.search(text):
                    known = True
                    break
            _RUNNER_FOLDERS[cur] = known
        if known:
            return True
        cur = os.path.dirname(cur)
    return False


def project_enables_x64(path: str, lacks: Callable[[str], bool] | None = None) -> bool:
    """Evidence in the project around `path` that x64 is on where this module runs: project
    configuration (every module), or a file on the module's import path (the module itself
    included) that turns it on at import time (a conftest: for the files below it and what
    they import); the scan is cached per root and process.

    `lacks(path)`: True when the file's bytes hold neither `jax_enable_x64` nor
    `JAX_ENABLE_X64` (the run's digests, `run.cache.Digests`, know it from the file's stat
    once they have read it): the scan reads such a file's text (it turns nothing on) only
    when the import graph needs it. It changes what the scan reads, never what it finds."""
    found = _project_of(path, lacks)
    if found is None:
        return False
    root, project = found
    if project.everywhere:
        return True
    full = os.path.abspath(path)
    if full in project.calling or full in project.enabling:  # v32 ntk-backdoor, JAX701
        return True
    if full in project.session:  # v37 wakesim tests/test_hybrid_misc.py, JAX701
        return True
    if _runner_config_enables(os.path.dirname(full), root):
        return True
    answer = project.answers.get(full)
    if answer is None:
        answer = project.answers[full] = _on_import_path(project, full, root)
    return answer


def _project_of(path: str, lacks: Callable[[str], bool] | None) -> tuple[str, _ProjectX64] | None:
    """The project root around `path` and its scan (made once per root and process)."""
    root = project_root(path)
    if root is None:
        return None
    project = _PROJECTS.get(root)
    if project is None:
        project = _PROJECTS[root] = _scan_project(root, lacks)
    return root, project


def program_enables_x64(path: str, lacks: Callable[[str], bool] | None = None) -> bool:
    """A file that is not a test turns x64 on inside a function (`main()` calling an enabler
    such as `setup_jax_environment()`) and imports `path`, directly or through project files:
    the functions of `path` it then calls may see x64 on (evidence for code inside functions
    only: module-level code runs at import, before the call). v26 rows, tuning material:
    danmackinlay/lambda_hat, whose only entry point enables x64 in `main`, JAX701."""
    found = _project_of(path, lacks)
    if found is None or not found[1].calling:
        return False
    root, project = found
    if project.program_reached is None:
        programs = {p for p in project.calling if not _test_file(p, root)}
        project.program_reached = _closure(project, programs) if programs else frozenset()
    return os.path.abspath(path) in project.program_reached


def _test_file(path: str, root: str) -> bool:
    """`test_*.py`, `*_test.py`, a `conftest.py`, or a file under a `tests`/`test` folder."""
    return bool(_TEST_PATH.search(os.path.relpath(path, root).replace(os.sep, "/")))


def _on_import_path(project: _ProjectX64, path: str, root: str) -> bool:
    """An enabling file imports `path` (through any chain of project imports), or `path`
    imports one."""
    if not project.enabling:
        return False
    if path not in project.imports:
        # a notebook or a file the scan did not index: read its own imports now
        text = _read(path)
        if path.endswith(".ipynb"):
            text = notebook_code(text)
        project.imports[path] = imports_of(root, path, text, project.by_name)
    if project.reached is None:
        # what the enabling files import, once per project (a root conftest reaches it all)
        project.reached = _closure(project, project.enabling)
    if path in project.reached:
        return True
    return _reaches(project, {path}, project.enabling)


def _closure(project: _ProjectX64, start: set[str]) -> frozenset[str]:
    seen = set(start)
    todo = list(start)
    while todo:
        for nxt in project.imports.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(seen - start)


def _reaches(project: _ProjectX64, start: set[str], goal: set[str]) -> bool:
    seen = set(start)
    todo = list(start)
    while todo:
        cur = todo.pop()
        if cur in goal and cur not in start:
            return True
        for nxt in project.imports.get(cur, ()):
            if nxt in goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(2_000_000)
    except OSError:
        return ""


def _scan_project(root: str, lacks: Callable[[str], bool] | None = None) -> _ProjectX64:
    project = _ProjectX64()
    for name in CONFIG_FILES:
        text = _read(os.path.join(root, name))
        if "JAX_ENABLE_X64" in text and _CONFIG_ENABLES.search(text):
            project.everywhere = True
            return project
        if "jax_enable_x64" in text and _PY_ENABLES.search(text):
            project.everywhere = True
            return project
    workflows = os.path.join(root, ".github", "workflows")
    if os.path.isdir(workflows):
        for name in sorted(os.listdir(workflows)):
            if name.endswith((".yml", ".yaml")):
                text = _read(os.path.join(workflows, name))
                if "JAX_ENABLE_X64" in text and _CONFIG_ENABLES.search(text):
                    project.everywhere = True
                    return project
    count = 0
    collected: list[str] = []  # pytest modules that turn x64 on when pytest imports them
    conftests: list[str] = []  # enabling conftest.py files
    importing: list[str] = []  # the other conftest.py files: enabling if what they import is
    every: list[str] = []  # every .py file scanned (a conftest's folder covers those below)
    texts: dict[str, str] = {}
    unread: list[str] = []  # files known to name neither spelling: read for the graph only
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        for name in files:
            if not name.endswith(".py"):
                continue
            count += 1
            if count > MAX_FILES:
                return project
            path = os.path.join(folder, name)
            every.append(path)
            if lacks is not None and name != "conftest.py" and lacks(path):
                unread.append(path)
                continue
            text = _read(path)
            enables = ("jax_enable_x64" in text or "JAX_ENABLE_X64" in text) and bool(
                _PY_ENABLES.search(text)
            )
            if name == "conftest.py" and (
                enables or _ABSL.search(text) or _autouse_x64_fixture(text)
            ):
                # pytest loads it before the files under its folder: an enabling file that
                # "imports" each of them (below), so what they import is on its path too
                project.enabling.add(path)
                conftests.append(path)
                texts[path] = text
                continue
            if name == "conftest.py":
                importing.append(path)
            if enables:
                at_import, names, collected_with = _enabling_sites(text, pytest_module(name))
                if at_import:
                    project.enabling.add(path)
                    if collected_with:
                        collected.append(path)
                elif names:
                    project.enablers[path] = names
            if "import" in text or path in project.enablers:
                texts[path] = text
    if project.enabling or project.enablers:
        for path in unread:
            text = _read(path)
            if "import" in text:
                texts[path] = text
        project.imports, project.by_name = import_graph(root, texts)
        for conftest in importing:
            # `from . import common` where common.py turns x64 on at import: pytest loads the
            # conftest, so the module, before any test under its folder (v42 softjax
            # tests/conftest.py, JAX701 x20 in tests/test_transforms.py, read false)
            if _closure(project, {conftest}) & project.enabling:
                project.enabling.add(conftest)
                conftests.append(conftest)
        for conftest in conftests:
            below = os.path.dirname(conftest) + os.sep
            project.imports.setdefault(conftest, set()).update(
                p for p in every if p.startswith(below) and p != conftest
            )
    if project.enablers:
        _find_enabler_calls(project, texts)
    for path in collected:
        # pytest imports every test module of a run while it collects, before any test runs:
        # a test module that turns x64 on at import turns it on for the tests of the others
        # (wakesim's CI runs `pytest` once over tests/). A test that turns it on for itself
        # (`setUpModule`, a `with jax.enable_x64():` block) is not at import: not here.
        top = test_root(path, root) + os.sep
        project.session.update(
            p for p in every if p.startswith(top) and pytest_module(os.path.basename(p))
        )
    return project


def _parse_quietly(text: str) -> ast.Module:
    """`ast.parse` of another file's text, without printing its SyntaxWarnings (an invalid
    escape in a file the scan reads is not this run's business)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        return ast.parse(text)


def _find_enabler_calls(project: _ProjectX64, texts: dict[str, str]) -> None:
    """Files that call an enabler function of their own or of a project file they import: at
    module level they turn x64 on at import time (`slimpletic/__init__.py`: `from .helpers
    import jax_enable_x64; jax_enable_x64()`); inside a function they are evidence for
    themselves (the call runs before the code after it)."""
    for path, text in texts.items():
        names = {
            name
            for source in (project.imports.get(path, set()) | {path}) & project.enablers.keys()
            for name in project.enablers[source]
        }
        if not names or not any(name in text for name in names):
            continue  # no enabler named here: nothing to parse
        try:
            tree = _parse_quietly(text)
        except (SyntaxError, ValueError):
            continue
        for call, in_function in _calls(tree):
            func = call.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in names:
                continue
            if in_function:
                project.calling.add(path)
            else:
                project.enabling.add(path)
                break


def _calls(tree: ast.Module) -> list[tuple[ast.Call, bool]]:
    """Every call of the module, and whether it is inside a function (runs when called, not
    when the module is imported)."""
    out: list[tuple[ast.Call, bool]] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        if isinstance(node, ast.Call):
            out.append((node, inside))
        deeper = inside or isinstance(node, FUNCTION_NODES)
        stack.extend((child, deeper) for child in ast.iter_child_nodes(node))
    return out


def _enabling_sites(text: str, test_module: bool = False) -> tuple[bool, set[str], bool]:
    """Where the file turns x64 on (one parse): at import or run time, outside every def
    (not only in a test's `setUpModule` or a helper), the top-level functions whose body
    does (an enable helper, a data loader that sets the flag before building its arrays),
    and, for a pytest module (`test_module`), whether it does when pytest imports it
    (`x64_session.enables_at_collection`). Unparsable text counts as enabling at import."""
    try:
        tree = _parse_quietly(text)
    except (SyntaxError, ValueError):
        return True, set(), False
    at_collection = test_module and enables_at_collection(tree, text, _PY_ENABLES)
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    lines = [
        next(i for i, start in enumerate(starts) if start > m.start())
        for m in _PY_ENABLES.finditer(text)
    ]
    inside = [
        (n.lineno, n.end_lineno or n.lineno)
        for n in ast.walk(tree)
        if isinstance(n, FUNCTION_NODES)
    ]
    at_import = any(not any(a <= line <= b for a, b in inside) for line in lines)
    at_import = at_import or _imports_x64_library(tree)  # `import netket` (X64_ON_IMPORT)
    # the source lines each top-level def spans (which def's text holds a match: containment
    # in the text, as `inside` above, not program order)
    spans = [
        (stmt.name, stmt.lineno, stmt.end_lineno or stmt.lineno)
        for stmt in tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    names = {name for name, a, b in spans if any(a <= line <= b for line in lines)}
    return at_import, names, at_collection


def clear_cache() -> None:
    """Forget the project answers (tests that build projects in temporary folders)."""
    _ROOTS.clear()
    _PROJECTS.clear()
    _RUNNER_FOLDERS.clear()
