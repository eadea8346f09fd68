import json

from jaxlint.engine import lint_text
from tests.conftest import snippet

BASE = "import jax\n"


def codes_at(text):
    return [(d.line, d.code) for d in lint_text(text)]


def test_noqa_variants_match_flake8():
    text = BASE + "".join(
        [
            "a = jax.tree_map(abs, [1])  # noqa: JAX801\n",  # 2 suppressed
            "b = jax.tree_map(abs, [1])  # noqa: JAX802\n",  # 3 shown
            "c = jax.tree_map(abs, [1])  # noqa: JAX8\n",  # 4 prefix
            "d = jax.tree_map(abs, [1])  # noqa\n",  # 5 blanket
            "e = jax.tree_map(abs, [1])  # noqa: JAX\n",  # 6 blanket (no digits)
            "f = jax.tree_map(abs, [1])  # NOQA : JAX101\n",  # 7 blanket (space)
            "g = jax.tree_map(abs, [1])  # noqa:E501,JAX801\n",  # 8 suppressed
            "h = jax.tree_map(abs, [1])  # jaxlint: disable=JAX801\n",  # 9 suppressed
            "i = jax.tree_map(abs, [1])  # jaxlint: disable=JAX101\n",  # 10 shown
        ]
    )
    assert codes_at(text) == [(3, "JAX801"), (10, "JAX801")]


def test_disable_comment_before_a_block():
    text = snippet(
        """
        import jax

        # jaxlint: disable=JAX801
        def f():
            a = jax.tree_map(abs, [1])
            return jax.tree_leaves(a)

        b = jax.tree_map(abs, [1])
        """
    )
    assert codes_at(text) == [(8, "JAX801")]


def test_disable_comment_before_decorated_block():
    text = snippet(
        """
        import jax

        # jaxlint: disable=JAX130
        @jax.jit
        def f(x):
            return x[x > 0]

        @jax.jit
        def g(x):
            return x[x > 0]
        """
    )
    # a default rule (JAX130; JAX101 is preview after the v17 check set, JAX201 after v18)
    assert codes_at(text) == [(10, "JAX130")]


# -- file-level, bare disable, flake8 ranges --------------------------------------------------


def test_disable_file_all_and_codes():
    body = "a = jax.tree_map(abs, [1])\nb = jax.tree_leaves([1])\n"
    assert codes_at(BASE + "# jaxlint: disable-file\n" + body) == []
    assert codes_at(BASE + body + "# jaxlint: disable-file=JAX801\n") == []
    # a trailing disable-file counts too; other codes stay reported
    text = BASE + "x = 1  # jaxlint: disable-file=JAX9\n" + body
    assert [c for _, c in codes_at(text)] == ["JAX801", "JAX801"]


def test_flake8_file_noqa_without_codes_only():
    body = "a = jax.tree_map(abs, [1])\n"
    file_noqa = "# flake8" + ": noqa"  # split so that ruff and flake8 skip nothing here
    assert codes_at(BASE + file_noqa + "\n" + body) == []
    # flake8 ignores the comment with codes (it warns), and so do we
    assert codes_at(BASE + file_noqa + ": JAX801\n" + body) == [(3, "JAX801")]


def test_bare_disable_is_a_blanket_like_bare_noqa():
    text = snippet(
        """
        import jax
        a = jax.tree_map(abs, [1])  # jaxlint: disable

        # jaxlint: disable
        def f():
            return jax.tree_map(abs, [1])

        b = jax.tree_map(abs, [1])
        """
    )
    assert codes_at(text) == [(8, "JAX801")]


def test_noqa_after_a_multiline_string_covers_its_lines_as_flake8_does():
    text = (
        BASE
        + 'a = (jax.tree_map, """\nx\n""")  # noqa: JAX801\nb = jax.tree_map(\n  abs, [1])  # noqa: JAX801\n'
    )
    # the string's range is lines 2-4; the call's noqa on its closing line does not cover line 5
    assert codes_at(text) == [(5, "JAX801")]


# -- JAX001 --------------------------------------------------------------------------------


def _with_unused(text, extra=("JAX801",)):
    from jaxlint.engine import LintOptions

    return lint_text(text, "m.py", LintOptions(codes=frozenset({"JAX001", *extra})))


