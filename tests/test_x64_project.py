"""JAX701 reads x64 evidence from the project around a file (issue 13, "x64 at project level").

Each test builds a small project in a temporary folder: x64 turned on by a conftest, the
package `__init__`, CI, tox or pytest configuration silences the rule in every module of the
project; nothing (or an explicit `JAX_ENABLE_X64=0`) leaves it on. The static layer reads
those files' text; it never imports them.
"""

from __future__ import annotations

import pathlib

import pytest

from jaxlint.analysis import x64
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions
from jaxlint.files.driver import lint_file

MODULE = (
    "import jax.numpy as jnp\n\na = jnp.zeros(3, dtype=jnp.float64)\nb = jnp.ones(2, 'int64')\n"
)


@pytest.fixture(autouse=True)
def _fresh_cache():
    x64.clear_cache()
    yield
    x64.clear_cache()


def _project(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text) if not path.exists() else path.write_text(path.read_text() + text)
    module = tmp_path / "pkg" / "physics.py"
    module.parent.mkdir(parents=True, exist_ok=True)
    module.write_text(MODULE)
    return module


# a conftest fixture that runs every test inside `with jax.enable_x64(...)` (v21 rows:
# jax-healpy); a fixture that is not autouse runs only for the tests that request it
AUTOUSE_X64 = """import pytest


@pytest.fixture(scope="session", autouse={autouse})
def default_x64():
    import jax

    with jax.enable_x64({arg}):
        yield
"""


def _codes(path: pathlib.Path) -> list[str]:
    options = LintOptions(settings=Settings(), codes=frozenset({"JAX701"}))
    return [d.code for d in lint_file(str(path), options)]


def test_nothing_enables_x64_one_finding_per_module(tmp_path):
    module = _project(tmp_path, {})
    diags = lint_file(str(module), LintOptions(settings=Settings(), codes=frozenset({"JAX701"})))
    assert [d.code for d in diags] == ["JAX701"]
    assert "1 more 64-bit request in this module" in diags[0].message


@pytest.mark.parametrize(
    "files",
    [
        {
            "tests/conftest.py": 'import jax\njax.config.update("jax_enable_x64", True)\n',
            "tests/test_physics.py": "from pkg import physics\n",
        },
        {"pkg/__init__.py": "from jax import config\nconfig.update('jax_enable_x64', 1)\n"},
        {"run.py": 'import os\nos.environ["JAX_ENABLE_X64"] = "1"\nfrom pkg import physics\n'},
        {
            "pkg/run.py": 'import jax\njax.config.update("jax_enable_x64", True)\nfrom . import physics\n'
        },
        {
            "main.py": 'import jax\nif __name__ == "__main__":\n    jax.config.update("jax_enable_x64", True)\n    import pkg.api\n',
            "pkg/api.py": "from pkg.physics import a\n",
        },
        {
            "tests/conftest.py": "import jax\njax.config.parse_flags_with_absl()\n",
            "tests/test_physics.py": "import pkg.physics\n",
        },
        {"conftest.py": 'import jax\njax.config.update("jax_enable_x64", True)\n'},
        {"conftest.py": AUTOUSE_X64.format(arg="True", autouse="True")},
        {
            ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: JAX_ENABLE_X64=1 pytest\n"
        },
        {".github/workflows/ci.yaml": "env:\n  JAX_ENABLE_X64: ${{ matrix.x64 }}\n"},
        {"tox.ini": "[testenv]\nsetenv =\n    JAX_ENABLE_X64 = True\n"},
        {"pyproject.toml": '[tool.pytest.ini_options]\nenv = ["JAX_ENABLE_X64=1"]\n'},
        {"setup.cfg": "[tool:pytest]\nenv =\n    JAX_ENABLE_X64=true\n"},
        {
            # v42 softjax: the conftest imports a module that turns x64 on at import
            "pkg/conftest.py": "from . import common\n",
            "pkg/common.py": 'import jax\njax.config.update("jax_enable_x64", True)\n',
        },
    ],
    ids=[
        "conftest",
        "package-init",
        "environ-importer",
        "relative-importer",
        "entry-point-through-a-module",
        "absl",
        "root-conftest",
        "autouse-fixture",
        "ci-run",
        "ci-matrix",
        "tox",
        "pyproject",
        "setup-cfg",
        "conftest-imports-an-enabler",
    ],
)
def test_project_evidence_silences(tmp_path, files):
    assert _codes(_project(tmp_path, files)) == []


