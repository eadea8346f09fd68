"""A file gets the same findings linted alone or beside other trees (issue 26).

Three repositories linted in one command each have a `tests/test_utils.py`: module names
collided across the trees (one index, rooted above all three, where `tests.test_utils` meant
three files or none), and true key-reuse findings through a helper of another module were
lost. Each tree now resolves its own modules (a root per pyproject / project marker).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

UTILS = """
import jax


def noise(key, shape):
    return jax.random.normal(key, shape)
"""

TRAIN = """
from tests.test_utils import noise


def step(key):
    a = noise(key, (3,))
    b = noise(key, (3,))
    return a + b
"""

SCRIPT = """
import jax

from tests import test_utils


def init(key):
    w = test_utils.noise(key, (2, 2))
    return w, jax.random.uniform(key)
"""


def _tree(base, name: str, helper_body: str = UTILS) -> str:
    root = base / name
    (root / "tests" / "unit").mkdir(parents=True)
    # preview on: the key reuse through a helper is JAX201 at medium confidence, in preview
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "{name}"\n\n[tool.jaxlint]\npreview = true\n'
    )
    (root / "tests" / "__init__.py").write_text("")
    (root / "tests" / "test_utils.py").write_text(textwrap.dedent(helper_body))
    (root / "tests" / "unit" / "__init__.py").write_text("")
    (root / "tests" / "unit" / "test_train.py").write_text(textwrap.dedent(TRAIN))
    (root / "script.py").write_text(textwrap.dedent(SCRIPT))  # a script: any module counts
    return str(root)


def _findings(cwd, *paths: str) -> set[tuple[str, int, str]]:
    out = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--format", "json", *paths],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=300,
    )
    assert out.returncode in (0, 1), out.stderr
    return {
        (os.path.abspath(os.path.join(cwd, d["filename"])), d["location"]["row"], d["code"])
        for d in json.loads(out.stdout)
    }


@pytest.mark.slow
def test_a_tree_gets_the_same_findings_alone_and_beside_others(tmp_path):
    # the third tree's helper does not consume its key: no finding may leak into it from
    # the others' (same module name, different file)
    harmless = "def noise(key, shape):\n    return key\n"
    trees = [_tree(tmp_path, "a"), _tree(tmp_path, "b"), _tree(tmp_path, "c", harmless)]
    alone: set[tuple[str, int, str]] = set()
    for tree in trees:
        alone |= _findings(tmp_path, os.path.relpath(tree, tmp_path))
    together = _findings(tmp_path, "a", "b", "c")
    assert together == alone
    reuse = {(os.path.relpath(p, tmp_path), line) for p, line, code in alone if code == "JAX201"}
    # the helper of a and b consumes the key: both importers reuse it; c's does not
    assert {p for p, _ in reuse} == {
        os.path.join(t, f) for t in ("a", "b") for f in ("tests/unit/test_train.py", "script.py")
    }, reuse


def _index(tree: str, cache):  # noqa: ANN001, ANN202
    from jaxlint.project_index import build_index, project_files

    files = project_files(tree, [], lambda p: _settings())
    return build_index(files, tree, lambda p: (), cache, 1, linted=set(files))


def _settings():  # noqa: ANN202
    from jaxlint.core.config import Settings

    return Settings()


def test_a_warm_index_reads_its_joined_seeds_from_the_cache(tmp_path, monkeypatch):
    """Nothing changed: the seeds come from the cache, not from a join (124k helper lookups
    on 928 files). A changed file changes the fingerprint: joined again."""
    from jaxlint.analysis.project import ProjectIndex
    from jaxlint.run.cache import Cache

    tree = _tree(tmp_path, "a")
    cache = Cache(str(tmp_path / "cache"))
    first = _index(tree, cache).seeds()
    assert any("<key helpers>" in entry for entry in first.values())
    joins = []
    real = ProjectIndex._join

    def counting(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        joins.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProjectIndex, "_join", counting)
    again = _index(tree, cache).seeds()
    assert joins == [] and again == first
    script = os.path.join(tree, "script.py")
    with open(script, "a", encoding="utf-8") as fh:
        fh.write("\n\ndef more(key):\n    return test_utils.noise(key, (1,))\n")
    changed = _index(tree, cache).seeds()
    assert joins and changed.keys() == first.keys()
    edited = _index(tree, cache)
    edited.add_module(script, ["script"], None)  # an editor's change: no fingerprint
    assert edited.fingerprint is None


def test_a_file_of_two_trees_is_analysed_once(tmp_path, monkeypatch):
    """A folder without `__init__.py` inside a package is a tree of its own (the corpus's
    `optax/_src` inside `optax`): linting both, its files are indexed by both trees. Their
    summaries for the outer tree come from their one lint (`SummaryJobs`), not from a second
    parse and analysis, and are the ones they get alone."""
    from jaxlint import api, project_index
    from jaxlint.core.config import ConfigResolver
    from jaxlint.run import parallel

    pkg = tmp_path / "pkg"
    (pkg / "_src").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg._src import core\n")
    (pkg / "_src" / "core.py").write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    return x + 1\n")
    files = [str(pkg / "__init__.py"), str(pkg / "_src" / "core.py")]
    assert len(project_index.project_groups(files, files)) == 2
    alone: list[str] = []
    real = project_index.summarize_text

    def summarize_text(text, path, *args):  # noqa: ANN001, ANN202
        alone.append(path)
        return real(text, path, *args)

    def summaries() -> list:
        run = api.RunOptions(paths=files, jobs=1, no_cache=True, cache_dir=None, verbose=False)
        project, deferred = api._run_index([(f, f) for f in files], ConfigResolver(), run, None)
        return sorted(
            (str(group.root), path, json.dumps(index.summaries[path].to_json(), sort_keys=True))
            for group, index in project.parts
            for path in index.summaries
        )

    expected = summaries()  # no lint: every summary made alone
    assert any(path.endswith("core.py") for _, path, _ in expected)
    monkeypatch.setattr(project_index, "summarize_text", summarize_text)
    run = api.RunOptions(paths=files, jobs=1, no_cache=True, cache_dir=None, verbose=False)
    captured = []
    real_first = parallel._first_pass

    def first_pass(files_, deferred, project, *args):  # noqa: ANN001, ANN202
        out = real_first(files_, deferred, project, *args)
        captured.append(project)
        return out

    monkeypatch.setattr(parallel, "_first_pass", first_pass)
    api.lint_files([(f, f) for f in files], ConfigResolver(), run)
    assert alone == []
    got = sorted(
        (str(group.root), path, json.dumps(index.summaries[path].to_json(), sort_keys=True))
        for group, index in captured[0].parts
        for path in index.summaries
    )
    assert got == expected
