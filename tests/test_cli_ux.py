"""The command line as a ruff user expects it (issue 15): selection layers, config errors,
.gitignore, force-exclude, reporting flags, colours, typos. Every case drives the CLI for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT, snippet

TREE = "import jax\nf = jax.tree_map\n"  # JAX801 (safe fix)
TWO = snippet(
    """
    import jax


    @jax.jit
    def f(x, key):
        n = jax.random.normal(key) + jax.random.normal(key)
        return jax.tree_map(abs, x) + n
    """
)  # JAX201 (line 6, no safe fix) and JAX801 (line 7, safe fix): both in the default selection
# (JAX201 instead of JAX111 and JAX204, preview after the v13 and v14 check sets)


def _codes(proc) -> set[str]:  # noqa: ANN001
    assert proc.returncode in (0, 1), proc.stderr
    return {d["code"] for d in json.loads(proc.stdout)}


def _files(proc) -> set[str]:  # noqa: ANN001
    assert proc.returncode in (0, 1), proc.stderr
    return {d["filename"] for d in json.loads(proc.stdout)}


# -- selection ----------------------------------------------------------------------------------


def test_all_works_in_select_ignore_and_extend_select(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(TWO)

    def codes(*args):  # JAX201 is in preview since the v15 check set
        return _codes(run_cli("check", "--format", "json", "--preview", *args, "m.py"))

    assert codes() == {"JAX201", "JAX801"}
    assert codes("--ignore", "ALL") == set()
    proc = run_cli("check", "--ignore", "ALL", "m.py")
    assert proc.returncode == 0 and "All checks passed!" in proc.stdout
    assert codes("--ignore", "ALL", "--extend-select", "JAX801") == {"JAX801"}
    assert codes("--select", "ALL", "--ignore", "JAX8") == {"JAX201"}
    assert codes("--extend-select", "ALL") == {"JAX201", "JAX801"}
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["ALL"]\n')
    assert codes() == set()


def test_command_line_select_replaces_the_configs_select_and_extend_select(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(TWO)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nselect = ["JAX8"]\nextend-select = ["JAX201"]\n'
    )

    def codes(*args):  # JAX201 is in preview since the v15 check set
        return _codes(run_cli("check", "--format", "json", "--preview", *args, "m.py"))

    assert codes() == {"JAX201", "JAX801"}
    assert codes("--select", "JAX801") == {"JAX801"}  # config extend-select dropped (ruff)
    assert codes("--ignore", "JAX2") == {"JAX801"}  # a CLI ignore beats the config's select
    assert codes("--extend-select", "JAX2", "--ignore", "JAX201") == {"JAX801"}
    assert codes("--ignore", "JAX", "--extend-select", "JAX201") == {"JAX201"}  # most specific


# -- configuration errors --------------------------------------------------------------------------


def test_invalid_discovered_pyproject_exits_2(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\nselect = [JAX801]\n")
    (tmp_path / "m.py").write_text(TREE)
    for args in (("check", "."), ("check", "--config", "pyproject.toml", "m.py")):
        proc = run_cli(*args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert "invalid TOML" in proc.stderr and "pyproject.toml" in proc.stderr
        assert "line 2" in proc.stderr and "Traceback" not in proc.stderr
        assert proc.stdout == ""


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('unroll-threshold = "32"', "`unroll-threshold` must be a positive integer, got str '32'"),
        ("x64 = 1", "`x64` must be true or false"),
        ("select = 3", "`select` must be a list of rule codes"),
        ('exclude = [1, "x"]', "`exclude` must be a list of strings"),
        ('per-file-ignores = ["x"]', "`per-file-ignores` must be a table"),
        ('respect-gitignore = "no"', "`respect-gitignore` must be true or false"),
    ],
)
def test_wrong_value_types_are_errors(tmp_path, run_cli, line, message):
    (tmp_path / "pyproject.toml").write_text(f"[tool.jaxlint]\n{line}\n")
    (tmp_path / "m.py").write_text(TREE)
    proc = run_cli("check", "m.py")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_unknown_keys_and_prefixes_get_suggestions(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nselct = ["JAX1"]\nignore = ["JAX99"]\nextend-select = ["JAX80"]\n'
    )
    (tmp_path / "m.py").write_text(TREE)
    proc = run_cli("check", "m.py")
    assert proc.returncode == 1
    assert "unknown key `selct` in [tool.jaxlint]; ignored; did you mean `select`?" in proc.stderr
    assert "`JAX99` matches no jaxlint rule" in proc.stderr
    assert "JAX80`" not in proc.stderr  # a real prefix: no warning
    proc = run_cli("check", "--ignore", "JAX99", "m.py")
    assert "--ignore: `JAX99` matches no jaxlint rule" in proc.stderr


# -- files: .gitignore, excludes, force-exclude ----------------------------------------------------


def _tree(root, *names: str) -> None:  # noqa: ANN001
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(TREE)


def test_gitignore_is_respected_in_a_work_tree(tmp_path, run_cli):
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("local_*.py\n")
    (tmp_path / ".gitignore").write_text("out/\n*_gen.py\n!keep_gen.py\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / ".gitignore").write_text("scratch.py\n/only_here.py\n")
    _tree(
        tmp_path,
        "m.py",
        "out/a.py",
        "x_gen.py",
        "keep_gen.py",
        "local_notes.py",
        "pkg/scratch.py",
        "pkg/only_here.py",
        "pkg/ok.py",
        "pkg/sub/only_here.py",
        "wandb/run.py",
    )
    files = _files(run_cli("check", "--format", "json", "--no-cache", "."))
    assert files == {"m.py", "keep_gen.py", "pkg/ok.py", "pkg/sub/only_here.py", "wandb/run.py"}
    every = _files(run_cli("check", "--format", "json", "--no-respect-gitignore", "."))
    assert len(every) == 10
    # a file named on the command line is linted even when ignored (as ruff)
    assert _files(run_cli("check", "--format", "json", "x_gen.py")) == {"x_gen.py"}
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\nrespect-gitignore = false\n")
    assert len(_files(run_cli("check", "--format", "json", "."))) == 10
    proc = run_cli("check", "--respect-gitignore", "--show-files", ".")
    assert proc.stdout.split() == sorted(files)


def test_a_gitignore_line_git_cannot_use_is_skipped_as_git_does(tmp_path, run_cli):
    """`out\\` (a trailing backslash escapes nothing) matches nothing in git, which
    keeps the other lines; it stopped the whole run with a traceback (v42 kc-ml2/meent)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("out\\\n*_gen.py\n")
    _tree(tmp_path, "m.py", "x_gen.py", "out/c.py")
    proc = run_cli("check", "--format", "json", "--no-cache", ".")
    assert proc.returncode in (0, 1), proc.stderr
    assert _files(proc) == {"m.py", "out/c.py"}


