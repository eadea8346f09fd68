"""`--fix`, `--unsafe-fixes`, `--diff`: only what is asked, never corrupting, idempotent."""

from __future__ import annotations

import json
import os
import stat

from jaxlint.core.diagnostic import Edit, Fix
from jaxlint.engine import LintOptions, fix_text
from jaxlint.rules import Context, Rule
from tests.conftest import snippet

SRC = snippet(
    """
    import jax
    import jax.numpy as jnp


    def f(key):
        y = jnp.zeros(3)
        y.at[0].set(1.0)  # comment stays
        a = jax.random.normal(key)
        b = jax.random.normal(key)
        return jax.tree_map(abs, [y, a, b])
    """
)  # JAX504 (line 7): a rule whose safe fix rewrites a statement that has a comment (in preview
# since the v14 check set, so these runs turn preview on: `P`); JAX201 (unsafe fix); JAX801
P = "--preview"


def test_fix_applies_safe_only_and_reports(tmp_path, run_cli):
    p = tmp_path / "m.py"
    p.write_text(SRC)
    proc = run_cli("check", "--fix", P, "m.py")
    assert proc.returncode == 1  # the unsafe one remains
    text = p.read_text()
    assert "y = y.at[0].set(1.0)  # comment stays" in text
    assert "jax.tree.map(abs" in text
    assert "subkey" not in text
    assert (
        "Fixed 2 findings in 1 file; 1 remaining, 1 with unsafe fixes (use --unsafe-fixes)."
        in proc.stdout
    )
    again = run_cli("check", "--fix", P, "m.py")
    assert p.read_text() == text
    assert "No fixes applied; 1 finding remaining" in again.stdout


def test_unsafe_fixes(tmp_path, run_cli):
    p = tmp_path / "m.py"
    p.write_text(SRC)
    proc = run_cli("check", "--fix", "--unsafe-fixes", P, "m.py")
    assert proc.returncode == 0, proc.stdout
    assert "key, subkey = jax.random.split(key)" in p.read_text()


def test_diff_writes_nothing(tmp_path, run_cli):
    p = tmp_path / "m.py"
    p.write_text(SRC)
    proc = run_cli("check", "--diff", P, "m.py")
    assert proc.returncode == 1
    assert p.read_text() == SRC
    assert "-    y.at[0].set(1.0)  # comment stays" in proc.stdout
    assert "+    y = y.at[0].set(1.0)  # comment stays" in proc.stdout
    clean = tmp_path / "c.py"
    clean.write_text("x = 1\n")
    assert run_cli("check", "--diff", "c.py").returncode == 0


def test_show_fixes_and_fixable_mark(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(SRC)
    out = run_cli("check", "m.py").stdout
    assert "JAX801 [*]" in out and "JAX201 [*]" not in out
    proc = run_cli("check", "--fix", "--show-fixes", P, "m.py")
    assert "Fixed:" in proc.stdout and "JAX504" in proc.stdout


def test_bom_crlf_encoding_and_mode_preserved(tmp_path, run_cli):
    p = tmp_path / "m.py"
    body = SRC.replace("\n", "\r\n").encode("utf-8")
    p.write_bytes(b"\xef\xbb\xbf" + body)
    os.chmod(p, 0o640)
    run_cli("check", "--fix", P, "m.py")
    data = p.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert b"y = y.at[0].set(1.0)  # comment stays\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o640
    latin = tmp_path / "l.py"
    latin.write_bytes(
        "# -*- coding: latin-1 -*-\nimport jax\ns = 'caf\xe9'\nf = jax.tree_map\n".encode("latin-1")
    )
    run_cli("check", "--fix", "l.py")
    assert latin.read_bytes() == (
        "# -*- coding: latin-1 -*-\nimport jax\ns = 'caf\xe9'\nf = jax.tree.map\n".encode("latin-1")
    )


def test_no_final_newline_and_no_tmp_left(tmp_path, run_cli):
    p = tmp_path / "m.py"
    p.write_text("import jax\nf = jax.tree_map")
    run_cli("check", "--fix", "m.py")
    assert p.read_text() == "import jax\nf = jax.tree.map"
    assert [x.name for x in tmp_path.iterdir()] == ["m.py"]


class _BreaksCode(Rule):
    """A deliberately broken fix, to prove unparsable results are never produced."""

    code = "JAX998"
    name = "test-breaker"
    fix_safety = "safe"

    def visit_Name(self, node, ctx: Context):
        if node.id == "victim":
            self.report(
                node, "victim", fix=Fix((Edit(ctx.start(node), ctx.end(node), "(("),), "safe")
            )


class _GoodFix(Rule):
    code = "JAX997"
    name = "test-good"
    fix_safety = "safe"

    def visit_Name(self, node, ctx: Context):
        if node.id == "old":
            self.report(
                node, "old", fix=Fix((Edit(ctx.start(node), ctx.end(node), "new"),), "safe")
            )


def test_unparsable_fix_is_never_applied(monkeypatch):
    import jaxlint.engine as engine

    monkeypatch.setattr(engine.LintOptions, "selected", lambda self: [_BreaksCode, _GoodFix])
    result = fix_text("victim = 1\nold = 2\n", "t.py", LintOptions())
    assert result.text == "victim = 1\nnew = 2\n"
    assert [d.code for d in result.failed] == ["JAX998"]


def test_overlapping_fixes_take_several_rounds(monkeypatch):
    import jaxlint.engine as engine

    class Outer(Rule):
        code = "JAX996"
        name = "outer"
        fix_safety = "safe"

        def visit_Call(self, node, ctx):
            if ctx.text(node.func) == "f":
                self.report(
                    node,
                    "f",
                    fix=Fix((Edit(ctx.start(node.func), ctx.end(node.func), "g"),), "safe"),
                )

    class Inner(Rule):
        code = "JAX995"
        name = "inner"
        fix_safety = "safe"

        def visit_Call(self, node, ctx):
            if ctx.text(node.func) in ("f", "g") and node.args and ctx.text(node.args[0]) == "1":
                self.report(
                    node,
                    "x",
                    fix=Fix(
                        (Edit(ctx.start(node), ctx.end(node), ctx.text(node.func) + "(2)"),), "safe"
                    ),
                )

    monkeypatch.setattr(engine.LintOptions, "selected", lambda self: [Outer, Inner])
    result = fix_text("f(1)\n", "t.py", LintOptions())
    assert result.text == "g(2)\n"


def test_json_output_after_fix_lists_remaining(tmp_path, run_cli):
    (tmp_path / "m.py").write_text(SRC)
    proc = run_cli("check", "--fix", "--format", "json", "--preview", "m.py")
    data = json.loads(proc.stdout)
    assert [d["code"] for d in data] == ["JAX201"]


def test_interrupted_write_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    import pytest

    import jaxlint.files.driver as driver
    import jaxlint.files.write as write

    p = tmp_path / "m.py"
    p.write_text(SRC)

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(write.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        driver.fix_file(str(p), str(p), LintOptions(), unsafe=False, write=True)
    assert p.read_text() == SRC
    assert [x.name for x in tmp_path.iterdir()] == ["m.py"]
