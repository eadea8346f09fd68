"""The target JAX version: where it comes from, and how the removed-API rules follow it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.core.config import ConfigResolver, Settings
from jaxlint.core.errors import UsageError
from jaxlint.core.jaxversion import (
    CHANGES_011_012,
    declared,
    exact,
    from_specifier,
    newest,
    parse_version,
    resolve,
)
from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.rules import ALL_RULES, get_rule
from jaxlint.rules.deprecations import RenameRule


@pytest.fixture(autouse=True)
def _no_ambient_target(monkeypatch):
    monkeypatch.delenv("JAXLINT_TARGET_JAX", raising=False)


TARGETS = ("0.6", "0.6.2", "0.8", "0.10", "0.10.2", "0.11", "0.11.1", "0.12", "0.12.0.1")


def lint(code: str, target: str | None, codes: tuple[str, ...] = ("JAX806",)):
    settings = Settings(target_jax=target, target_jax_source="test")
    return lint_text(
        textwrap.dedent(code), "t.py", LintOptions(codes=frozenset(codes), settings=settings)
    )


def fix(code: str, target: str, codes: tuple[str, ...], unsafe: bool = False) -> str:
    settings = Settings(target_jax=target, target_jax_source="test")
    opts = LintOptions(codes=frozenset(codes), settings=settings)
    return fix_text(textwrap.dedent(code), "t.py", opts, unsafe=unsafe).text


# -- versions and constraints ------------------------------------------------------------------


def test_parse_version():
    assert parse_version("0.12.0.1") == (0, 12, 0, 1)
    assert parse_version("v0.4.36.dev20241001") == (0, 4, 36)
    assert parse_version("0.10.2rc1") == (0, 10, 2)
    with pytest.raises(ValueError):
        parse_version("latest")


@pytest.mark.parametrize(
    ("spec", "low", "high"),
    [
        (">=0.6,<0.11", (0, 6, 0), (0, 10, 999)),
        ("==0.10.2", (0, 10, 2), (0, 10, 2)),
        ("==0.11.*", (0, 11, 0), (0, 11, 999)),
        ("~=0.10.1", (0, 10, 1), (0, 10, 999)),
        (">=0.4.30", (0, 4, 30), (0, 12, 999)),  # kept as written, below the tables
        (">=0.4.20,<0.5", (0, 4, 20), (0, 4, 999)),  # never clamped up to 0.6
        ("==0.5.3", (0, 5, 3), (0, 5, 3)),
        ("^0.4.30", (0, 4, 30), (0, 4, 999)),
        ("<0.5", (0, 4, 0), (0, 4, 999)),  # no lower bound: the upper bound's series
        (">=0.13", (0, 13, 0), (0, 13, 999)),  # newer than the tables
        ("<=0.8", (0, 6, 0), (0, 8, 999)),
        ("^0.10", (0, 10, 0), (0, 10, 999)),
    ],
)
def test_specifiers(spec, low, high):
    t = from_specifier(spec, "x")
    assert (t.low, t.high) == (low, high)


def test_no_version_in_specifier():
    assert from_specifier("", "x") is None
    assert from_specifier("[cuda12]", "x") is None


def test_declared_pyproject_then_requirements(tmp_path: Path):
    assert declared(str(tmp_path)) is None
    (tmp_path / "requirements.txt").write_text(
        "numpy\njax[cuda12]==0.6.2 ; python_version<'3.11'\n"
    )
    found = declared(str(tmp_path))
    assert found.text() == "0.6.2" and "requirements.txt" in found.source
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["jax>=0.10,<0.11", "jaxtyping"]\n'
    )
    found = declared(str(tmp_path))
    assert found.text() == "0.10" and "pyproject.toml" in found.source


def test_poetry_constraint(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.poetry.dependencies]\njax = "^0.11"\n')
    assert declared(str(tmp_path)).low == (0, 11, 0)


def test_precedence(tmp_path: Path):
    root = tmp_path
    tmp_path = root / "a"
    tmp_path.mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["jax==0.6.2"]\n\n[tool.jaxlint]\ntarget-jax = "0.10"\n'
    )
    s = ConfigResolver().for_path(str(tmp_path / "a.py"))
    assert s.jax_target().text() == "0.10" and "target-jax" in s.jax_target().source
    s = ConfigResolver(overrides={"target_jax": "0.12"}).for_path(str(tmp_path / "a.py"))
    assert s.jax_target().text() == "0.12" and s.jax_target().source == "--target-jax"
    other = root / "b" / "sub"
    other.mkdir(parents=True)
    (other / "pyproject.toml").write_text('[project]\nname = "q"\ndependencies = ["jax==0.6.2"]\n')
    s = ConfigResolver().for_path(str(other / "a.py"))
    assert s.jax_target().text() == "0.6.2"
    # nothing declared: the installed jax (metadata), else the newest
    bare = resolve(None, None, str(tmp_path / "nowhere"))
    assert "installed jax" in bare.source or bare == newest()


def test_settings_built_in_code_target_the_newest():
    assert Settings().jax_target() == newest()


TREE_MAP = "import jax\ny = jax.tree_map(abs, [1])\n"


def _findings(settings: Settings, code: str = TREE_MAP) -> list[str]:
    opts = LintOptions(codes=frozenset({"JAX801"}), settings=settings)
    return [
        f"{d.message} [{d.fix.safety if d.fix else '-'}]" for d in lint_text(code, "t.py", opts)
    ]


@pytest.mark.parametrize(
    ("name", "text", "shown"),
    [
        ("requirements.txt", "jax[cuda12]>=0.4.20,<0.5\n", "0.4.20 - 0.4"),
        ("pyproject.toml", '[project]\nname = "p"\ndependencies = ["jax==0.5.3"]\n', "0.5.3"),
        ("pyproject.toml", '[tool.poetry.dependencies]\njax = "^0.4.30"\n', "0.4.30 - 0.4"),
        ("pyproject.toml", '[tool.poetry.dependencies]\njax = "0.5.3"\n', "0.5.3"),  # a pin
    ],
)
def test_requirement_below_the_tables_is_judged_within_it(
    tmp_path: Path, monkeypatch, name, text, shown
):
    """Issue 27 item 4: a requirement older than the tables was clamped to 0.6.0, so
    `jax<0.5` heard "removed in JAX 0.6" about an API its JAX still has."""
    monkeypatch.chdir(tmp_path)  # a project without pyproject.toml is rooted at the cwd
    (tmp_path / name).write_text(text)
    settings = ConfigResolver().for_path(str(tmp_path / "t.py"))
    target = settings.jax_target()
    assert target.text() == shown and target.low < (0, 6, 0)
    (found,) = _findings(settings)
    assert "deprecated since JAX 0.4.26" in found and "was removed" not in found
    note = target.coverage_note()
    assert note is not None and "older than jaxlint's version tables" in note
    assert "\n" not in note


def test_pinned_requirement_and_target_jax_give_the_same_findings(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["jax==0.5.3"]\n'
    )
    declared_settings = ConfigResolver().for_path(str(tmp_path / "t.py"))
    flag = ConfigResolver(overrides={"target_jax": "0.5.3"}).for_path(str(tmp_path / "t.py"))
    assert declared_settings.jax_target().key() == flag.jax_target().key()
    assert _findings(declared_settings) == _findings(flag) != []
    same = from_specifier(">=0.4.20,<0.5", "a"), exact("0.4.20", "b")
    assert same[0].low == same[1].low


def test_inside_the_tables_nothing_changes(tmp_path: Path):
    assert from_specifier(">=0.6,<0.11", "x").coverage_note() is None
    assert exact("0.12.0.1", "x").coverage_note() is None
    assert "newer than" in exact("0.13", "x").coverage_note()
    (found,) = _findings(Settings(target_jax="0.12", target_jax_source="t"))
    assert "was removed in JAX 0.6" in found and found.endswith("[safe]")


def test_a_target_below_the_tables_makes_undated_fixes_unsafe():
    """Below JAX 0.6 the tables cannot say a replacement exists: `since=None` is not "every
    target has it" there (`jax.tree.map` needs 0.4.25; the range starts at 0.4.20)."""
    t = from_specifier(">=0.4.20,<0.5", "x")
    assert not t.all_have(None) and t.some_have(None)
    assert t.availability("0.4.25") == "unsafe"
    (found,) = _findings(Settings(target_jax=">=0.4.20,<0.5", target_jax_source="t"))
    assert found.endswith("[unsafe]")


