"""[tool.jaxlint] discovery and options."""

from __future__ import annotations

import json

from jaxlint.core.codes import is_preview_rule
from jaxlint.core.config import Settings
from jaxlint.rules import ALL_RULES

# JAX101 at high confidence once `mylib.compiled` is known to trace `f` (a preview rule since
# the v17 check set: the tests run it with preview on)
JIT_IF = (
    "import mylib\nimport numpy as np\n\n@mylib.compiled\ndef f(x):\n    return np.asarray(x)\n"
)
TREE = "import jax\nf = jax.tree_map\n"


def test_nearest_pyproject_applies_per_folder(tmp_path, run_cli):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["JAX801"]\n')
    (tmp_path / "a" / "m.py").write_text(TREE)
    (tmp_path / "b" / "m.py").write_text(TREE)
    data = json.loads(run_cli("check", "--format", "json", ".").stdout)
    assert [d["filename"] for d in data] == ["b/m.py"]  # no `./`, as ruff prints them


def test_per_file_ignores_and_jit_decorators(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text(
        # JAX101 (the finding the decorator brings) is in preview after the v17 check set
        '[tool.jaxlint]\npreview = true\njit-decorators = ["mylib.compiled"]\n'
        '[tool.jaxlint.per-file-ignores]\n"tests/*" = ["JAX8"]\n'
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(TREE)
    (tmp_path / "m.py").write_text(JIT_IF)
    data = json.loads(run_cli("check", "--format", "json", ".").stdout)
    assert [(d["filename"], d["code"]) for d in data] == [("m.py", "JAX101")]
    # the same through the command line
    (tmp_path / "pyproject.toml").unlink()
    data = json.loads(
        run_cli(
            "check", "--format", "json", "--preview", "--jit-decorator", "mylib.compiled", "m.py"
        ).stdout
    )
    assert [d["code"] for d in data] == ["JAX101"]


def test_unknown_keys_and_codes_warn(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nselekt = ["JAX1"]\nignore = ["JAX999", "E501"]\n'
    )
    (tmp_path / "m.py").write_text(TREE)
    proc = run_cli("check", "m.py")
    assert proc.returncode == 1
    assert "unknown key `selekt`" in proc.stderr
    assert "JAX999" in proc.stderr and "E501" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_ruff_shaped_settings_are_read_or_pointed_at(tmp_path, run_cli):
    """A ruff user's first tries (a new user's report, stop 52): `extend-per-file-ignores`
    adds to `per-file-ignores` as `extend-ignore` adds to `ignore`; a `[tool.jaxlint.lint]`
    table, `--target-version` and an inline `--config KEY=VALUE` each say what jaxlint reads
    instead, rather than only "unknown"."""
    (tmp_path / "pyproject.toml").write_text(
        "[tool.jaxlint.lint]\npreview = true\n"
        '[tool.jaxlint.extend-per-file-ignores]\n"m.py" = ["JAX801"]\n'
    )
    (tmp_path / "m.py").write_text(TREE)
    proc = run_cli("check", "m.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "unknown key `lint`" in proc.stderr and "directly under [tool.jaxlint]" in proc.stderr
    proc = run_cli("check", "--target-version", "py310", "m.py")
    assert proc.returncode == 2 and "`--target-jax`" in proc.stderr
    proc = run_cli("check", "--config", "preview = true", "m.py")
    assert proc.returncode == 2 and "takes a file" in proc.stderr


def test_invalid_toml_is_a_usage_error(tmp_path, run_cli):
    (tmp_path / "cfg.toml").write_text("[tool.jaxlint\n")
    proc = run_cli("check", "--config", "cfg.toml", ".")
    assert proc.returncode == 2 and "invalid TOML" in proc.stderr


def test_selection_specificity():
    codes = {r.code: r.default for r in ALL_RULES}

    def sel(**kw):
        s = Settings(**kw)
        return {c for c, d in codes.items() if s.is_selected(c, d)}

    default = sel()
    assert all(codes[c] for c in default)
    preview = {c for c in codes if is_preview_rule(c)}
    assert preview and not preview & default
    assert sel(preview=True) == default | {c for c in preview if codes[c]}
    assert sel(select=("ALL",)) == set(codes) - preview
    assert sel(select=("ALL",), preview=True) == set(codes)
    # JAX101 (preview after the v17 check set) and JAX111 (after v13): with preview only
    assert not sel(ignore=("JAX1",), extend_select=("JAX101",)) & {"JAX101", "JAX120"}
    assert sel(ignore=("JAX1",), extend_select=("JAX101",), preview=True) & {
        "JAX101",
        "JAX120",
    } == {"JAX101"}
    # JAX103 is a preview rule: extend-select names it, but only preview mode runs it
    assert not sel(ignore=("JAX1",), extend_select=("JAX103",)) & {"JAX103", "JAX101"}
    assert sel(ignore=("JAX1",), extend_select=("JAX103",), preview=True) & {
        "JAX103",
        "JAX101",
    } == {"JAX103"}
    # so is JAX103 since the v9 check set: named by its exact code it still needs preview
    assert "JAX103" not in sel(select=("JAX103",))
    assert sel(select=("JAX103",), preview=True) == {"JAX103"}
    # and JAX111 and JAX703 since the v13 check set, JAX101 since v17 (JAX501 left on v13
    # and came back on v20)
    for c in ("JAX101", "JAX111", "JAX703"):
        assert c not in default and c not in sel(select=(c,))
        assert sel(select=(c,), preview=True) == {c}
    opt_in = [c for c, d in codes.items() if not d]
    for c in opt_in:
        assert c not in default
        assert c in sel(extend_select=(c,))
        assert c not in sel(select=("JAX",))


def test_rules_doc_is_current():
    import os

    from jaxlint.docgen import render
    from tests.conftest import ROOT

    with open(os.path.join(ROOT, "docs", "rules.md"), encoding="utf-8") as fh:
        assert fh.read() == render(), "run `python -m jaxlint.docgen > docs/rules.md`"


def test_a_siblings_config_is_not_warned_about(tmp_path, run_cli):
    """Linting one file under a folder without project markers (a file in /tmp) indexes its
    siblings for cross-module facts, which reads their configurations: a warning about a
    sibling project's config is not this run's business (seen at stop 53: `jaxlint check
    /tmp/t.py` warned about /tmp/cfgt/pyproject.toml). The linted folder's own is still warned
    about."""
    sibling = tmp_path / "other"
    sibling.mkdir()
    (sibling / "pyproject.toml").write_text("[tool.jaxlint.lint]\npreview = true\n")
    (sibling / "s.py").write_text(TREE)
    (tmp_path / "m.py").write_text(TREE)
    proc = run_cli("check", "--no-cache", "m.py")
    assert "other" not in proc.stderr and "unknown key" not in proc.stderr, proc.stderr
    proc = run_cli("check", "--no-cache", "other/s.py")
    assert "unknown key `lint`" in proc.stderr
