"""The editor's incremental lint (`jaxlint.incremental`) against a whole-module lint, version by
version, on realistic modules under many random small edits (tests/incremental_edits.py): the
findings must be the same, byte for byte (code, position, message, confidence, notes).

JAXLINT_INCREMENTAL_VERSIONS=N runs N versions per module instead of the default (a longer
search, by hand). The defaults (10, 8 and 6 versions per session) keep every kind of edit in
the suite at half the versions it ran before (CI within 10 minutes, issue 26); the longer
searches by hand are in docs/performance.md."""

from __future__ import annotations

import ast
import os
import random
from pathlib import Path

import pytest

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from jaxlint.incremental import IncrementalLinter, module_wide_rules
from tests.incremental_edits import EDITS, random_edit

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "regressions"
VERSIONS = int(os.environ.get("JAXLINT_INCREMENTAL_VERSIONS", "0") or 0)

DEFAULT = Settings()
# every rule, preview ones too, but JAX701 (one finding per module: whenever it may run, the
# whole module is linted, which would leave the cut untested)
ALL = Settings(cli_select=("ALL",), cli_ignore=("JAX701",), preview=True)
WITH_JAX701 = Settings(cli_select=("ALL",), preview=True)


def generated_module(blocks: int) -> str:
    """benchmarks/lsp_latency.py's module, from its text (the benchmark imports pygls)."""
    tree = ast.parse((ROOT / "benchmarks" / "lsp_latency.py").read_text(encoding="utf-8"))
    consts = {
        t.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and t.id in ("BLOCK", "HEADER")
    }
    parts = [consts["HEADER"]]
    parts += [consts["BLOCK"].format(i=i, hidden=64 * (i + 1)) for i in range(blocks)]
    return "".join(parts)


def case_files() -> list[Path]:
    files = sorted((CASES / "cases").glob("*.py")) + sorted((CASES / "realworld").glob("*.py"))
    files += sorted((CASES / "key_draws").glob("*.py")) + sorted((ROOT / "examples").glob("*.py"))
    return files


def concatenated(files: list[Path]) -> str:
    """Several regression cases as one module: their names meet (links between definitions
    of different cases) and each case's pattern sits beside the others'."""
    out = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        out.append("\n".join(line for line in text.split("\n") if "__future__" not in line))
    return "\n\n".join(out)


def plain(diags: list) -> list[tuple]:
    """Everything a finding says, and what its fix says before it is built (the editor offers
    fix-all from that); the edits themselves are built on a masked module (not compared: the
    editor's code actions build them from a whole-module lint)."""
    return [
        (d.code, d.span, d.message, d.confidence, d.severity, d.name, d.notes, d.path, d.cell)
        + ((d.fix.safety, d.fix.message, d.fix.certain) if d.fix is not None else ())
        for d in diags
    ]


def session(
    text: str,
    path: str,
    settings: Settings,
    versions: int,
    seed: int,
    by_parts: bool = True,
    seeds: dict | None = None,
) -> dict:
    """Edit `text` `versions` times; every version's findings from one `IncrementalLinter`
    (as the editor keeps it) must equal a whole-module lint's. `by_parts`: every version
    that can be cut is linted by parts (else, as in the editor, a version whose edit moved
    most of the module is linted whole and its findings are kept by part)."""
    rng = random.Random(seed)
    options = LintOptions(settings=settings, lazy_fixes=True, seeds=seeds)
    linter = IncrementalLinter(whole_share=1.0) if by_parts else IncrementalLinter()
    counts: dict = {"versions": 0, "incremental": 0, "findings": 0}
    good = text  # the last version that parses: a typo is undone by the next edit
    for n in range(versions + 1):
        if n:
            text = random_edit(good, rng)
        expected = plain(lint_text(text, path, options))
        got = plain(linter.lint(text, path, options))
        assert got == expected, (path, seed, n, text)
        counts["versions"] += 1
        counts["incremental"] += linter.last_incremental
        counts["findings"] += len(expected)
        reason = linter.last_reason or "by parts"
        counts[reason] = counts.get(reason, 0) + 1
        if not (expected and expected[0][0] == "JAX000" and "parse" in expected[0][2]):
            good = text
    return counts


