"""False positives that need more than one module (a constant, a helper's return value of
another module), one folder each in `projects/`.

Each folder is a reduced copy of the modules involved, the source named in the docstrings.
Linted as a project from the folder (the project index joins the modules' summaries), the
rules in preview and the default ones of the families in `test_regressions.FAMILIES` must stay
silent, except on lines marked `# error: JAXnnn` (the near misses kept next to the case).
"""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from tests.regressions.test_regressions import CODES, _marked

PROJECTS = sorted(p for p in (pathlib.Path(__file__).parent / "projects").iterdir() if p.is_dir())


def test_there_are_project_cases():
    assert PROJECTS


@pytest.mark.parametrize("folder", PROJECTS, ids=[p.name for p in PROJECTS])
def test_project_false_positive_stays_silent(folder, tmp_path, run_cli):
    root = tmp_path / folder.name
    shutil.copytree(folder, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pyproject.toml").write_text("[tool.jaxlint]\n")  # the project's root
    expected = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        expected |= {(rel, line, code) for line, code in _marked(path.read_text("utf-8"))}
    proc = run_cli(
        "check",
        "--format",
        "json",
        "--no-cache",
        "--preview",
        "--select",
        ",".join(sorted(CODES)),
        ".",
        cwd=root,
    )
    assert proc.returncode in (0, 1), proc.stderr
    got = {
        (
            (root / d["filename"]).resolve().relative_to(root.resolve()).as_posix(),
            d["location"]["row"],
            d["code"],
        )
        for d in json.loads(proc.stdout)
    }
    assert got == expected


@pytest.mark.parametrize("folder", PROJECTS, ids=[p.name for p in PROJECTS])
def test_each_file_gets_the_same_findings_linted_alone(folder, tmp_path, run_cli):
    """A file named alone on the command line (a pre-commit hook, an editor) gets what the
    project's lint gives it: the index reads the whole project either way. A helper module
    with no transform was summarised by its imports only unless it was linted itself, so its
    importer, linted alone, lost the helper's static returns
    (`project_summary.returned_kinds`)."""
    root = tmp_path / folder.name
    shutil.copytree(folder, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pyproject.toml").write_text("[tool.jaxlint]\n")

    def findings(*paths: str) -> set[tuple[str, int, str]]:
        proc = run_cli("check", "--format", "json", "--no-cache", "--preview", *paths, cwd=root)
        assert proc.returncode in (0, 1), proc.stderr
        return {
            (
                (root / d["filename"]).resolve().relative_to(root.resolve()).as_posix(),
                d["location"]["row"],
                d["code"],
            )
            for d in json.loads(proc.stdout)
        }

    whole = findings(".")
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        assert findings(rel) == {f for f in whole if f[0] == rel}, rel


def test_no_project_file_is_collected_by_pytest():
    """A case's files are linted, not run: a `test_*.py` among them would be collected by the
    suite's pytest and run its JAX code (a flax `init` ran in every CI leg that way)."""
    root = pathlib.Path(__file__).parent
    found = [p for sub in ("projects", "cases") for p in (root / sub).rglob("test_*.py")]
    assert not found, found