@pytest.mark.parametrize(
    "files",
    [
        {".github/workflows/ci.yml": "env:\n  JAX_ENABLE_X64: 0\n"},
        {"tox.ini": "[testenv]\nsetenv = JAX_ENABLE_X64=false\n"},
        {"tests/conftest.py": 'import jax\njax.config.update("jax_enable_x64", False)\n'},
        {"notes/readme.md": 'jax.config.update("jax_enable_x64", True)\n'},
        {"conftest.py": AUTOUSE_X64.format(arg="False", autouse="True")},
        {"conftest.py": AUTOUSE_X64.format(arg="True", autouse="False")},
        {
            # a conftest of another folder, importing an enabling module: not this module's
            "tests/conftest.py": "from . import common\n",
            "tests/common.py": 'import jax\njax.config.update("jax_enable_x64", True)\n',
        },
        {
            "pkg/conftest.py": "from . import common\n",
            "pkg/common.py": "import jax\n",  # imports JAX, enables nothing
        },
    ],
    ids=[
        "ci-off",
        "tox-off",
        "conftest-off",
        "not-python",
        "fixture-off",
        "not-autouse",
        "other-folders-conftest",
        "conftest-imports-no-enabler",
    ],
)
def test_disabled_or_foreign_evidence_does_not(tmp_path, files):
    assert _codes(_project(tmp_path, files)) == ["JAX701"]


def test_project_scan_runs_once_per_root(tmp_path, monkeypatch):
    module = _project(tmp_path, {"tests/conftest.py": "import jax\n"})
    other = module.parent / "other.py"
    other.write_text(MODULE)
    calls = []
    real = x64._scan_project
    monkeypatch.setattr(
        x64, "_scan_project", lambda root, *more: calls.append(root) or real(root, *more)
    )
    assert _codes(module) == ["JAX701"]
    assert _codes(other) == ["JAX701"]
    assert calls == [str(tmp_path)]


def test_stdin_and_missing_paths_have_no_project(tmp_path):
    assert x64.project_root("<stdin>") is None
    assert x64.project_root(str(tmp_path / "missing.py")) is None


def test_without_markers_the_top_package_folder_is_the_project(tmp_path):
    repo = tmp_path / "repo"
    (repo / "models" / "layers").mkdir(parents=True)
    (repo / "models" / "__init__.py").write_text("")
    (repo / "models" / "layers" / "__init__.py").write_text("")
    module = repo / "models" / "layers" / "dense.py"
    module.write_text(MODULE)
    (repo / "main.py").write_text(
        'import jax\njax.config.update("jax_enable_x64", True)\nfrom models.layers import dense\n'
    )
    assert x64.project_root(str(module)) == str(repo)
    assert _codes(module) == []


def test_a_notebook_importing_an_enabling_module_is_silenced(tmp_path):
    import json

    _project(tmp_path, {})
    (tmp_path / "pkg" / "precision.py").write_text(
        'import jax\njax.config.update("jax_enable_x64", True)\n'
    )
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    nb = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    nb["cells"] = [dict(cell, source=["from pkg import precision\n", MODULE])]
    path = tmp_path / "demo.ipynb"
    path.write_text(json.dumps(nb))
    assert x64.project_enables_x64(str(path))
    nb["cells"] = [dict(cell, source=[MODULE])]
    other = tmp_path / "other.ipynb"
    other.write_text(json.dumps(nb))
    assert not x64.project_enables_x64(str(other))


def test_a_module_importing_an_enabling_module_is_silenced(tmp_path):
    module = _project(tmp_path, {})
    (tmp_path / "pkg" / "precision.py").write_text(
        'import jax\njax.config.update("jax_enable_x64", True)\n'
    )
    module.write_text("from pkg import precision\n" + MODULE)
    assert _codes(module) == []


@pytest.mark.parametrize(
    "files",
    [
        {"run.py": 'import jax\njax.config.update("jax_enable_x64", True)\nimport numpy\n'},
        {"scripts/other.py": 'import os\nos.environ["JAX_ENABLE_X64"] = "1"\n'},
        {
            "tests/test_physics.py": (
                "import jax\nfrom pkg import physics\n\n"
                "def setUpModule():\n    jax.config.update('jax_enable_x64', True)\n"
            )
        },
        {
            "tests/test_other.py": (
                "import jax\nfrom pkg import physics\n\n"
                "def test_f():\n    with jax.enable_x64(True):\n        pass\n"
            )
        },
    ],
    ids=["sibling-script", "unrelated-environ", "setUpModule", "enable-x64-block"],
)
def test_evidence_off_the_import_path_does_not_count(tmp_path, files):
    """Issue 24: a sibling script (its own process) or a test turning x64 on for itself does
    not enable it for a module; only a file on the module's import or entry path does."""
    module = _project(tmp_path, {})
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert _codes(module) == ["JAX701"]