def test_generated_module_sessions() -> None:
    text = generated_module(8)
    total = {"versions": 0, "incremental": 0, "findings": 0}
    for seed in range(2):
        for settings in (DEFAULT, ALL):
            got = session(text, "generated.py", settings, VERSIONS or 10, seed, seed == 0)
            total = {k: total.get(k, 0) + got.get(k, 0) for k in total | got}
    assert total["versions"] == 4 * ((VERSIONS or 10) + 1)
    assert total["incremental"] > total["versions"] // 3, total  # the test exercises the cut
    assert total.get("most parts changed", 0) > 0, total  # and the whole lint kept by part
    assert total["findings"] > 0


def test_generated_module_with_seeds() -> None:
    """With the project index's seeds (functions other modules call with traced arguments):
    they make functions traced, so the prefilter is off and the taint reaches their callees."""
    from jaxlint.analysis.project_data import Seed

    seeds = {
        "mlp_0": Seed("jit", "jax.jit", (0, 1), (), ("train.step", "generated.mlp_0")),
        "evaluate_1": Seed("grad", "jax.grad", (0,), ("batches",), ("train.f",)),
        "make_batches_2": Seed("jit", "jax.jit", (1, 2), (), ()),
    }
    got = session(generated_module(4), "generated.py", ALL, VERSIONS or 8, 7, seeds=seeds)
    assert got["incremental"] > got["versions"] // 2, got


@pytest.mark.parametrize("chunk", range(4))
def test_regression_cases_concatenated(chunk: int) -> None:
    files = case_files()[chunk::4]
    text = concatenated(files)
    settings = ALL if chunk % 2 else DEFAULT
    got = session(text, f"cases_{chunk}.py", settings, VERSIONS or 6, chunk, chunk < 2)
    # cut, or linted whole because a rule failed on a part (JAX407 on a loop over a name
    # that part does not bind: `for v in VALUES:` alone fails the same way)
    assert set(got) <= {"versions", "incremental", "findings", "by parts", "syntax error"} | {
        "JAX000 in a part",
        "most parts changed",
    }, got