def test_gitignore_outside_a_work_tree_is_not_used(tmp_path, run_cli):
    (tmp_path / ".gitignore").write_text("out/\n")
    _tree(tmp_path, "out/a.py")
    assert _files(run_cli("check", "--format", "json", ".")) == {"out/a.py"}


def test_exclude_with_dot_slash_and_absolute_paths(tmp_path, run_cli):
    _tree(tmp_path, "m.py", "tests/t.py", "gen/g.py")
    for pattern in ("./tests", "tests", "tests/", str(tmp_path / "tests")):
        files = _files(run_cli("check", "--format", "json", "--exclude", pattern, "."))
        assert files == {"m.py", "gen/g.py"}, pattern
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.jaxlint]\nexclude = ["./gen", "{tmp_path / "tests"}"]\n'
    )
    assert _files(run_cli("check", "--format", "json", ".")) == {"m.py"}


def test_excluded_paths_named_on_the_command_line_and_force_exclude(tmp_path, run_cli):
    _tree(tmp_path, "m.py", "gen/g.py", "gen/__pycache__/c.py", "skip.py")
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nexclude = ["gen", "skip.py"]\n')
    assert _files(run_cli("check", "--format", "json", ".")) == {"m.py"}
    # named explicitly: linted, as in ruff (the default excludes still apply inside)
    named = _files(run_cli("check", "--format", "json", "gen", "skip.py", "m.py"))
    assert named == {"gen/g.py", "skip.py", "m.py"}
    # pre-commit passes file names: --force-exclude applies the excludes to them too
    forced = _files(
        run_cli("check", "--format", "json", "--force-exclude", "gen", "skip.py", "m.py")
    )
    assert forced == {"m.py"}
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nexclude = ["gen", "skip.py"]\nforce-exclude = true\n'
    )
    assert _files(run_cli("check", "--format", "json", "gen/g.py", "skip.py", "m.py")) == {"m.py"}