def test_noqa_lines_are_acknowledged_not_counted():
    from jaxlint.engine import lint_text

    text = (
        "import jax.numpy as jnp\n"
        "a = jnp.zeros(3, dtype=jnp.float64)  # noqa: JAX701\n"
        "b = jnp.ones(2, dtype=jnp.int64)\n"
        "c = jnp.ones(2, dtype=jnp.int64)\n"
    )
    diags = lint_text(text, "m.py", LintOptions(settings=Settings(), codes=frozenset({"JAX701"})))
    assert [(d.line, d.code) for d in diags] == [(3, "JAX701")]
    assert "(1 more 64-bit request in this module)" in diags[0].message


def test_result_cache_sees_a_project_that_turns_x64_on(tmp_path):
    import os
    import subprocess
    import sys

    module = _project(tmp_path, {})
    root = pathlib.Path(__file__).parents[1]
    env = dict(os.environ, PYTHONPATH=str(root))
    cmd = [sys.executable, "-m", "jaxlint", "check", "--preview", "--select", "JAX701"]
    cmd += ["--exit-zero"]
    cmd += ["--cache-dir", str(tmp_path / "cache"), str(module)]

    def run() -> str:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path).stdout

    assert "JAX701" in run()
    assert "JAX701" in run()  # from the cache
    (tmp_path / "conftest.py").write_text('import jax\njax.config.update("jax_enable_x64", True)\n')
    assert "JAX701" not in run()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_scan_that_skips_files_known_to_name_neither_spelling_finds_the_same(tmp_path, enabled):
    """`lacks` (the run's digests: the bytes hold neither `jax_enable_x64` nor
    `JAX_ENABLE_X64`) spares the scan reading those files; the import graph, when a file
    turns x64 on, still reads them, so the answer is the scan's without it."""
    from jaxlint.run import cache as result_cache

    files = {"pkg/api.py": "from pkg.physics import a\n", "pkg/util.py": "import os\n"}
    if enabled:  # turns x64 on and imports physics through pkg.api
        files["main.py"] = 'import jax\njax.config.update("jax_enable_x64", True)\nimport pkg.api\n'
    module = _project(tmp_path, files)
    digests = result_cache.Cache(str(tmp_path / ".c")).digests
    asked: list[str] = []

    def lacks(path: str) -> bool:
        asked.append(path)
        return digests.lacks_x64(path)

    assert x64.project_enables_x64(str(module), lacks) is enabled
    assert str(tmp_path / "pkg" / "util.py") in asked
    x64.clear_cache()
    assert x64.project_enables_x64(str(module)) is enabled


@pytest.mark.parametrize("tests", ["", "from pkg import other\n"], ids=["no-import", "other"])
def test_a_conftest_counts_for_its_folder_and_what_the_tests_there_import(tmp_path, tests):
    """v11 clm-ml-jax (tests/fortran_validation/conftest.py turns x64 on): pytest loads a
    conftest before the files under its folder, so they and the project modules they import
    run with x64; a module no test there imports (imported by nothing at all, in clm-ml-jax)
    does not. The test files themselves are covered, wherever they sit below it."""
    module = _project(
        tmp_path,
        {
            "tests/validation/conftest.py": 'import jax\njax.config.update("jax_enable_x64", True)\n',
            "tests/validation/deep/test_golden.py": tests + MODULE,
            "tests/unit/test_plain.py": MODULE,
            "pkg/other.py": MODULE,
        },
    )
    assert _codes(module) == ["JAX701"]
    assert _codes(tmp_path / "tests" / "validation" / "deep" / "test_golden.py") == []
    assert _codes(tmp_path / "tests" / "unit" / "test_plain.py") == ["JAX701"]
    assert _codes(tmp_path / "pkg" / "other.py") == ([] if tests else ["JAX701"])


@pytest.mark.parametrize(
    ("head", "enabled"),
    [
        ("import netket as nk\n", True),
        ("from netket.utils import struct\n", True),
        # imported only when a function runs: not evidence for the module
        ("def f():\n    import netket\n", False),
        # the module sets NetKet's switch itself: left to that evidence
        ("import os\nos.environ['NETKET_ENABLE_X64'] = '0'\nimport netket\n", False),
        ("import netket_foundation\n", False),
    ],
)
def test_importing_netket_turns_x64_on(head: str, enabled: bool) -> None:
    """NetKet turns x64 on at import (`NETKET_ENABLE_X64` defaults to True; v18 rows, tuning
    material: netket_qsl, netket_dynamics, netket_foundation's notebook, JAX701):
    `x64.X64_ON_IMPORT`."""
    import ast

    from jaxlint.analysis.imports import ModuleIndex

    assert x64.module_enables_x64(ModuleIndex(ast.parse(head + MODULE))) is enabled


