"""Idiom templates: the `jaxlint template` command, the templates running under JAX, and lint-clean."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import jaxlint.templates
from jaxlint.core.errors import UsageError
from jaxlint.core.jaxversion import parse_version
from jaxlint.templates import TEMPLATES, get_template
from tests.jaxprocess import run_script

TEMPLATE_DIR = Path(jaxlint.templates.__file__).parent
PY_TEMPLATES = [name for name, t in TEMPLATES.items() if t.filename.endswith(".py")]
# Templates that must also run on a single device (they size their mesh from device_count()).
SHARDED = ["sharding", "shard-map"]
# Optional packages a template needs beyond JAX; the run is skipped when they are missing.
EXTRA_REQUIREMENTS = {"export": "flatbuffers"}  # Exported.serialize() needs flatbuffers
RUN_TIMEOUT_S = 180


# --- the command -------------------------------------------------------------------------


def test_list_names_every_template(run_cli) -> None:
    proc = run_cli.subprocess("template")  # the one real process of this face
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(TEMPLATES)
    for line, template in zip(lines, TEMPLATES.values()):
        assert template.summary in line


def test_list_json(run_cli) -> None:
    proc = run_cli("template", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [entry["name"] for entry in data] == list(TEMPLATES)
    for entry in data:
        template = TEMPLATES[entry["name"]]
        assert entry["filename"] == template.filename
        assert entry["summary"] == template.summary
        assert entry["rules"] == list(template.rules)


def test_print_template_source(run_cli) -> None:
    proc = run_cli("template", "scan")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == get_template("scan")
    assert "jax.lax.scan" in proc.stdout and "def main()" in proc.stdout


def test_out_writes_and_refuses_to_overwrite(tmp_path: Path, run_cli) -> None:
    target = tmp_path / "my_scan.py"
    proc = run_cli("template", "scan", "--out", str(target))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert target.read_text(encoding="utf-8") == get_template("scan")

    target.write_text("# mine\n", encoding="utf-8")
    proc = run_cli("template", "scan", "--out", str(target))
    assert proc.returncode == 2
    assert "exists" in proc.stderr and "--force" in proc.stderr
    assert target.read_text(encoding="utf-8") == "# mine\n"

    proc = run_cli("template", "scan", "--out", str(target), "--force")
    assert proc.returncode == 0, proc.stderr
    assert target.read_text(encoding="utf-8") == get_template("scan")


def test_unknown_name_exits_2_with_the_names(run_cli) -> None:
    proc = run_cli("template", "no-such-template")
    assert proc.returncode == 2
    assert "no-such-template" in proc.stderr
    for name in TEMPLATES:
        assert name in proc.stderr
    assert "Traceback" not in proc.stderr


def test_get_template_unknown_raises_usage_error() -> None:
    with pytest.raises(UsageError, match="training-step"):
        get_template("nope")


def test_templates_module_does_not_import_jax() -> None:
    code = "import sys, jaxlint.templates as t; t.get_template('scan'); print('jax' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


# --- the templates themselves (static) ----------------------------------------------------


def test_every_template_is_package_data() -> None:
    for name, template in TEMPLATES.items():
        assert (TEMPLATE_DIR / template.filename).is_file(), name
        assert get_template(name).strip(), name
        assert all(code.startswith("JAX") and len(code) == 6 for code in template.rules), name


@pytest.mark.parametrize("name", PY_TEMPLATES)
def test_python_template_shape(name: str) -> None:
    source = get_template(name)
    tree = ast.parse(source)
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "main" in functions
    assert 'if __name__ == "__main__":\n    main()' in source
    assert ast.get_docstring(tree), "starts with a docstring saying what it shows"
    # Sharp bits the templates must never show (RULES.md), checked textually.
    for banned in (
        "PRNGKey",
        "jax.tree_map",
        "jax.experimental.shard_map",
        "jax.pmap",
        "with mesh:",
        "float64",
        "check_rep",
        "use_mesh",
    ):
        assert banned not in source, f"{name} uses {banned}"


def test_template_rules_come_from_the_rules_and_docs_table_agrees() -> None:
    """`Template.rules` is derived from `Rule.templates` (one source); every template a rule
    names exists, and docs/templates.md's "rules it answers" column shows the same codes."""
    from jaxlint.rules import ALL_RULES

    for rule in ALL_RULES:
        for name in rule.templates:
            assert name in TEMPLATES, (rule.code, name)
            assert rule.code in TEMPLATES[name].rules
    table = (Path(__file__).parent.parent / "docs" / "templates.md").read_text(encoding="utf-8")
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`") and cells[0].strip("`") in TEMPLATES:
            rows[cells[0].strip("`")] = cells[3]
    assert set(rows) == set(TEMPLATES)
    for name, template in TEMPLATES.items():
        assert rows[name] == (", ".join(template.rules) or "–"), name