def test_each_case_module() -> None:
    """Every case alone, a few edits each: most of them are too small to be cut (the whole
    module is linted), the rest are cut along their few definitions."""
    total = {"versions": 0, "incremental": 0, "findings": 0}
    for i, f in enumerate(case_files()):
        text = f.read_text(encoding="utf-8")
        got = session(text, f.name, ALL if i % 2 else DEFAULT, VERSIONS // 10 or 3, seed=i)
        total = {k: total.get(k, 0) + got.get(k, 0) for k in total | got}
    assert total["incremental"] > 50, total


def test_every_edit_kind_applies() -> None:
    text = generated_module(2)
    rng = random.Random(0)
    for edit in EDITS:
        assert any(edit(text, rng) not in (None, text) for _ in range(10)), edit.__name__


def test_module_wide_rules_are_linted_whole() -> None:
    """A rule that decides at the end of the module (one JAX701 per module, with a count of
    the others) makes the whole module linted."""
    assert "JAX701" in module_wide_rules()
    text = generated_module(3) + "\nx = jnp.zeros((3,), dtype=jnp.float64)\n"
    linter = IncrementalLinter()
    options = LintOptions(settings=WITH_JAX701, lazy_fixes=True)  # JAX701 is in preview
    assert plain(linter.lint(text, "m.py", options)) == plain(lint_text(text, "m.py", options))
    assert not linter.last_incremental
    assert linter.last_reason == "JAX701 decides at the end of the module"


def test_an_edit_relints_only_its_component() -> None:
    text = generated_module(6)
    linter = IncrementalLinter()
    options = LintOptions(settings=DEFAULT, lazy_fixes=True)
    linter.lint(text, "m.py", options)  # the first version: linted whole, kept by part
    assert not linter.last_incremental and linter.last_reason == "most parts changed"
    edited = text.replace("EDITED = 0\n", "EDITED = 1\n", 1)
    assert plain(linter.lint(edited, "m.py", options)) == plain(lint_text(edited, "m.py", options))
    assert linter.last_incremental and linter.last_linted == 1
    body = edited.replace("w_key, b_key = jax.random.split(k)", "w_key = b_key = k", 1)
    assert plain(linter.lint(body, "m.py", options)) == plain(lint_text(body, "m.py", options))
    assert linter.last_incremental and linter.last_linted == 1


def test_a_module_level_timed_region_is_linted_whole() -> None:
    """The statements between two module-level clock reads reach each other by program order,
    not by a name: a result renamed so that nothing links it to the blocked name split the
    region across parts and lost its JAX601 (seeded edit of
    `fp20_jax601_input_of_blocked_result.py`). They are context now, in every masked module."""
    case = CASES / "realworld" / "fp20_jax601_input_of_blocked_result.py"
    text = case.read_text(encoding="utf-8")
    renamed = text.replace("eval_metrics = evaluator(", "eval_results = evaluator(")
    assert renamed != text
    options = LintOptions(settings=ALL, lazy_fixes=True)
    expected = plain(lint_text(renamed, "m.py", options))
    assert [d[0] for d in expected] == ["JAX601"]
    linter = IncrementalLinter(whole_share=1.0)  # by parts, even the first version
    assert plain(linter.lint(renamed, "m.py", options)) == expected
    assert linter.last_incremental


def test_a_displayed_cell_result_goes_with_the_next_statement() -> None:
    """In a percent-format script a top-level expression is a cell's displayed result only
    when no statement of its cell follows it (analysis/cells.py): a statement inserted after
    it, which defines a name nothing else mentions, was masked out of the expression's part,
    so the part kept it displayed and lost its JAX504 (seeded edit of
    `jax504_percent_cells.py`, found by a new user's run of the suite)."""
    case = CASES / "cases" / "jax504_percent_cells.py"
    text = case.read_text(encoding="utf-8")
    shown = "gap.mean()  # 1.0\n"
    assert shown in text
    edited = text.replace(shown, shown + "\nKEY = jax.random.PRNGKey(0)\n", 1)
    options = LintOptions(settings=ALL, lazy_fixes=True)
    expected = plain(lint_text(edited, "m.py", options))
    assert len([d for d in expected if d[0] == "JAX504"]) == 2
    linter = IncrementalLinter(whole_share=1.0)  # by parts, even the first version
    assert plain(linter.lint(edited, "m.py", options)) == expected
    assert linter.last_incremental


def test_a_part_is_gated_by_the_whole_module_words() -> None:
    """The prefilter reads the whole module's text for every masked part: a part alone may
    lack the words that let a rule run (`updater.init(rng, x)` is a key consumption, but only
    another function says `jax.random`), and was linted without JAX201 (seeded session of
    `key_loop_enumerate_counter_once.py`). An edit elsewhere that removes those words changes
    what the part is linted by, so the gate is part of its key."""
    text = (CASES / "cases" / "key_loop_enumerate_counter_once.py").read_text(encoding="utf-8")
    options = LintOptions(settings=ALL, lazy_fixes=True)
    expected = plain(lint_text(text, "m.py", options))
    assert [d[0] for d in expected] == ["JAX201", "JAX201"]
    linter = IncrementalLinter(whole_share=1.0)  # by parts, even the first version
    assert plain(linter.lint(text, "m.py", options)) == expected
    assert linter.last_incremental
    # the only draw goes: the other parts' texts are unchanged, their gate is not
    quiet = text.replace("jax.random.normal(rng, batch.shape)", "batch.mean()")
    assert plain(linter.lint(quiet, "m.py", options)) == plain(lint_text(quiet, "m.py", options))