# a program that turns x64 on inside a function before it calls the code it imports (v26
# rows, danmackinlay/lambda_hat): evidence for that code inside functions only
FUNCTION_MODULE = (
    "import jax.numpy as jnp\n\n\ndef build():\n    return jnp.zeros(3, dtype=jnp.float64)\n"
)
SETUP = "import jax\n\n\ndef setup():\n    jax.config.update('jax_enable_x64', True)\n\n\n"


@pytest.mark.parametrize(
    "where,body,silenced",
    [
        # the entry point's main calls the enabler, then the imported code
        (
            "pkg/main.py",
            SETUP + "from pkg import physics\n\n\ndef main():\n    setup()\n    physics.build()\n",
            True,
        ),
        # the enabler is never called: nothing turns x64 on
        (
            "pkg/main.py",
            SETUP + "from pkg import physics\n\n\ndef main():\n    physics.build()\n",
            False,
        ),
        # a test that turns it on for itself does nothing for the module elsewhere
        (
            "tests/check_physics.py",
            SETUP
            + "from pkg import physics\n\n\ndef test_build():\n    setup()\n    physics.build()\n",
            False,
        ),
        # a program that does not import the module
        ("pkg/other.py", SETUP + "def main():\n    setup()\n", False),
    ],
)
def test_a_program_enabling_x64_in_a_function_counts_for_functions_it_imports(
    tmp_path, where, body, silenced
):
    module = _project(tmp_path, {where: body})
    module.write_text(FUNCTION_MODULE)
    assert _codes(module) == ([] if silenced else ["JAX701"])


def test_a_program_enabling_x64_in_a_function_does_not_cover_module_level_code(tmp_path):
    body = SETUP + "from pkg import physics\n\n\ndef main():\n    setup()\n    physics.build()\n"
    module = _project(tmp_path, {"pkg/main.py": body})
    module.write_text(FUNCTION_MODULE + "\nOFFSET = jnp.ones(2, dtype=jnp.float64)\n")
    assert _codes(module) == ["JAX701"]  # OFFSET runs at import, before main() calls setup()


@pytest.mark.parametrize(
    ("enabler", "covered"),
    [
        ('import jax\njax.config.update("jax_enable_x64", True)\n', True),
        # pytest never runs a main block, and a test that turns x64 on for itself is not at
        # import (issue 24): neither counts for the other test modules
        (
            'import jax\nif __name__ == "__main__":\n    jax.config.update("jax_enable_x64", True)\n',
            False,
        ),
        (
            "import jax\n\ndef setUpModule():\n    jax.config.update('jax_enable_x64', True)\n",
            False,
        ),
    ],
    ids=["at-import", "main-block", "setUpModule"],
)
def test_a_test_module_enabling_x64_at_import_covers_the_tests_of_its_run(
    tmp_path, enabler, covered
):
    """v37 rows, tuning material: wakesim's tests/test_frames.py and tests/test_gb.py turn x64
    on at import, and CI runs `pytest` once over tests/: pytest imports every test module
    while it collects, before any test runs, so tests/test_hybrid_misc.py's tests run with x64
    (JAX701 was a false positive there). Test modules under the same `tests` folder are
    covered, nested ones too; a module outside it and the library the tests import are not
    (the library runs without x64 for its users)."""
    module = _project(
        tmp_path,
        {
            "tests/test_frames.py": enabler,
            "tests/test_hybrid_misc.py": MODULE,
            "tests/sub/test_deep.py": MODULE,
            "tests/helpers.py": MODULE,
            "benchmarks/test_speed.py": MODULE,
        },
    )
    expected = [] if covered else ["JAX701"]
    assert _codes(tmp_path / "tests" / "test_hybrid_misc.py") == expected
    assert _codes(tmp_path / "tests" / "sub" / "test_deep.py") == expected
    assert _codes(tmp_path / "tests" / "helpers.py") == ["JAX701"]  # not a test module
    assert _codes(tmp_path / "benchmarks" / "test_speed.py") == ["JAX701"]  # another run
    assert _codes(module) == ["JAX701"]
