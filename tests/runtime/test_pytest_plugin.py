"""`pytest --jaxlint-runtime` end to end, in subprocesses (the plugin changes JAX's global config).

One run of tests/runtime/runtime_project covers every default event (key reuse through a dict,
a shape that grows per call, a static argument that changes per call, a jitted lambda built per
element, a tracer stored in a global) and
the clean and `jaxlint_allow`-ed tests; the lines marked `# expect: CODE` in the project are where
each event must be reported. Another run checks the plugin stays inert (no JAX) without the flag.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from jaxlint.pytest_plugin import CHECKS_DEFAULT, parse_checks

PROJECT = os.path.join(os.path.dirname(__file__), "runtime_project")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_pytest(cwd: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, env.get("PYTHONPATH", "")]))
    env.setdefault("JAX_PLATFORMS", "cpu")
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "jaxlint.pytest_plugin", "-p", "no:cacheprovider"]
        + ["-p", "no:randomly", "-q", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_checks_option_values() -> None:
    assert parse_checks("default") == CHECKS_DEFAULT
    assert parse_checks("nans") == (*CHECKS_DEFAULT, "nans")  # opt-in adds to the default set
    assert parse_checks("keys,leaks") == ("keys", "leaks")
    assert parse_checks("all")[-3:] == ("transfers", "nans", "strict-leaks")
    with pytest.raises(ValueError, match="unknown"):
        parse_checks("keys,typo")


def test_without_the_flag_the_plugin_imports_nothing_heavy(tmp_path) -> None:
    (tmp_path / "test_probe.py").write_text(
        "import sys\n\n\n"
        "def test_probe():\n"
        "    heavy = [m for m in ('jax', 'jaxlint.runtime.pytest_runtime', 'libcst',\n"
        "                         'jaxlint.rules') if m in sys.modules]\n"
        "    assert heavy == []\n"
        "    assert 'jaxlint.pytest_plugin' in sys.modules\n",
        encoding="utf-8",
    )
    result = run_pytest(str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "jaxlint runtime" not in result.stdout


def expected_events() -> set[tuple[str, str, int]]:
    out = set()
    for name in os.listdir(PROJECT):
        if name.endswith(".py"):
            with open(os.path.join(PROJECT, name), encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    match = re.search(r"# expect: (\w+)", line)
                    if match:
                        out.add((match.group(1), name, number))
    return out


@pytest.mark.jax
def test_runtime_project_reports_each_sharp_bit_at_its_test_and_line(tmp_path) -> None:
    pytest.importorskip("jax")
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("__pycache__"))
    report = tmp_path / "events.json"
    result = run_pytest(str(project), "--jaxlint-runtime", "--jaxlint-runtime-json", str(report))
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    events = json.loads(report.read_text(encoding="utf-8"))
    got = {(e["code"], e["path"], e["line"]) for e in events}
    assert got == expected_events(), output
    tests = {e["code"]: e["test"] for e in events}
    assert tests == {
        "JAX201": "check_sharp.py::test_key_reuse_through_dict",
        "JAX404": "check_sharp.py::test_shape_grows_per_call",
        "JAX401": "check_sharp.py::test_jitted_lambda_in_loop",
        "JAX502": "check_sharp.py::test_tracer_stored_in_global",
        "JAX403": "check_sharp.py::test_static_argument_varies",
    }
    for event in events:
        assert set(event) == {"code", "path", "line", "test", "message", "evidence"}
    # exactly these five tests fail, each with the jaxlint message rather than a JAX traceback
    failed = set(re.findall(r"^FAILED (\S+)", result.stdout, re.M))
    assert failed == set(tests.values()), output
    assert "5 failed, 3 passed" in result.stdout
    assert "jaxlint runtime findings (5)" in result.stdout
    assert "sharp_lib.py:14: JAX201 PRNG key reused" in result.stdout
    assert "Traceback" not in result.stdout and "KeyReuseError:" not in result.stdout
    assert "TRACING CACHE MISS" not in result.stdout  # parsed, not dumped into the report


def test_a_path_after_the_flag_is_not_taken_for_checks() -> None:
    from jaxlint.pytest_plugin import insert_default_checks

    args = ["--jaxlint-runtime", "tests/", "-x"]
    insert_default_checks(args)
    assert args == ["--jaxlint-runtime", "default", "tests/", "-x"]
    for given in (["--jaxlint-runtime", "nans"], ["--jaxlint-runtime", "keys,transfers"]):
        before = list(given)
        insert_default_checks(given)
        assert given == before
    flags = ["--jaxlint-runtime", "-q"]
    insert_default_checks(flags)
    assert flags == ["--jaxlint-runtime", "-q"]


GOOD = os.path.join(os.path.dirname(__file__), "good_tests_project")


def test_good_tests_are_notes_not_failures(tmp_path) -> None:
    """What made a mature suite's good tests fail (issue 25): a test recomputing an expected
    value with the same key, a `lax.cond` branch closure and an `eval_shape` partial re-traced
    per eager call (no `jax.jit` there), and 2 jitted callables where the threshold says "more
    than 2"; and from equinox's suite: a generic jit wrapper renamed after each decorated
    function, a primitive's lowering rule traced per compile, JAX's key-reuse checker breaking a
    primitive with a `prim` parameter; and from chex's: a test's own jitted function compiled per
    shape or made per call. Each is a note at most; a reuse inside the library and 3
    jitted callables still fail."""
    pytest.importorskip("jax")
    project = tmp_path / "good"
    shutil.copytree(GOOD, project, ignore=shutil.ignore_patterns("__pycache__"))
    plain = run_pytest(str(project))
    assert "2 failed" not in plain.stdout and plain.returncode == 0, plain.stdout + plain.stderr
    report = tmp_path / "events.json"
    result = run_pytest(str(project), "--jaxlint-runtime", "--jaxlint-runtime-json", str(report))
    output = result.stdout + result.stderr
    failed = set(re.findall(r"^FAILED (\S+)", result.stdout, re.M))
    assert failed == {
        "check_good.py::test_three_jits",
        "check_good.py::test_reuse_inside_the_library_still_fails",
        "check_good.py::test_note_and_finding_on_one_line",
    }, output
    events = json.loads(report.read_text(encoding="utf-8"))
    notes = {(e["code"], e["test"].split("::")[-1]) for e in events if e["evidence"].get("note")}
    assert notes == {
        ("JAX401", "test_cond_eager"),
        ("JAX401", "test_eval_shape_user"),
        ("JAX201", "test_same_key_expected"),
        ("JAX201", "test_same_key_via_lib"),
        ("JAX201", "test_same_key_twice"),
        ("JAX201", "test_same_key_in_a_subtest"),
        ("JAX401", "test_wrapper_per_function"),
        ("JAX401", "test_lowering_rule"),
        ("JAX201", "test_checker_breaks"),
        ("JAX404", "test_own_jit_per_shape"),
        ("JAX401", "test_own_jit_per_call"),
        ("JAX401", "test_note_and_finding_on_one_line"),
    }, events
    # a note and a finding at one line of one test are both kept (the finding failed the test)
    both = [e for e in events if e["test"].endswith("test_note_and_finding_on_one_line")]
    assert sorted(bool(e["evidence"].get("note")) for e in both) == [False, True], both
    traced_by = {e["evidence"].get("traced_by") for e in events if e["code"] == "JAX401"}
    assert traced_by == {
        "cond",
        "eval_shape",
        "a jit wrapper per decorated function",
        "lowering",
        None,
    }
    assert "jaxlint runtime notes (12, no test failed for them)" in result.stdout
    assert "jaxlint runtime findings (3)" in result.stdout