def test_the_coverage_note_is_one_warning_line(tmp_path: Path, capsys, monkeypatch):
    from jaxlint.cli import main

    (tmp_path / "requirements.txt").write_text("jax>=0.4.20,<0.5\n")
    (tmp_path / "t.py").write_text(TREE_MAP)
    (tmp_path / "u.py").write_text(TREE_MAP)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "--select", "JAX801", "t.py", "u.py"]) == 1
    err = capsys.readouterr().err
    notes = [ln for ln in err.splitlines() if "older than jaxlint's version tables" in ln]
    assert len(notes) == 1 and notes[0].startswith("jaxlint: warning: target JAX 0.4.20 - 0.4")
    assert main(["check", "--show-settings", "t.py"]) == 0
    out = capsys.readouterr().out
    assert 'target-jax = "0.4.20 - 0.4"' in out and "# note: target JAX" in out


@pytest.mark.parametrize("bad", ["0.6-0.12", ">=0.6 <0.7", "latest", "0.12,", "!=0.5", "0.6..12"])
def test_unparsable_target_jax_is_rejected_with_the_accepted_forms(bad, capsys):
    from jaxlint.cli import main

    with pytest.raises(UsageError, match="not understood; use a version"):
        from jaxlint.core.jaxversion import check

        check(bad, "--target-jax")
    assert main(["check", "--target-jax", bad, "--show-settings", "x.py"]) == 2
    assert '">=0.6,<0.11"' in capsys.readouterr().err


