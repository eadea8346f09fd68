"""Same results serially, with any number of workers, and with a cold or warm cache; the
progress line only on terminals."""

from __future__ import annotations

import io
import json
import os
import sys
from argparse import Namespace

import pytest

from jaxlint import api
from jaxlint.core.config import ConfigResolver
from jaxlint.files.discover import iter_python_files
from jaxlint.rules import ALL_RULES
from jaxlint.run import parallel
from tests.conftest import snippet


@pytest.fixture
def corpus(tmp_path):
    """Every rule's invalid examples as files, plus clean, broken and unreadable ones."""
    root = tmp_path / "corpus"
    (root / "pkg" / "sub").mkdir(parents=True)
    n = 0
    for rule in ALL_RULES:
        for text in rule.examples.invalid:
            folder = root / "pkg" / ("sub" if n % 3 else "")
            (folder / f"{rule.code.lower()}_{n}.py").write_text(snippet(text))
            n += 1
    (root / "clean.py").write_text("import os\n\nprint(os.getcwd())\n")
    (root / "broken.py").write_text("def f(:\n    pass\n")
    (root / "latin.py").write_bytes(b"# -*- coding: ascii -*-\nx = '\xe9'\n")
    big = "\n".join(f"y{i} = jax.numpy.zeros({i})" for i in range(3000))
    (root / "big.py").write_text("import jax\n" + big + "\ny0[0] = 1\n")
    return root


def _args(**kw) -> Namespace:
    base = dict(paths=None, jobs=None, no_cache=True, cache_dir=None, verbose=False)
    base.update(kw)
    return Namespace(**base)


def _lint(root, **kw) -> list:
    resolver = ConfigResolver()
    files = iter_python_files([str(root)], resolver.for_path)
    run = api.RunOptions.from_namespace(_args(paths=[str(root)], **kw))
    diags = api.lint_files(files, resolver, run)  # the runner, with the facade's project index
    return sorted(diags, key=lambda d: (d.sort_key(), d.message))


def test_results_do_not_depend_on_jobs_or_cache(corpus, tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "SERIAL_BELOW_BYTES", 0)  # use the pool even for this corpus
    serial = _lint(corpus, jobs=1)
    assert len({d.path for d in serial}) > 20, "the corpus should have findings in many files"
    assert any(d.fix is not None for d in serial)
    for jobs in (2, 3, 8):
        assert _lint(corpus, jobs=jobs) == serial, jobs
    cache = str(tmp_path / "cache")
    cold = _lint(corpus, jobs=2, no_cache=False, cache_dir=cache)
    warm = _lint(corpus, jobs=2, no_cache=False, cache_dir=cache)
    warm_serial = _lint(corpus, jobs=1, no_cache=False, cache_dir=cache)
    assert cold == warm == warm_serial == serial


def test_warm_run_analyses_nothing(corpus, tmp_path, monkeypatch):
    cache = str(tmp_path / "cache")
    _lint(corpus, jobs=1, no_cache=False, cache_dir=cache)
    from jaxlint.files import driver

    monkeypatch.setattr(driver, "lint_file", lambda *a, **k: pytest.fail("analysed"))
    _lint(corpus, jobs=1, no_cache=False, cache_dir=cache)


def test_a_changed_file_is_relinted(corpus, tmp_path):
    cache = str(tmp_path / "cache")
    before = _lint(corpus, jobs=1, no_cache=False, cache_dir=cache)
    # a default rule's finding (JAX801; JAX501's `x[0] = 1` is in preview after the v13 check set)
    (corpus / "clean.py").write_text("import jax\nf = jax.tree_map(abs, [1])\n")
    after = _lint(corpus, jobs=1, no_cache=False, cache_dir=cache)
    fresh = _lint(corpus, jobs=1)
    assert after == fresh != before


def test_cli_output_is_identical_across_jobs_and_cache(corpus, tmp_path, run_cli):
    outs = [
        run_cli("check", "--format", "json", *flags, str(corpus), cwd=tmp_path)
        for flags in (
            ("--no-cache", "-j", "1"),
            ("--no-cache", "-j", "2"),
            ("--cache-dir", "c", "-j", "2"),
            ("--cache-dir", "c", "-j", "2"),
            ("--cache-dir", "c", "-j", "1"),
        )
    ]
    assert len({o.stdout for o in outs}) == 1
    assert {o.returncode for o in outs} == {1}
    assert json.loads(outs[0].stdout)