def test_templates_say_which_jax_they_need() -> None:
    """A template using an API newer than the oldest supported JAX (0.6) declares it."""
    newer = {"jax.set_mesh": "0.7.1", "jax.P(": "0.7", "jax.enable_x64": "0.8", "pcast": "0.8.2"}
    for name in PY_TEMPLATES:
        source = get_template(name)
        needs = TEMPLATES[name].requires_jax
        for api, since in newer.items():
            if api in source:
                assert needs and parse_version(needs) >= parse_version(since), (name, api)
                assert f"Needs JAX >= {needs}" in source, name


# --- the templates run under JAX ------------------------------------------------------------


def _template_env(devices: int) -> dict[str, str]:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    # Let JAX itself catch key reuse and legacy uint32 keys while the templates run.
    env["JAX_DEBUG_KEY_REUSE"] = "true"
    env["JAX_LEGACY_PRNG_KEY"] = "error"
    flags = [f for f in env.get("XLA_FLAGS", "").split() if "device_count" not in f]
    if devices > 1:
        flags.append(f"--xla_force_host_platform_device_count={devices}")
    env["XLA_FLAGS"] = " ".join(flags)
    return env


def _installed_jax() -> tuple[int, ...]:
    from importlib import metadata

    return parse_version(metadata.version("jax"))


def _missing_requirement(name: str) -> str | None:
    module = EXTRA_REQUIREMENTS.get(name)
    if module is not None and importlib.util.find_spec(module) is None:
        return module
    return None


RUNS = [(name, 8) for name in PY_TEMPLATES] + [(name, 1) for name in SHARDED]


def _run_template(run: tuple[str, int], workdir: Path) -> subprocess.CompletedProcess[str]:
    name, devices = run
    path = TEMPLATE_DIR / TEMPLATES[name].filename
    cwd = workdir / f"{name}-{devices}"
    cwd.mkdir()
    # its own process, forked from one that imported JAX (tests/jaxprocess.py); the device
    # count (XLA_FLAGS) is read after the fork
    return run_script(path, cwd=cwd, env=_template_env(devices), timeout=RUN_TIMEOUT_S)


class _TemplateRuns:
    """Runs templates from a thread pool, each in a process of its own.

    Without pytest-xdist every run is submitted up front, so they overlap; under xdist each
    test submits only its own run (the workers already spread the tests).
    """

    def __init__(self, workdir: Path, prefetch: list[tuple[str, int]]) -> None:
        self.workdir = workdir
        workers = max(2, min(len(RUNS), (os.cpu_count() or 2) * 2))
        self.pool = ThreadPoolExecutor(max_workers=workers)
        self.futures = {run: self.pool.submit(_run_template, run, workdir) for run in prefetch}

    def result(self, run: tuple[str, int]) -> subprocess.CompletedProcess[str]:
        if run not in self.futures:
            self.futures[run] = self.pool.submit(_run_template, run, self.workdir)
        return self.futures[run].result()


@pytest.fixture(scope="module")
def template_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_TemplateRuns]:
    pytest.importorskip("jax")
    under_xdist = "PYTEST_XDIST_WORKER" in os.environ
    prefetch = (
        []
        if under_xdist
        else [
            r
            for r in RUNS
            if _missing_requirement(r[0]) is None
            and parse_version(TEMPLATES[r[0]].requires_jax or "0.6") <= _installed_jax()
        ]
    )
    runs = _TemplateRuns(tmp_path_factory.mktemp("template-runs"), prefetch)
    yield runs
    runs.pool.shutdown(wait=True)


@pytest.mark.jax
@pytest.mark.parametrize(("name", "devices"), RUNS, ids=[f"{n}-{d}dev" for n, d in RUNS])
def test_template_runs_on_cpu(
    name: str,
    devices: int,
    template_runs: _TemplateRuns,
) -> None:
    pytest.importorskip("jax")
    missing = _missing_requirement(name)
    if missing is not None:
        pytest.skip(f"template {name!r} needs the {missing!r} package")
    needs = TEMPLATES[name].requires_jax
    if needs and _installed_jax() < parse_version(needs):
        pytest.skip(f"template {name!r} needs JAX >= {needs} (installed: {_installed_jax()})")
    proc = template_runs.result((name, devices))
    assert proc.returncode == 0, (
        f"{name} on {devices} device(s) failed:\n{proc.stdout}\n{proc.stderr}"
    )


# --- the templates are lint-clean -----------------------------------------------------------


def test_templates_pass_jaxlint_check_select_all(run_cli) -> None:
    from jaxlint.cli import _known_commands, build_parser

    if "check" not in _known_commands(build_parser()):
        pytest.skip("`jaxlint check` is not available yet")
    # --preview: ALL without it leaves out the rules in preview (ruff's rule)
    root = Path(__file__).parent.parent
    proc = run_cli("check", "--select", "ALL", "--preview", str(TEMPLATE_DIR), cwd=root)
    assert proc.returncode == 0, f"findings in the templates:\n{proc.stdout}\n{proc.stderr}"