def test_no_python_files_found_warns(tmp_path, run_cli):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("hi\n")
    proc = run_cli("check", ".")
    assert proc.returncode == 0
    assert "warning: No Python files found under the given path(s)" in proc.stderr


def test_paths_have_no_dot_slash_prefix(tmp_path, run_cli):
    _tree(tmp_path, "model.py")
    proc = run_cli("check", "--format", "concise")
    assert proc.stdout.startswith("model.py:2:5: JAX801")
    sarif = json.loads(run_cli("check", "--format", "sarif").stdout)
    uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert uri["artifactLocation"]["uri"] == "model.py"
    assert "file=model.py," in run_cli("check", "--format", "github").stdout


def _unprivileged_python() -> tuple[str, dict] | None:
    """(python, subprocess kwargs) that run jaxlint without root's right to read anything."""
    if os.geteuid() != 0:
        return sys.executable, {}
    who = {"user": 65534, "group": 65534, "extra_groups": []}
    for exe in (sys.executable, "/usr/bin/python3"):
        try:
            probe = subprocess.run(
                [exe, "-c", "import jaxlint.cli"],
                env=dict(os.environ, PYTHONPATH=ROOT),
                cwd="/",
                capture_output=True,
                timeout=60,
                **who,
            )
        except OSError:
            continue
        if probe.returncode == 0:
            return exe, who
    return None


def test_unreadable_files_and_folders_found_while_walking_are_jax000():
    import shutil
    import tempfile

    runner = _unprivileged_python()
    if runner is None:
        pytest.skip("no Python an unprivileged user can run")
    exe, who = runner
    work = tempfile.mkdtemp(prefix="jaxlint-perm-")  # under /tmp: reachable by that user
    try:
        os.chmod(work, 0o755)
        for name in ("ok.py", "secret.py", os.path.join("locked", "inner.py")):
            path = os.path.join(work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(TREE)
        os.chmod(os.path.join(work, "secret.py"), 0)
        os.chmod(os.path.join(work, "locked"), 0)
        proc = subprocess.run(
            [exe, "-m", "jaxlint", "check", "--no-cache", "--format", "concise", "."],
            cwd=work,
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=ROOT, HOME=work),
            timeout=120,
            **who,
        )
    finally:
        os.chmod(os.path.join(work, "locked"), 0o755)
        shutil.rmtree(work, ignore_errors=True)
    assert proc.returncode == 1, proc.stderr
    assert "secret.py:1:1: JAX000 could not read file: Permission denied" in proc.stdout
    assert "locked:1:1: JAX000 could not read folder: Permission denied" in proc.stdout
    assert "ok.py:2:5: JAX801" in proc.stdout


def test_read_only_files_are_not_rewritten_by_fix(tmp_path, run_cli):
    ro = tmp_path / "ro.py"
    ro.write_text(TREE)
    ro.chmod(0o444)
    (tmp_path / "rw.py").write_text(TREE)
    proc = run_cli("check", "--fix", "ro.py", "rw.py")
    ro.chmod(0o644)
    assert ro.read_text() == TREE
    assert "jax.tree.map" in (tmp_path / "rw.py").read_text()
    assert "jaxlint: warning: ro.py: read-only; 1 fix not applied" in proc.stderr
    assert proc.returncode == 1
    assert "ro.py:2:5: JAX801" in proc.stdout


# -- reporting flags -------------------------------------------------------------------------------