def test_jobs_default_and_bounds():
    assert parallel.default_jobs() >= 1
    assert parallel.jobs_from(_args(jobs=None)) == parallel.default_jobs()
    assert parallel.jobs_from(_args(jobs=0)) == parallel.default_jobs()
    assert parallel.jobs_from(_args(jobs=3)) == 3


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal_and_only_when_slow(monkeypatch):
    quiet = io.StringIO()
    p = parallel.Progress(10, quiet)
    monkeypatch.setattr(parallel, "PROGRESS_AFTER_S", 0.0)
    monkeypatch.setattr(parallel, "PROGRESS_EVERY_S", 0.0)
    for _ in range(10):
        p.advance()
    p.close()
    assert quiet.getvalue() == ""

    monkeypatch.delenv("TERM", raising=False)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # without tqdm: a plain counter
    tty = _Tty()
    p = parallel.Progress(10, tty)
    for _ in range(10):
        p.advance()
    p.close()
    out = tty.getvalue()
    assert "\rjaxlint: 10/10 files" in out and out.endswith("\r\x1b[K")
    monkeypatch.delitem(sys.modules, "tqdm")  # with tqdm: its bar, removed at the end
    tty = _Tty()
    p = parallel.Progress(10, tty)
    for _ in range(10):
        p.advance()
    p.close()
    assert "10/10" in tty.getvalue() and "%|" in tty.getvalue()
    tty = _Tty()
    p = parallel.Progress(10, tty, enabled=False)  # JSON/SARIF output: never
    for _ in range(10):
        p.advance()
    p.close()
    assert tty.getvalue() == ""


def test_progress_waits_two_seconds(monkeypatch):
    tty = _Tty()
    p = parallel.Progress(5, tty)
    for _ in range(5):
        p.advance()
    p.close()
    assert tty.getvalue() == ""  # a fast run prints nothing


def test_no_progress_when_stderr_is_a_pipe(corpus, tmp_path, run_cli):
    out = run_cli("check", "--no-cache", str(corpus), cwd=tmp_path)
    assert "files\r" not in out.stderr and "\r" not in out.stderr


