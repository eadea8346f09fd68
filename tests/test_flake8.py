"""flake8 reports exactly what `jaxlint check` reports (a real flake8 subprocess)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.test_cli import TIER1


def _flake8(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "flake8", *args], cwd=cwd, capture_output=True, text=True
    )


def test_flake8_agrees_with_check(tmp_path, run_cli):
    (tmp_path / "prog.py").write_text(TIER1)
    proc = _flake8("--select", "JAX", "prog.py", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    got = set()
    for line in proc.stdout.splitlines():
        m = re.match(r"prog\.py:(\d+):(\d+): (JAX\d{3}) ", line)
        assert m, line
        got.add((m.group(3), int(m.group(1)), int(m.group(2))))
    check = json.loads(run_cli("check", "--format", "json", "prog.py").stdout)
    want = {(d["code"], d["location"]["row"], d["location"]["column"]) for d in check}
    assert got == want


def test_flake8_noqa_and_select(tmp_path):
    (tmp_path / "m.py").write_text(
        "import jax\n"
        "a = jax.tree_map(abs, [1])  # noqa: JAX801\n"
        "b = jax.tree_map(abs, [1])  # noqa: JAX1\n"
        "c = jax.tree_map(abs, [1])  # jaxlint: disable=JAX801\n"
    )
    proc = _flake8("--select", "JAX", "m.py", cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert [line.split(":")[1] for line in lines] == ["3"], lines


def test_flake8_syntax_error_is_e999_only(tmp_path):
    (tmp_path / "bad.py").write_text("def f(:\n")
    proc = _flake8("--select", "JAX,E999", "bad.py", cwd=tmp_path)
    assert "E999" in proc.stdout and "JAX" not in proc.stdout


def test_flake8_lists_plugin(tmp_path):
    proc = _flake8("--version", cwd=tmp_path)
    assert "jaxlint" in proc.stdout


def test_flake8_honours_block_and_file_disables_like_check(tmp_path, run_cli):
    """B6: a block disable before a decorated def, and disable-file, in flake8 too."""
    # JAX111 (high: `assert` on a jit argument) in both functions; in preview after the v13
    # check set, so both faces run with preview on
    block = (
        "import jax\n\n"
        "# jaxlint: disable=JAX111\n"
        "@jax.jit\n"
        "def b(x):\n"
        "    assert x > 0\n"
        "    return x\n\n"
        "@jax.jit\n"
        "def c(x):\n"
        "    assert x > 0\n"
        "    return x\n"
    )
    (tmp_path / "block.py").write_text(block)
    (tmp_path / "whole.py").write_text("# jaxlint: disable-file=JAX1\n" + block)
    proc = _flake8("--select", "JAX", "--jaxlint-preview", "block.py", "whole.py", cwd=tmp_path)
    assert [line.split(": ")[0] for line in proc.stdout.splitlines()] == ["block.py:11:5"]
    check = json.loads(
        run_cli("check", "--preview", "--format", "json", "block.py", "whole.py").stdout
    )
    assert [(d["filename"], d["location"]["row"]) for d in check] == [("block.py", 11)]


def test_flake8_skips_config_excluded_files(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nexclude = ["generated/"]\n')
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "gen.py").write_text("import jax\na = jax.tree_map(abs, [1])\n")
    (tmp_path / "kept.py").write_text("import jax\na = jax.tree_map(abs, [1])\n")
    proc = _flake8("--select", "JAX", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in proc.stdout.splitlines()] == ["./kept.py"]


def test_flake8_unused_suppression_knows_what_noqa_silenced(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nextend-select = ["JAX001"]\n')
    (tmp_path / "m.py").write_text(
        "import jax\na = jax.tree_map(abs, [1])  # noqa: JAX801\nb = 1  # noqa: JAX801\n"
    )
    proc = _flake8("--select", "JAX", "m.py", cwd=tmp_path)
    assert [line.split(": ", 1)[1][:6] for line in proc.stdout.splitlines()] == ["JAX001"]
    assert proc.stdout.startswith("m.py:3:8: JAX001"), proc.stdout


MISCASED = (
    "import jax\n"
    "a = jax.tree_map(abs, [1])  # noqa:jax801\n"
    "b = jax.tree_map(abs, [1])  # noqa: Jax8\n"
    "c = jax.tree_map(abs, [1])  # jaxlint: disable=jax801\n"
    "d = jax.tree_map(abs, [1])  # NOQA: JAX801\n"
    "e = jax.tree_map(abs, [1])  # noqa: JAX801, e501\n"
)


def test_lowercase_noqa_code_means_the_same_in_check_and_flake8(tmp_path, run_cli):
    """Issue 27 item 6: `# noqa:jax101` was honoured by `jaxlint check` and not by flake8.
    One rule now, ruff's: codes are case-sensitive (the `noqa` keyword is not), so a
    lower-case code suppresses nothing, in both, and both warn with the same line."""
    (tmp_path / "m.py").write_text(MISCASED)
    proc = _flake8("--select", "JAX", "m.py", cwd=tmp_path)
    flake8_rows = sorted(int(line.split(":")[1]) for line in proc.stdout.splitlines())
    check = run_cli("check", "--no-cache", "--format", "json", "m.py")
    check_rows = sorted(d["location"]["row"] for d in json.loads(check.stdout))
    assert flake8_rows == check_rows == [2, 3, 4], (proc.stdout, check.stdout)
    for stderr in (proc.stderr, check.stderr):
        warned = [ln for ln in stderr.splitlines() if "case-sensitive" in ln]
        assert len(warned) == 3, stderr
        assert "m.py:2: `jax801` in a suppression comment does not suppress JAX801" in warned[0]
        assert "write `JAX801`" in warned[0] and "write `JAX8`" in warned[1]
    assert not [ln for ln in check.stderr.splitlines() if "m.py:5" in ln or "m.py:6" in ln]
