"""The README's pre-commit and GitHub Action snippets work from a clone of this repository
(issue 27 item 8): the `repo: local` hook is run by a real pre-commit, the Action's run step by
bash as GitHub would, and no snippet points at a repository that does not exist."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SHARP = "import jax\n\ny = jax.tree_map(abs, [1])\n"
CLEAN = "import jax\n\ny = jax.tree.map(abs, [1])\n"


def _snippet(name: str) -> str:
    """The fenced block after `<!-- snippet: NAME -->` in the README, unindented."""
    m = re.search(rf"<!-- snippet: {name} -->\s*\n(\s*)```yaml\n(.*?)\n\s*```", README, re.S)
    assert m, name
    indent = m.group(1)
    return (
        "\n".join(
            ln[len(indent) :] if ln.startswith(indent) else ln for ln in m.group(2).split("\n")
        )
        + "\n"
    )


def test_no_snippet_points_at_a_repository_that_does_not_exist():
    """`jaxlint-sharp/jaxlint@v0.1.0` and `rev: v0.1.0` did not resolve (no such repository
    reachable, no tag): the snippets use a checkout, and say how a release resolves."""
    texts = {
        "README.md": README,
        "action.yml": (ROOT / "action.yml").read_text(encoding="utf-8"),
        "docs/editors.md": (ROOT / "docs" / "editors.md").read_text(encoding="utf-8"),
    }
    for name, text in texts.items():
        assert "jaxlint-sharp/jaxlint@" not in text, name
        assert "github.com/jaxlint-sharp/jaxlint" not in text, name
        assert "rev: v0.1.0" not in text, name
    assert "uses: ./" in _snippet("github-action")
    assert (
        "release tag is published" in README and "release tag is published" in texts["action.yml"]
    )


def _env(home: Path, bin_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_AUTHOR_NAME="jaxlint tests",
        GIT_AUTHOR_EMAIL="tests@example.invalid",
        GIT_COMMITTER_NAME="jaxlint tests",
        GIT_COMMITTER_EMAIL="tests@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        HOME=str(home),
        PRE_COMMIT_HOME=str(home / "pre-commit-cache"),
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        # the jaxlint under test, whichever checkout runs the suite
        PYTHONPATH=str(ROOT),
    )
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(key, None)
    return env


def _bin(tmp_path: Path) -> Path:
    """A folder with `jaxlint` and `python` of this interpreter, as an environment that ran
    `pip install -e /path/to/jaxlint` has them on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "jaxlint").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m jaxlint "$@"\n')
    (bin_dir / "jaxlint").chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    return bin_dir


def test_the_readme_repo_local_hook_runs_under_pre_commit(tmp_path: Path):
    pytest.importorskip("pre_commit", reason="pre-commit is not installed (the dev extra)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    home = tmp_path / "home"
    home.mkdir()
    env = _env(home, _bin(tmp_path))
    project = tmp_path / "project"
    project.mkdir()
    (project / ".pre-commit-config.yaml").write_text(_snippet("pre-commit-local"))
    (project / "bad.py").write_text(SHARP)
    (project / "good.py").write_text(CLEAN)

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=project, env=env, check=True, capture_output=True)

    git("init", "-q")
    git("add", ".")

    def run(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--files", *files],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    proc = run("bad.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "bad.py:3:5: JAX801" in proc.stdout
    proc = run("good.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout


def _action_step(name: str) -> dict:
    yaml = pytest.importorskip("yaml")
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    return next(s for s in action["runs"]["steps"] if s.get("name") == name)


def test_the_action_installs_its_own_checkout():
    """`uses: ./` (or a local copy): GitHub sets `github.action_path` to the folder holding
    action.yml, so the install step installs that checkout, never a package index release."""
    step = _action_step("Install jaxlint (this action's own checkout)")
    assert '"${{ github.action_path }}"' in step["run"]


@pytest.mark.parametrize(
    ("files", "config", "exit_code"),
    [({"bad.py": SHARP}, None, 1), ({"good.py": CLEAN}, None, 0), ({"good.py": CLEAN}, "x", 2)],
)
def test_the_action_run_step_as_github_runs_it(tmp_path: Path, files, config, exit_code):
    """The step's script, run by bash with the env GitHub gives it: SARIF written, the exit
    code in $GITHUB_OUTPUT, the step failing only on exit 2 (usage or configuration error)."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    step = _action_step("Run jaxlint")
    project = tmp_path / "project"
    project.mkdir()
    for name, text in files.items():
        (project / name).write_text(text)
    if config is not None:
        (project / "pyproject.toml").write_text("[tool.jaxlint]\nselect = [JAX801]\n")  # bad TOML
    output = tmp_path / "github_output"
    env = _env(tmp_path, _bin(tmp_path))
    env.update(
        JAXLINT_ARGS="check . --no-cache",
        JAXLINT_SARIF="jaxlint.sarif",
        GITHUB_OUTPUT=str(output),
    )
    proc = subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert f"exit-code={exit_code}" in output.read_text()
    if exit_code == 2:
        assert proc.returncode == 2 and "::error title=jaxlint::" in proc.stdout
        return
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sarif = json.loads((project / "jaxlint.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == (["JAX801"] if exit_code else [])