def test_a_first_pass_result_is_cached_under_its_seeded_key(tmp_path, monkeypatch):
    """A file linted before the project's seeds were joined, whose seeds then did not call
    for a second lint (`_relint`: only helpers that return Python values), is stored under
    the seeded key too: the next run finds it instead of analysing it again (the first warm
    run after a cold one re-linted most of a large corpus)."""
    import jaxlint.run.parallel as parallel
    from jaxlint.cli import main

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    (tmp_path / "helpers.py").write_text(
        "import jax.numpy as jnp\n\n\ndef n_rows(x) -> int:\n    return x.shape[0]\n\n\n"
        "def g(x):\n    return jnp.sum(x)\n"
    )
    (tmp_path / "main.py").write_text(
        "import jax\nfrom helpers import n_rows\n\n\n@jax.jit\ndef f(x):\n"
        "    if n_rows(x) > 2:\n        return x\n    return x * 2\n"
    )
    linted: list[tuple[str, bool]] = []
    real = parallel.lint_task

    def spy(task, cache):  # noqa: ANN001, ANN202
        linted.append((os.path.basename(task.path), bool(task.seeds)))
        return real(task, cache)

    monkeypatch.setattr(parallel, "lint_task", spy)
    monkeypatch.chdir(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    main(["check", "-q", *cache, "."])
    assert ("main.py", False) in linted  # the first pass, before the seeds
    linted.clear()
    main(["check", "-q", *cache, "."])
    assert linted == []


def test_a_serial_lint_frees_its_tree_without_the_collector(corpus, monkeypatch):
    """`lint_task` moves the parsed tree out of the young generation and empties its nodes
    after the lint (`ModuleIndex.release`): the same findings as without that, no node or
    fact of a file outlives it, and the collector is left as it was (enabled, nothing
    frozen, no hook set)."""
    import ast
    import gc

    from jaxlint import engine
    from jaxlint.analysis import ModuleFacts, imports

    def live() -> tuple[int, int]:
        objects = gc.get_objects()
        nodes = sum(1 for o in objects if isinstance(o, ast.AST))
        return nodes, sum(1 for o in objects if type(o) is ModuleFacts)

    plain = _lint(corpus, jobs=1)  # also warms the module-level caches
    monkeypatch.setattr(parallel, "_FREEZE_TREES", False)
    assert _lint(corpus, jobs=1) == plain
    monkeypatch.setattr(parallel, "_FREEZE_TREES", True)
    gc.collect()
    before = live()
    # what the interpreter froze before (CPython 3.12.1 starts with 375 objects frozen; then
    # the lint freezes nothing, `lint_task` only freezes on a collector with none frozen)
    frozen = gc.get_freeze_count()
    assert _lint(corpus, jobs=1) == plain
    assert live() == before
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    assert engine.PARSE_HOOKS.after_parse is None and imports.RELEASING.built is None


def test_threads_linting_at_once_find_the_same(corpus):
    """The indexes a lint releases are its own thread's (`imports.RELEASING` is per thread),
    and no tree is frozen while another thread runs."""
    import threading

    plain = _lint(corpus, jobs=1)
    found: list = []
    threads = [threading.Thread(target=lambda: found.append(_lint(corpus, jobs=1))) for _ in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found == [plain, plain]


_LIB = """import jax
import numba


@jax.jit
def scaled(x, scale=2.0):
    if scale > 1.0:
        return x * scale
    return x


@numba.njit
def host_sum(x, n=3):
    return x.sum() * n


@jax.jit
def loss_fn(x):
    return x.sum()
"""


def _seeded_run(tmp_path, monkeypatch, capsys, main_text: str, every_seed: bool = False):  # noqa: ANN001, ANN202
    """(the files linted, each with its seeds entries; the JSON findings) of a two-module
    project. `every_seed`: no seeds entry is proven inert (`parallel._inert`)."""
    from jaxlint.cli import main

    root = tmp_path / ("every" if every_seed else "proven")
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    (root / "lib.py").write_text(_LIB)
    (root / "main.py").write_text(main_text)
    linted: list[tuple[str, tuple[str, ...]]] = []
    real = parallel.lint_task

    def spy(task, cache):  # noqa: ANN001, ANN202
        linted.append((os.path.basename(task.path), tuple(sorted(task.seeds or ()))))
        return real(task, cache)

    monkeypatch.setattr(parallel, "lint_task", spy)
    if every_seed:
        monkeypatch.setattr(parallel, "_inert", lambda key, entry, found: False)
    monkeypatch.chdir(root)
    capsys.readouterr()
    main(["check", "--no-cache", "--preview", "--format", "json", "-j", "1", "."])
    monkeypatch.undo()
    found = [
        (d["filename"], d["location"]["row"], d["code"])
        for d in json.loads(capsys.readouterr().out)
    ]
    return linted, found


def test_a_seed_that_reaches_the_traced_table_relints_the_file(tmp_path, monkeypatch, capsys):
    """Another module passes `scale` to the jitted `scaled`: its default is no longer the
    only value, so `scale` is traced there and the `if` on it is reported. The first pass
    (no seeds) cannot know it: the file is linted again with its seeds."""
    main_text = "import jax.numpy as jnp\n\nfrom lib import scaled\n\n\ndef run():\n    return scaled(jnp.ones(3), 3.0)\n"
    linted, found = _seeded_run(tmp_path, monkeypatch, capsys, main_text)
    assert linted.count(("lib.py", ())) == 1
    assert ("lib.py", ("<passed arguments>",)) in linted
    assert ("lib.py", 7, "JAX110") in found


@pytest.mark.parametrize(
    "main_text",
    [
        # `PassedArguments` for a defaulted function that no transform traces (a numba jit)
        "from lib import host_sum\n\n\ndef run(x):\n    return host_sum(x, 4)\n",
        # a `Seed` for a function the module jits itself: the traced table ignores it
        "import jax\n\nimport lib\n\n\n@jax.jit\ndef step(x):\n    return lib.loss_fn(x)\n",
    ],
    ids=["passed-to-an-untraced-def", "seed-for-an-entry"],
)
def test_a_seed_proven_inert_is_not_relinted(tmp_path, monkeypatch, capsys, main_text):
    """Seeds that the first pass's `Reach` proves inert cost no second lint, and the findings
    are those of the second lint they would have had."""
    linted, found = _seeded_run(tmp_path, monkeypatch, capsys, main_text)
    assert [f for f, _ in linted].count("lib.py") == 1
    every, found_every = _seeded_run(tmp_path, monkeypatch, capsys, main_text, every_seed=True)
    assert [f for f, _ in every].count("lib.py") == 2  # the seeds are there
    assert found == found_every


def test_relint_falls_back_without_a_proof():
    """No `Reach` (the lint failed), a taint analysis that never ran to its end, or an
    internal error in the first pass: the seeds are judged as before (a second lint)."""
    from jaxlint.analysis.project import Seed
    from jaxlint.analysis.project_data import PassedArguments
    from jaxlint.analysis.seed_keys import PASSED_ARGUMENTS
    from jaxlint.core.diagnostic import internal_error

    passed = {PASSED_ARGUMENTS: PassedArguments((("f", 1, ()),))}
    named = {"f": Seed("jit", "jax.jit", (0,))}
    none = frozenset[str]()
    solved = parallel.Reach(True, frozenset({"g"}), frozenset({"f", "g"}), none)
    assert not parallel._relint(passed, [], (), solved)
    assert parallel._relint(
        passed, [], (), parallel.Reach(True, frozenset({"f"}), solved.defs, none)
    )
    assert parallel._relint(passed, [], (), parallel.Reach(False, none, solved.defs, none))
    assert parallel._relint(passed, [], (), None)
    assert parallel._relint(passed, [internal_error("m.py", "boom")], (), solved)
    assert parallel._relint(named, [], (), solved)  # `f` is a def that nothing traces yet
    assert not parallel._relint(named, [], (), parallel.Reach(True, none, frozenset({"g"}), none))
    settled = parallel.Reach(True, none, solved.defs, frozenset({"f"}))
    assert not parallel._relint(named, [], (), settled)