def test_show_settings_names_every_setting_and_its_origin(tmp_path, run_cli):
    """--show-settings speaks the names users write in [tool.jaxlint] (`extend-select`, not
    the attribute `extend_select`), TOML-spelled, and shows the command line as its flags."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nextend-select = ["JAX205"]\nunroll-threshold = 8\n'
        'per-file-ignores = {"t.py" = ["JAX1"]}\n'
    )
    _tree(tmp_path, "m.py")
    proc = run_cli("check", "--show-settings", "--ignore", "JAX801", "m.py")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    cfg = str(tmp_path / "pyproject.toml")
    assert f"Configuration file: {cfg}" in out
    assert f'extend-select = ["JAX205"]  # {cfg}' in out
    assert f'per-file-ignores = {{"t.py" = ["JAX1"]}}  # {cfg}' in out
    assert f"unroll-threshold = 8  # {cfg}" in out
    assert "--ignore JAX801  # command line" in out
    assert "respect-gitignore = true  # default" in out
    assert "force-exclude = false  # default" in out
    assert "# select: not set (the default rules)" in out
    assert "JAX205" in out.split("selected rules")[1]
    assert "JAX801" not in out.split("selected rules")[1]
    settings_lines = [ln for ln in out.splitlines()[2:] if not ln.startswith(("#", "--"))]
    written = {ln.split(" = ")[0] for ln in settings_lines}
    from jaxlint.core.config import KNOWN_KEYS

    # every key is one a user can write (no `extend_select`, `cli_ignore`, `infer_target`)
    assert written <= KNOWN_KEYS, written - KNOWN_KEYS
    for key in ("extend-select", "ignore", "per-file-ignores", "exclude", "jit-decorators"):
        assert key in written


def test_show_settings_shows_every_key_with_its_default_and_the_cache_dir(tmp_path, run_cli):
    """Issue 27 item 7: `cache-dir` was never shown, and `unroll-threshold`, `x64` and
    `min-confidence` only when the file set them."""
    _tree(tmp_path, "m.py")
    proc = run_cli("check", "--show-settings", "m.py", env={"JAXLINT_CACHE_DIR": ""})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "unroll-threshold = 32  # default" in out
    assert "x64 = false  # default" in out
    assert 'min-confidence = "medium"  # default' in out
    assert f"cache-dir = {json.dumps(str(tmp_path / '.jaxlint_cache'))}  # default" in out
    assert "per-file-ignores = {}  # default" in out
    shown = {ln.split(" = ")[0] for ln in out.splitlines() if " = " in ln and ln[0] != "#"}
    from jaxlint.core.config import KNOWN_KEYS

    # every key a user can write is shown (the extend-* keys merge into their base key;
    # [tool.jaxlint.pytest] is the pytest plugin's table)
    merged = {"extend-ignore", "extend-exclude", "extend-per-file-ignores", "pytest"}
    assert KNOWN_KEYS - merged <= shown | {"select"}, (KNOWN_KEYS - merged) - shown
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = ".c"\n')
    out = run_cli("check", "--show-settings", "m.py", env={"JAXLINT_CACHE_DIR": ""}).stdout
    cfg = str(tmp_path / "pyproject.toml")
    assert f"cache-dir = {json.dumps(str(tmp_path / '.c'))}  # {cfg}" in out
    out = run_cli("check", "--show-settings", "--cache-dir", "/tmp/x", "--no-cache", "m.py").stdout
    assert 'cache-dir = "/tmp/x"  # command line; not used: --no-cache' in out


def test_show_files_and_output_file(tmp_path, run_cli):
    _tree(tmp_path, "b.py", "a/c.py")
    proc = run_cli("check", "--show-files")
    assert proc.stdout.splitlines() == ["a/c.py", "b.py"]
    proc = run_cli("check", "--format", "json", "--output-file", "report.json")
    assert proc.returncode == 1 and proc.stdout == ""
    data = json.loads((tmp_path / "report.json").read_text())
    assert {d["filename"] for d in data} == {"a/c.py", "b.py"}


def test_color(tmp_path, run_cli):
    _tree(tmp_path, "m.py")
    plain = run_cli("check", "m.py").stdout
    assert "\x1b[" not in plain  # a pipe: no colour
    colored = run_cli("check", "--color", "always", "m.py").stdout
    assert "\x1b[1;31mJAX801\x1b[0m" in colored and "\x1b[1mm.py\x1b[0m" in colored
    assert "\x1b[" in run_cli("check", "m.py", env={"FORCE_COLOR": "1"}).stdout
    forced_off = run_cli("check", "m.py", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" not in forced_off
    assert (
        "\x1b[" not in run_cli("check", "--color", "never", "m.py", env={"FORCE_COLOR": "1"}).stdout
    )
    assert "\x1b[" not in run_cli("check", "--format", "json", "--color", "always", "m.py").stdout


def test_color_on_a_terminal(tmp_path):
    import pty

    _tree(tmp_path, "m.py")
    env = dict(os.environ, PYTHONPATH=ROOT, TERM="xterm")
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint", "check", "m.py"],
        cwd=tmp_path,
        stdout=slave,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(master)
    assert b"\x1b[1;31mJAX801" in out


def test_statistics_follow_the_format(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(TWO)
    proc = run_cli("check", "--statistics", "--format", "json", "--preview", "m.py")
    rows = json.loads(proc.stdout)
    assert {r["code"]: (r["count"], r["fixable"]) for r in rows} == {
        "JAX201": (1, False),
        "JAX801": (1, True),
    }
    assert rows[0].keys() == {"code", "name", "count", "fixable"}
    assert "JAX801" in run_cli("check", "--statistics", "m.py").stdout
    for fmt in ("sarif", "github"):  # not a SARIF log nor annotations: refused, not garbled
        refused = run_cli("check", "--statistics", "--format", fmt, "m.py")
        assert refused.returncode == 2
        assert f"not {fmt}" in refused.stderr
        assert refused.stdout == ""


def test_summary_wording(tmp_path, run_cli):
    src = snippet(
        """
        import jax


        def f(key):
            a = jax.random.normal(key)
            b = jax.random.normal(key)
            return jax.tree_map(abs, [a, b])
        """
    )
    (tmp_path / "m.py").write_text(src)
    proc = run_cli("check", "--unsafe-fixes", "--preview", "m.py")
    assert "[*] 2 fixable with `jaxlint check --fix --unsafe-fixes`." in proc.stdout
    assert "more fixable with `--unsafe-fixes`" not in proc.stdout
    (tmp_path / "clean.py").write_text("x = 1\n")
    proc = run_cli("check", "--fix", "clean.py")
    assert proc.stdout.strip() == "All checks passed!"
    proc = run_cli("check", "--fix", "--stdin-filename", "s.py", input=TREE)
    assert "Fixed 1 finding; 0 remaining." in proc.stderr and "file" not in proc.stderr


# -- typos and usage -------------------------------------------------------------------------------


def test_mistyped_commands_get_a_suggestion(tmp_path, run_cli):
    for typo, right in (("chekc", "check"), ("rule", "explain"), ("explian", "explain")):
        proc = run_cli(typo, "JAX101")
        assert proc.returncode == 2
        assert f"did you mean `jaxlint {right}`?" in proc.stderr, proc.stderr
    _tree(tmp_path, "chekc")  # an existing path is a path
    (tmp_path / "chekc").rename(tmp_path / "chekc.d")
    (tmp_path / "chekc").mkdir()
    assert "did you mean" not in run_cli("chekc").stderr


def test_unknown_flags_abbreviations_and_jobs(tmp_path, run_cli):
    _tree(tmp_path, "m.py")
    proc = run_cli("--fixx", "m.py")
    assert proc.returncode == 2
    assert "usage: jaxlint check" in proc.stderr and "unrecognized arguments: --fixx" in proc.stderr
    assert "(did you mean `--fix`?)" in proc.stderr
    proc = run_cli("check", "--selct=JAX201", "m.py")
    assert proc.returncode == 2 and "(did you mean `--select`?)" in proc.stderr, proc.stderr
    proc = run_cli("check", "--zzz", "m.py")
    assert proc.returncode == 2 and "did you mean" not in proc.stderr
    for abbrev in (("--stat",), ("--sel", "JAX1"), ("--un",)):
        proc = run_cli("check", *abbrev, "m.py")
        assert proc.returncode == 2, abbrev
    for jobs in ("0", "-3"):
        proc = run_cli("check", "-j", jobs, "m.py")
        assert proc.returncode == 2 and "must be at least 1" in proc.stderr


def test_explain_jax000_and_rules_help(run_cli):
    proc = run_cli("explain", "JAX000")
    assert proc.returncode == 0 and "could not read" in proc.stdout
    help_text = run_cli("rules", "--help").stdout
    assert "compatibility" not in help_text
    check_help = run_cli("check", "--help").stdout
    for flag in ("--show-settings", "--show-files", "--output-file", "--color", "--force-exclude"):
        assert flag in check_help
    assert "sarif (code scanning)" in " ".join(check_help.split())


def test_explain_takes_a_bare_number_and_suggests_near_misses(run_cli):
    proc = run_cli("explain", "601")
    assert proc.returncode == 0 and proc.stdout.startswith("JAX601 (timing-without-block")
    typo = run_cli("explain", "JAX6O1")
    assert typo.returncode == 2 and "did you mean `JAX601`?" in typo.stderr
    name = run_cli("explain", "timing-without-block-until-redy")
    assert "did you mean `timing-without-block-until-ready`?" in name.stderr


def test_github_action_is_a_composite_action():
    import yaml

    with open(os.path.join(ROOT, "action.yml"), encoding="utf-8") as fh:
        action = yaml.safe_load(fh)
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    text = json.dumps(steps)
    assert "actions/setup-python" in text and "github/codeql-action/upload-sarif" in text
    assert "--format sarif" in text and "--output-file" in text
    assert "github.action_path" in text  # installs the action's own checkout


def test_runtime_extra_has_flatbuffers():
    from jaxlint.core.config import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        data = tomllib.load(fh)
    assert any(
        d.startswith("flatbuffers") for d in data["project"]["optional-dependencies"]["runtime"]
    )
    assert any(d.startswith("pathspec") for d in data["project"]["dependencies"])


def test_a_broken_config_is_one_finding_in_flake8_not_a_crash(tmp_path):
    pytest.importorskip("flake8")
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nunroll-threshold = "32"\n')
    (tmp_path / "m.py").write_text(TREE)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX", "m.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "JAX000 invalid jaxlint configuration" in proc.stdout
    assert "unroll-threshold" in proc.stdout


def test_absolute_paths_below_the_current_folder_are_shown_relative(tmp_path, run_cli):
    _tree(tmp_path, "pkg/m.py")
    proc = run_cli("check", "--format", "concise", str(tmp_path / "pkg"))
    assert proc.stdout.startswith("pkg/m.py:2:5: JAX801"), proc.stdout
    other = tmp_path / "elsewhere"
    other.mkdir()
    proc = run_cli("check", "--format", "concise", str(tmp_path / "pkg"), cwd=other)
    assert proc.stdout.startswith(str(tmp_path / "pkg" / "m.py")), proc.stdout


def test_ignoring_jax000_says_it_has_no_effect(tmp_path, run_cli):
    (tmp_path / "bad.py").write_text("def (:\n")
    proc = run_cli("check", "--ignore", "JAX000", "bad.py")
    assert proc.returncode == 1 and "JAX000" in proc.stdout
    assert "JAX000 (a file that could not be read or parsed) is always reported" in proc.stderr


def _on_a_terminal(args: list[str], cwd, progress_after_s: float | None = None) -> bytes:  # noqa: ANN001
    """Run jaxlint with stdout and stderr on a pseudo-terminal (100x30); its output. With
    `progress_after_s`, the progress bar's delay is set to it first (the command is the CLI's
    main, run in a process of its own as `python -m jaxlint` would)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = dict(os.environ, PYTHONPATH=ROOT, TERM="xterm")
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "jaxlint"]
    if progress_after_s is not None:
        command = [
            sys.executable,
            "-c",
            "import sys; import jaxlint.run.parallel as p; from jaxlint.cli import main; "
            f"p.PROGRESS_AFTER_S = {progress_after_s!r}; sys.exit(main())",
        ]
    proc = subprocess.Popen([*command, *args], cwd=cwd, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=300)
    os.close(master)
    return out