def test_unused_codes_are_reported_and_removed():
    from jaxlint.engine import LintOptions, fix_text

    text = BASE + "".join(
        [
            "a = jax.tree_map(abs, [1])  # noqa: JAX801, JAX802, E501\n",  # JAX802 not selected
            "b = 1  # noqa: JAX801\n",  # unused
            "c = 1  # noqa: E501\n",  # not ours
            "d = 1  # noqa\n",  # bare: may be flake8's
            "e = '# noqa: JAX801'\n",  # a string, not a comment
            "f = 1  # noqa: JAX801  # keep me\n",
            "# jaxlint: disable=JAX801\n",
            "g = 1\n",
            "h = jax.tree_map(abs, [1])  # jaxlint: disable=JAX801,JAX110\n",
        ]
    )
    diags = _with_unused(text, ("JAX801", "JAX110"))
    got = [(d.line, d.code, d.message) for d in diags]
    assert got == [
        (3, "JAX001", "Unused `noqa` directive (unused: `JAX801`)"),
        (7, "JAX001", "Unused `noqa` directive (unused: `JAX801`)"),
        (8, "JAX001", "Unused `jaxlint: disable` directive (unused: `JAX801`)"),
        (10, "JAX001", "Unused `jaxlint: disable` directive (unused: `JAX110`)"),
    ]
    opts = LintOptions(codes=frozenset({"JAX001", "JAX801", "JAX110"}))
    fixed = fix_text(text, "m.py", opts).text
    assert fixed == BASE + "".join(
        [
            "a = jax.tree_map(abs, [1])  # noqa: JAX801, JAX802, E501\n",
            "b = 1\n",
            "c = 1  # noqa: E501\n",
            "d = 1  # noqa\n",
            "e = '# noqa: JAX801'\n",
            "f = 1  # keep me\n",
            "g = 1\n",
            "h = jax.tree_map(abs, [1])  # jaxlint: disable=JAX801\n",
        ]
    )
    assert [d.code for d in _with_unused(fixed, ("JAX801", "JAX110"))] == []


def test_unused_is_opt_in_and_can_be_silenced():
    text = BASE + "b = 1  # noqa: JAX801\n"
    assert codes_at(text) == []  # not selected by default
    assert [d.code for d in _with_unused(text)] == ["JAX001"]
    assert _with_unused(BASE + "# jaxlint: disable-file=JAX001\nb = 1  # noqa: JAX801\n") == []
    assert _with_unused(BASE + "b = 1  # noqa: JAX801, JAX001\n") == []


def test_unused_runs_on_files_without_jax_names():
    assert [d.code for d in _with_unused("b = 1  # noqa: JAX801\n")] == ["JAX001"]


def test_a_noqa_on_a_counted_jax701_request_is_used():
    # JAX701 reports once per module; a request whose line carries a JAX701 noqa comment is still
    # reported (then suppressed), so JAX001 sees the comment working and keeps it
    text = (
        "import jax.numpy as jnp\n"
        "b = jnp.zeros((3,), dtype=jnp.float64)  # no"
        "qa: JAX701\n"
        "c = jnp.zeros((3,), dtype=jnp.float64)\n"
    )
    got = [(d.line, d.code) for d in _with_unused(text, ("JAX701",))]
    assert got == [(3, "JAX701")]


# -- --add-noqa (the CLI, for real) --------------------------------------------------------

ADOPT = (
    "import jax\n"
    "a = jax.tree_map(abs, [1])\n"
    "b = jax.tree_map(abs, [1])  # noqa: E501\n"
    "c = jax.tree_map(abs, [1])  # why: legacy\n"
    'd = (jax.tree_map, """\n'
    "text\n"
    '""")\n'
    "e = jax.tree_map(\\\n"
    "    abs, [1])\n"
    "f = jax.tree_map(abs, [1]); g = jax.tree_leaves([1])\n"
)


def test_add_noqa_marks_every_finding_where_flake8_honours_it(tmp_path, run_cli):
    p = tmp_path / "old.py"
    p.write_bytes(ADOPT.replace("\n", "\r\n").encode())
    p.chmod(0o640)
    before = json.loads(run_cli("check", "--format", "json", "old.py").stdout)
    assert len(before) == 7
    proc = run_cli("check", "--add-noqa", "old.py")
    assert proc.returncode == 0, proc.stderr
    assert "Added 6 noqa directives." in proc.stderr
    assert p.read_bytes().decode() == (
        "import jax\n"
        "a = jax.tree_map(abs, [1])  # noqa: JAX801\n"
        "b = jax.tree_map(abs, [1])  # noqa: E501, JAX801\n"
        "c = jax.tree_map(abs, [1])  # why: legacy  # noqa: JAX801\n"
        'd = (jax.tree_map, """\n'
        "text\n"
        '""")  # noqa: JAX801\n'
        "e = jax.tree_map(\\\n"
        "    abs, [1])  # noqa: JAX801\n"
        "f = jax.tree_map(abs, [1]); g = jax.tree_leaves([1])  # noqa: JAX801\n"
    ).replace("\n", "\r\n")
    assert oct(p.stat().st_mode & 0o777) == oct(0o640)
    assert run_cli("check", "old.py").returncode == 0
    again = run_cli("check", "--add-noqa", "old.py")
    assert "Added 0 noqa directives." in again.stderr
    # flake8 agrees that everything is suppressed
    import subprocess
    import sys

    f8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX", "old.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert f8.stdout == "" and f8.returncode == 0, f8.stdout
    # and JAX001 finds every added comment used
    assert run_cli("check", "--extend-select", "JAX001", "old.py").returncode == 0