@pytest.mark.parametrize(
    "good", ["0.12", "0.12.0.1", "0.10.2rc1", ">=0.6,<0.11", "^0.4.30", "~=0.10.0", "==0.11.*"]
)
def test_accepted_target_jax_forms(good):
    from jaxlint.core.jaxversion import check

    assert check(good, "--target-jax") == good


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("  - jax=0.4.30", "0.4.30"),
        ("  - conda-forge::jax>=0.4.20,<0.5", "0.4.20 - 0.4"),
        ('  - "jax 0.5.*"', "0.5"),
        ("    - jax[cuda12]==0.10.2  # pip section", "0.10.2"),
    ],
)
def test_conda_environment_file(tmp_path: Path, line, shown):
    (tmp_path / "environment.yml").write_text(
        f"name: x\ndependencies:\n  - python=3.11\n  - jaxlib=0.1\n  - pip:\n{line}\n"
    )
    found = declared(str(tmp_path))
    assert found is not None and found.text() == shown and "environment.yml" in found.source


def test_invalid_target_is_a_usage_error(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\ntarget-jax = "newest"\n')
    with pytest.raises(UsageError):
        ConfigResolver().for_path(str(tmp_path / "a.py"))


# -- rules follow the target --------------------------------------------------------------------

CALL_PRIMITIVE = """
import jax

p = jax.core.CallPrimitive("call")
"""


def test_finding_fires_only_from_the_deprecating_version():
    assert lint(CALL_PRIMITIVE, "0.6.2") == []  # fine on 0.6: the only spelling there
    (d,) = lint(CALL_PRIMITIVE, "0.10.2")
    assert "deprecated since JAX 0.10 (removed in JAX 0.11)" in d.message
    assert d.fix is not None and d.fix.safety == "safe"
    (d,) = lint(CALL_PRIMITIVE, "0.12")
    assert "was removed in JAX 0.11" in d.message
    assert d.fix is None and "create_call_primitive" in d.message  # no drop-in on 0.12


def test_a_range_makes_the_fix_unsafe():
    (d,) = lint(CALL_PRIMITIVE, ">=0.10,<0.11.1")
    assert d.fix is not None and d.fix.safety == "safe"
    (d,) = lint("import jax\nf = jax.core.new_jaxpr_eqn\n", ">=0.6")
    assert d.fix is not None and d.fix.safety == "unsafe"  # jax.extend.core has it from 0.10


def test_fix_under_each_target_never_writes_a_missing_api():
    code = """
    import jax
    from jax.experimental import enable_x64

    with enable_x64():
        y = jax.lax.pvary(1.0, "i")
    """
    assert fix(code, "0.10", ("JAX810",)).count("jax.enable_x64(True)") == 1
    assert "pcast" in fix(code, "0.10", ("JAX810",))
    assert fix(code, "0.6", ("JAX810",)) == textwrap.dedent(code)  # nothing removed yet on 0.6
    assert fix(code, ">=0.6", ("JAX810",)) == textwrap.dedent(code)  # safe fixes only


def test_idiom_rules_recommend_what_the_target_has():
    mesh = """
    import jax

    mesh = jax.make_mesh((1,), ("x",))
    with mesh:
        pass
    """
    assert lint(mesh, "0.6", ("JAX305",)) == []  # `with mesh:` is not deprecated before 0.10.1
    (d,) = lint(mesh, "0.12", ("JAX305",))
    assert d.fix.safety == "unsafe"  # never safe: see test_jax305_fix_is_unsafe_with_the_reason
    (d,) = lint(mesh, ">=0.6", ("JAX305",))
    assert d.fix.safety == "unsafe"
    assert "0.7.1" in d.fix.message  # jax.set_mesh needs 0.7.1
    pmap = "import jax\nstep = jax.pmap(lambda x: x, axis_name='i')\n"
    assert "jax.P(" in fix(pmap, "0.12", ("JAX301",), unsafe=True)
    old = fix(pmap, "0.6", ("JAX301",), unsafe=True)
    assert "jax.P(" not in old and "jax.sharding.PartitionSpec(" in old


def test_jax305_fix_is_unsafe_with_the_reason():
    """`jax.set_mesh` activates flax's logical constraints and nnx's eager sharding, which
    `with mesh:` left inert, so the rewrite can raise on code that ran: never a safe fix,
    and the user reads why where the fix is offered."""
    mesh = "import jax\nmesh = jax.make_mesh((1,), ('x',))\nwith mesh:\n    pass\n"
    (d,) = lint(mesh, "0.12", ("JAX305",))
    assert d.fix is not None and d.fix.safety == "unsafe"
    assert "flax" in d.fix.message and "nnx" in d.fix.message
    assert "0.7.1" not in d.fix.message  # the target has set_mesh: only the flax reason
    assert fix(mesh, "0.12", ("JAX305",)) == mesh  # not applied by a plain --fix
    assert "jax.set_mesh(mesh)" in fix(mesh, "0.12", ("JAX305",), unsafe=True)
    assert get_rule("JAX305").fix_safety == "unsafe"


def test_config_deletion_is_safe_only_when_every_target_lacks_the_option():
    code = 'import jax\njax.config.update("jax_pmap_shmap_merge", True)\n'
    assert lint(code, "0.6", ("JAX302",)) == []
    (d,) = lint(code, "0.10", ("JAX302",))
    assert d.fix.safety == "safe"
    (d,) = lint(code, ">=0.6", ("JAX302",))
    assert d.fix.safety == "unsafe"  # on 0.6 the line still selects the other pmap
    effort = 'import jax\njax.config.update("jax_memory_fitting_effort", 0.5)\n'
    assert lint(effort, "0.10", ("JAX808",)) == []
    (d,) = lint(effort, "0.12", ("JAX808",))
    assert "0.11.1" in d.message and "jax_memory_fitting_level" in d.message


def test_new_behaviour_rules_need_a_new_enough_target():
    empty = "import jax.numpy as jnp\nacc = jnp.empty(3)\nacc += 1\n"
    assert lint(empty, "0.10", ("JAX812",)) == []
    assert len(lint(empty, "0.11", ("JAX812",))) == 1
    mesh = 'import jax\nm = jax.make_mesh(axis_shapes=(1,), axis_names=("x",))\n'
    assert lint(mesh, "0.10", ("JAX811",)) == []
    (d,) = lint(mesh, "0.12", ("JAX811",))
    assert d.fix.safety == "safe"


@pytest.mark.parametrize("target", TARGETS)
def test_safe_moves_exist_in_every_target_jax(target):
    t = exact(target, "test") if target[0].isdigit() else from_specifier(target, "test")
    for rule in ALL_RULES:
        if not (isinstance(rule, type) and issubclass(rule, RenameRule)):
            continue
        applying, _ = rule.moves_for(t)
        for old, move in applying.items():
            raw = rule._moves[old]
            if move.new and move.new.startswith("jax") and move.safety == "safe":
                assert t.all_have(raw.since, raw.until), (rule.code, old, target)
            assert t.reaches(raw.first), (rule.code, old, target)


# -- the catalogue of JAX 0.11 / 0.12 changes ----------------------------------------------------


@pytest.mark.parametrize("change", CHANGES_011_012, ids=lambda c: c.token)
def test_every_011_012_change_is_covered_or_out_of_scope(change):
    if change.code is None:
        assert change.out_of_scope, change
        return
    rule = get_rule(change.code)
    assert rule is not None, change
    text = rule.docs() + "".join(rule.examples.invalid) + repr(getattr(rule, "RENAMES", ""))
    assert change.token in text, change


# -- the command line ---------------------------------------------------------------------------


def jaxlint(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "JAXLINT_TARGET_JAX"}
    return subprocess.run(
        [sys.executable, "-m", "jaxlint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**full, **(env or {})},
    )


def test_cli_target_jax_and_show_settings(tmp_path: Path):
    (tmp_path / "m.py").write_text(CALL_PRIMITIVE)
    proc = jaxlint("check", "--no-cache", "--target-jax", "0.6", "m.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = jaxlint("check", "--no-cache", "--target-jax", "0.12", "m.py", cwd=tmp_path)
    assert proc.returncode == 1 and "removed in JAX 0.11" in proc.stdout
    proc = jaxlint("check", "--target-jax", "0.12", "--show-settings", "m.py", cwd=tmp_path)
    assert proc.returncode == 0 and 'target-jax = "0.12"  # from --target-jax' in proc.stdout
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\ndependencies = ["jax==0.10.2"]\n'
    )
    proc = jaxlint("check", "--show-settings", "m.py", cwd=tmp_path)
    assert 'target-jax = "0.10.2"  # from ' in proc.stdout and "pyproject.toml" in proc.stdout
    proc = jaxlint("check", "--no-cache", "--target-jax", "soon", "m.py", cwd=tmp_path)
    assert proc.returncode == 2 and "target-jax" in proc.stderr
    proc = jaxlint(
        "check", "--show-settings", "m.py", cwd=tmp_path, env={"JAXLINT_TARGET_JAX": "0.11"}
    )
    assert 'target-jax = "0.11"  # from $JAXLINT_TARGET_JAX' in proc.stdout


def test_jit_decorator_factory_only_from_0_8_1():
    code = """
    import jax


    @jax.jit
    def step(state, x):
        return state + x


    def train(state, xs):
        for x in xs:
            state = step(state, x)
        return state
    """
    assert "@jax.jit(donate_argnums=0)" in fix(code, "0.12", ("JAX406",), unsafe=True)
    old = fix(code, "0.6", ("JAX406",), unsafe=True)
    assert "@functools.partial(jax.jit, donate_argnums=0)" in old and "import functools" in old


def test_compatible_release_of_a_minor_shows_its_series() -> None:
    """PEP 440: `~=0.5` is `>=0.5, ==0.*`; its upper bound read "0.5 - 0" in the target
    warning (seen on the v4 precision corpus)."""
    target = from_specifier("~=0.5", "requirements.txt: jax~=0.5")
    assert target is not None and target.text() == "0.5 - 0.x"
    assert target.reaches("0.12") and not target.reaches("1.0") and target.low == (0, 5, 0)


def test_clip_min_max_fix_is_safe_only_where_every_target_has_them():
    """`jnp.clip(min=, max=)` exists from JAX 0.4.27 (0.4.26: `TypeError: clip() got an
    unexpected keyword argument 'max'`): for a target reaching below it (coax, `jax>=0.3.25`:
    new-user review 4) the rename is unsafe, not applied by a plain `--fix`."""
    code = """
    import jax.numpy as jnp

    def f(x):
        return jnp.clip(x, a_min=0.0, a_max=1.0)
    """
    renamed = "jnp.clip(x, min=0.0, max=1.0)"
    assert renamed in fix(code, ">=0.6", ("JAX811",))
    assert renamed not in fix(code, ">=0.4.20", ("JAX811",))
    assert renamed in fix(code, ">=0.4.20", ("JAX811",), unsafe=True)
    assert [d.code for d in lint(code, ">=0.4.20", ("JAX811",))] == ["JAX811"]


def test_pmap_rewrite_needs_a_target_with_jax_shard_map():
    """JAX301's rewrite writes `jax.shard_map` (JAX 0.6.1 on): a project pinned to
    `jax~=0.4.30` (fortuna: new-user review 4) gets the finding but no fix."""
    code = """
    from functools import partial

    import jax

    @partial(jax.pmap, axis_name="devices")
    def allreduce_mean(x):
        return jax.lax.pmean(x, "devices")
    """
    assert "jax.shard_map" in fix(code, ">=0.6.2", ("JAX301",), unsafe=True)
    assert "jax.shard_map" not in fix(code, "~=0.4.30", ("JAX301",), unsafe=True)
    old = lint(code, "~=0.4.30", ("JAX301",))
    assert [d.code for d in old] == ["JAX301"] and old[0].fix is None