def test_progress_bar_on_a_terminal_for_a_long_fix(tmp_path):
    # a run shows the bar once it passes PROGRESS_AFTER_S (two seconds); the delay is set to 0
    # so that a fix of two small files shows it (a file long enough to take two seconds made
    # this the suite's slowest CLI test, 19 s on 2 cores)
    example = open(os.path.join(ROOT, "examples", "train_step.py"), encoding="utf-8").read()
    (tmp_path / "big.py").write_text(example * 3)
    (tmp_path / "small.py").write_text(example)
    args = ["check", "--no-cache", "--diff", "--preview", "."]
    out = _on_a_terminal(args, tmp_path, progress_after_s=0.0)
    assert b"jaxlint:" in out and b"file/s" in out, out[-2000:]
    assert out.rstrip().endswith(b"(use --unsafe-fixes).")  # the bar is gone at the end


@pytest.mark.parametrize(
    ("extra", "config", "hinted"),
    [
        ((), "", True),
        (("--preview",), "", False),
        (("--select", "JAX8"), "", False),
        (("--extend-select", "JAX001"), "", False),
        ((), "select = ['JAX2']\n", False),
        ((), "preview = true\n", False),
    ],
)
def test_a_default_run_says_that_preview_rules_did_not_run(
    tmp_path, run_cli, extra, config, hinted
):
    """New-user review 4, its first problem: "All checks passed!" on a default run was read as
    "no sharp bits" while most tracing rules are in preview. The text summary's last line says
    how many did not run, until the user chooses (preview mode, a selection of their own)."""
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n" + config)
    (tmp_path / "m.py").write_text("x = 1\n")
    proc = run_cli("check", "--no-cache", *extra, "m.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert ("rules in preview did not run" in proc.stdout) is hinted, proc.stdout
    assert proc.stdout.startswith("All checks passed!\n")
    js = run_cli("check", "--no-cache", "--format", "json", *extra, "m.py", cwd=tmp_path)
    assert json.loads(js.stdout) == []  # machine formats never get it


def test_rules_table_says_preview_for_rules_that_need_it(run_cli):
    """`jaxlint rules` printed `on` in the default column for rules in preview, which a newcomer
    read as "runs by default" (new-user review 4)."""
    proc = run_cli("rules")
    rows = {
        line.split()[0]: line.split()[2]
        for line in proc.stdout.splitlines()
        if line.startswith("JAX")
    }
    assert rows["JAX110"] == "preview"  # a whole rule in preview
    assert rows["JAX130"] == "on"  # only its medium level is in preview
    assert rows["JAX201"] == "preview"  # the whole rule again after the v32 check set
    assert rows["JAX001"] == "opt-in"


def test_stdin_findings_show_the_excerpt_of_what_was_linted(tmp_path, run_cli):
    """A finding on stdin shows its source line, as ruff does, from the text read (not from
    `--stdin-filename`'s file on disk, which may be another version of it)."""
    (tmp_path / "m.py").write_text("import jax\nf = jax.tree_map\n")
    text = "import jax\n\n\ng = jax.tree_map  # the editor's unsaved text\n"
    proc = run_cli("check", "--no-cache", "--stdin-filename", "m.py", "-", input=text, cwd=tmp_path)
    assert "m.py:4:5: JAX801" in proc.stdout, proc.stdout
    assert "   4 | g = jax.tree_map  # the editor's unsaved text" in proc.stdout, proc.stdout
    assert "f = jax.tree_map" not in proc.stdout


def test_the_preview_hint_counts_each_rule_once(monkeypatch):
    """A rule whose whole code is in preview and whose medium level is listed too (JAX201
    after the v32 check set) is one rule that did not run, not also a rule that reported only
    its high-confidence findings."""
    from jaxlint.core import codes
    from jaxlint.core.config import Settings
    from jaxlint.run.notices import preview_hint

    monkeypatch.setattr(
        codes,
        "PREVIEW",
        frozenset({"JAX101", "JAX201", ("JAX201", "medium"), ("JAX130", "medium")}),
    )
    assert preview_hint([Settings()]).startswith(
        "2 rules in preview did not run, and 1 more reported only high-confidence findings"
    )