def test_add_noqa_refuses_fix_and_stdin(run_cli):
    assert run_cli("check", "--add-noqa", "--fix", ".").returncode == 2
    assert run_cli("check", "--add-noqa", "-", input="x = 1\n").returncode == 2


def test_noqa_ranges_need_no_tokenizing_in_the_common_case(monkeypatch):
    import jaxlint.core.suppressions as sup_mod

    calls = []
    real = sup_mod.token_ranges
    monkeypatch.setattr(sup_mod, "token_ranges", lambda t: calls.append(t) or real(t))
    plain = BASE + '"""Docs."""\na = jax.tree_map(abs, [1])  # noqa: JAX801\n'
    assert codes_at(plain) == [] and calls == []
    spanning = BASE + 'a = (jax.tree_map, """\nx\n""")  # noqa: JAX801\n'
    assert codes_at(spanning) == [] and len(calls) == 1


def test_unused_suppression_cli_reports_and_fixes(tmp_path, run_cli):
    (tmp_path / "pkg").mkdir()
    p = tmp_path / "pkg" / "m.py"
    p.write_text(
        "import jax\n"
        "a = jax.tree_map(abs, [1])  # noqa: JAX801\n"
        "b = 1  # noqa: JAX801, E501\n"
        "# jaxlint: disable=JAX130\n"  # a default rule (JAX101, JAX201: preview after v17, v18)
        "c = 2\n"
    )
    proc = run_cli("check", "--extend-select", "JAX001", "--format", "concise", "pkg")
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[:2] == [
        "pkg/m.py:3:8: JAX001 [*] Unused `noqa` directive (unused: `JAX801`)",
        "pkg/m.py:4:1: JAX001 [*] Unused `jaxlint: disable` directive (unused: `JAX130`)",
    ]
    assert run_cli("check", "pkg").returncode == 0  # opt-in: silent by default
    fixed = run_cli("check", "--extend-select", "JAX001", "--fix", "pkg")
    assert fixed.returncode == 0, fixed.stdout
    assert p.read_text() == (
        "import jax\na = jax.tree_map(abs, [1])  # noqa: JAX801\nb = 1  # noqa: E501\nc = 2\n"
    )
    explain = run_cli("explain", "JAX001")
    assert explain.returncode == 0 and "unused-suppression" in explain.stdout


def test_add_noqa_over_a_folder(tmp_path, run_cli):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.py", "b.py"):
        (src / name).write_text("import jax\nx = jax.tree_map(abs, [1])\n")
    (src / "clean.py").write_text("x = 1\n")
    (src / "nb.ipynb").write_text(
        '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    )
    proc = run_cli("check", "--add-noqa", "src")
    assert proc.returncode == 0
    assert "Added 2 noqa directives." in proc.stderr and "nb.ipynb" not in proc.stderr
    assert (src / "b.py").read_text().endswith("x = jax.tree_map(abs, [1])  # noqa: JAX801\n")
    assert (src / "clean.py").read_text() == "x = 1\n"
    assert run_cli("check", "src").returncode == 0


def test_file_level_and_bare_disables_through_the_cli(tmp_path, run_cli):
    body = "import jax\na = jax.tree_map(abs, [1])\nb = jax.tree_leaves([1])\n"
    (tmp_path / "off.py").write_text("# jaxlint: disable-file\n" + body)
    (tmp_path / "some.py").write_text("# jaxlint: disable-file=JAX801\n" + body)
    (tmp_path / "f8.py").write_text("# flake8" + ": noqa\n" + body)
    (tmp_path / "bare.py").write_text(body.replace("[1])\nb", "[1])  # jaxlint: disable\nb"))
    proc = run_cli("check", "--format", "json", ".")
    rows = json.loads(proc.stdout)
    found = sorted((d["filename"].removeprefix("./"), d["location"]["row"]) for d in rows)
    assert found == [("bare.py", 3)]


def test_codes_are_case_sensitive_like_ruff_and_flake8():
    """`# noqa: jax101` names no code: it suppresses nothing (it is not a blanket noqa
    either), `miscased` finds it for the warning; upper-case codes and any case of the
    `noqa` keyword work as before."""
    from jaxlint.core.diagnostic import Diagnostic, Span
    from jaxlint.core.suppressions import collect, miscased

    lines = [
        "x = 1  # noqa: jax101",
        "y = 1  # NoQA: JAX101",
        "z = 1  # jaxlint: disable=jax1",
        "w = 1  # noqa: jax101, JAX1",
    ]
    sup = collect(lines)
    found = [Diagnostic("JAX101", "m", "t.py", Span.of(n, 0, n, 1)) for n in (1, 2, 3, 4)]
    assert [sup.suppresses(d) for d in found] == [False, True, False, True]
    assert [(d.line, c) for d, c in miscased(lines, found)] == [
        (1, "jax101"),
        (3, "jax1"),
        (4, "jax101"),
    ]
    assert miscased(["x = 1  # noqa: JAX101"], found[:1]) == []
