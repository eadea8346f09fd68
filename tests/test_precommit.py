"""The pre-commit hooks, end to end with `pre-commit run`, plus a quick check of the hook file.

pre-commit needs the hook repository as a git repository with the hook files committed, so the
tests snapshot the current working tree (uncommitted changes included) into a temporary git
repository and name it, at that commit, in a `.pre-commit-config.yaml` as a user would.
pre-commit installs it with `pip install .` from the package index (about 10 s) once per
PRE_COMMIT_HOME, which the tests of a process share (`try-repo` never caches: it installed the
hook again for each of the three runs). The end-to-end tests are marked slow and skipped when
pre-commit, git or the index is unavailable.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOOKS_FILE = ROOT / ".pre-commit-hooks.yaml"
RUN_TIMEOUT_S = 300

SHARP = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp

    grads = jax.tree_map(lambda g: g / 2, {"w": jnp.ones(3)})
    x = jnp.zeros(3)
    x[0] = 1.0
    """
)
FIXED = SHARP.replace("jax.tree_map(", "jax.tree.map(").replace(
    "x[0] = 1.0", "x = x.at[0].set(1.0)"
)
# JAX501 (`x[0] = 1.0`, the safe fix to `x.at[0].set(1.0)`) is in preview after the v13 check
# set: the projects turn preview on, as a user would, in their pyproject.toml
PREVIEW_ON = "[tool.jaxlint]\npreview = true\n"
CLEAN = "import jax\n\nleaves = jax.tree.leaves({'a': 1})\n"
# pip's messages when the package index cannot be reached
NETWORK_ERRORS = (
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Network is unreachable",
    "No matching distribution found",
    "Could not find a version that satisfies",
    "ProxyError",
    "ConnectTimeoutError",
    "ReadTimeoutError",
)
SKIP_PARTS = {
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".jaxlint_cache",
    ".hypothesis",
    ".mypy_cache",
    "build",
    "dist",
    "node_modules",
}


# -- the hook file (fast) -------------------------------------------------------------------


def test_hook_file_declares_check_and_fix_hooks():
    yaml = pytest.importorskip("yaml")
    hooks = {h["id"]: h for h in yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))}
    assert set(hooks) == {"jaxlint", "jaxlint-fix"}
    # --force-exclude: pre-commit names every staged file; [tool.jaxlint] exclude must apply
    assert hooks["jaxlint"]["entry"] == "jaxlint check --force-exclude"
    assert hooks["jaxlint-fix"]["entry"] == "jaxlint check --fix --force-exclude"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "jupyter"]
        assert hook["require_serial"] is False


def test_hook_environment_installs_the_core_only():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        tomllib = pytest.importorskip("tomli")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = [d.split(";")[0].strip().lower() for d in project["dependencies"]]
    names = {d.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip() for d in core}
    assert not names & {"jax", "jaxlib", "pygls", "lsprotocol"}, names


# -- end to end ---------------------------------------------------------------------------


def _pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (the dev extra)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return [sys.executable, "-m", "pre_commit"]


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_AUTHOR_NAME="jaxlint tests",
        GIT_AUTHOR_EMAIL="tests@example.invalid",
        GIT_COMMITTER_NAME="jaxlint tests",
        GIT_COMMITTER_EMAIL="tests@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        HOME=str(home),  # no user git config (hooks, signing) leaks in
        PRE_COMMIT_HOME=str(home / "pre-commit-cache"),
    )
    for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "VIRTUAL_ENV", "PYTHONPATH"):
        env.pop(key, None)
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=60)


def _gitignore_patterns() -> list[str]:
    path = ROOT / ".gitignore"
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [ln.strip("/") for ln in lines if ln and not ln.startswith(("#", "!"))]


def _ignored(directory: str, names: list[str]) -> set[str]:
    """Build outputs, caches, virtualenvs and what .gitignore lists stay out of the snapshot."""
    rel = Path(directory).resolve().relative_to(ROOT).as_posix()
    patterns = _gitignore_patterns()
    out = {n for n in names if n in SKIP_PARTS or n.endswith(".egg-info")}
    out |= {n for n in names if n.startswith(".venv") or n.endswith((".pyc", ".pyo"))}
    out |= {n for n in names if os.path.isfile(os.path.join(directory, n, "pyvenv.cfg"))}
    for n in names:
        path = n if rel == "." else f"{rel}/{n}"
        if any(fnmatch.fnmatch(n, p) or fnmatch.fnmatch(path, p) for p in patterns):
            out.add(n)
    return out


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A git repository holding a snapshot of the current working tree, committed."""
    _pre_commit()
    base = tmp_path_factory.mktemp("hook-repo")
    env = _env(base)
    repo = base / "jaxlint"
    shutil.copytree(ROOT, repo, ignore=_ignored, symlinks=True)
    _git(repo, env, "init", "-q")
    _git(repo, env, "add", "-A")
    _git(repo, env, "commit", "-q", "--no-verify", "-m", "snapshot of the working tree")
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()
    config = base / "pre-commit-config.yaml"  # outside the projects: not one of their files
    config.write_text(
        f"repos:\n- repo: {repo}\n  rev: {rev}\n  hooks:\n  - id: jaxlint\n  - id: jaxlint-fix\n",
        encoding="utf-8",
    )
    env["JAXLINT_TESTS_HOOK_CONFIG"] = str(config)
    return repo, env


def _project(tmp_path: Path, env: dict[str, str], files: dict[str, str]) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    _git(project, env, "init", "-q")
    for name, text in files.items():
        (project / name).write_text(text, encoding="utf-8")
    _git(project, env, "add", *files)
    return project


def _run_hook(
    hook_repo: tuple[Path, dict[str, str]], project: Path, hook: str
) -> subprocess.CompletedProcess[str]:
    _repo, env = hook_repo
    config = env["JAXLINT_TESTS_HOOK_CONFIG"]
    try:
        proc = subprocess.run(
            [*_pre_commit(), "run", hook, "--config", config, "--verbose"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"pre-commit run took over {RUN_TIMEOUT_S} s (slow package index?)")
    output = proc.stdout + proc.stderr
    log = Path(env["PRE_COMMIT_HOME"], "pre-commit.log")
    details = log.read_text(errors="replace") if log.exists() else ""
    if proc.returncode != 0 and any(e in output + details for e in NETWORK_ERRORS):
        pytest.skip("pre-commit could not install the hook: package index unreachable")
    assert "An unexpected error has occurred" not in output, output + details
    return proc


@pytest.mark.slow
def test_check_hook_fails_on_a_sharp_bit_and_passes_on_clean_code(hook_repo, tmp_path):
    project = _project(
        tmp_path,
        hook_repo[1],
        {
            "clean.py": CLEAN,
            "notes.txt": "jax.tree_map\n",
            "pyproject.toml": PREVIEW_ON,
        },
    )
    proc = _run_hook(hook_repo, project, "jaxlint")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "jaxlint" in proc.stdout and "Passed" in proc.stdout

    (project / "train.py").write_text(SHARP, encoding="utf-8")
    _git(project, hook_repo[1], "add", "train.py")
    proc = _run_hook(hook_repo, project, "jaxlint")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Failed" in out
    assert "train.py:4:9: JAX801" in out and "train.py:6:1: JAX501" in out
    assert "clean.py" not in out.split("Failed", 1)[1]  # only findings are listed
    assert "notes.txt" not in out  # not a Python file: not passed to the hook
    assert (project / "train.py").read_text(encoding="utf-8") == SHARP  # check never writes


@pytest.mark.slow
def test_fix_hook_repairs_the_file(hook_repo, tmp_path):
    project = _project(tmp_path, hook_repo[1], {"train.py": SHARP, "pyproject.toml": PREVIEW_ON})
    proc = _run_hook(hook_repo, project, "jaxlint-fix")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "files were modified by this hook" in out
    assert (project / "train.py").read_text(encoding="utf-8") == FIXED
