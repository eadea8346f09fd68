"""The display-only fix tier (ruff's `Applicability::DisplayOnly`) and `Rule.fix_availability`.

A display-only fix is a suggestion that changes semantics: every surface shows it (text
"Suggested fix:", JSON `fix.applicability: "display-only"`, LSP hover) and nothing applies
it: not `--fix`, not `--unsafe-fixes`, not an LSP quick fix or fix-all.
"""

from __future__ import annotations

import argparse
import json
import os
import textwrap
from pathlib import Path

import pytest

from jaxlint.commands import FixSummary, _summary_line
from jaxlint.core.diagnostic import DISPLAY_ONLY, Edit, Fix, Position
from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.integrations.formats import (
    render_concise,
    render_json,
    render_statistics,
    render_text,
)
from jaxlint.rules import ALL_RULES, Rule, get_rule
from jaxlint.run import cache
from tests.conftest import snippet

SITE = Path(__file__).parent / "display_only_site"
CODE = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def step(x):
        loss = jnp.mean(x ** 2)
        return jax.device_get(loss)
    """
)
JAX102 = LintOptions(codes=frozenset({"JAX102"}))


@pytest.fixture
def display_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAX102's fix (delete `jax.device_get`) as a display-only suggestion."""
    monkeypatch.setattr(get_rule("JAX102"), "fix_safety", DISPLAY_ONLY)


def test_fix_applies_by_tier():
    edit = Edit(Position(1, 0), Position(1, 1), "y")
    safe, unsafe, shown = (Fix((edit,), s) for s in ("safe", "unsafe", DISPLAY_ONLY))
    assert safe.applies() and safe.applies(unsafe=True)
    assert not unsafe.applies() and unsafe.applies(unsafe=True)
    assert not shown.applies() and not shown.applies(unsafe=True) and shown.display_only


def test_rule_api_spells_the_tier():
    rule = get_rule("JAX102")
    r = rule.__new__(rule)
    edit = Edit(Position(1, 0), Position(1, 1), "y")
    assert r.fix(edit, safety="display-only").safety == DISPLAY_ONLY
    assert r.suggest(edit, message="Use `x.astype(float)`").display_only


def test_engine_never_applies_a_display_only_fix(display_only):
    (d,) = lint_text(CODE, "step.py", JAX102)
    assert d.fix is not None and d.fix.safety == DISPLAY_ONLY
    for unsafe in (False, True):
        result = fix_text(CODE, "step.py", JAX102, unsafe=unsafe)
        assert result.text == CODE and not result.fixed
        assert [x.code for x in result.remaining] == ["JAX102"]


def test_outputs_show_the_suggestion_without_a_fixable_mark(display_only):
    diags = lint_text(CODE, "step.py", JAX102)
    text = render_text(diags, unsafe=True, sources={"step.py": CODE.splitlines()})
    assert "[*]" not in text
    assert "  Suggested fix: Delete the `jax.device_get` call (not applied automatically)" in text
    assert "[*]" not in render_concise(diags, unsafe=True)
    assert "[*]" not in render_statistics(diags)
    (item,) = json.loads(render_json(diags))
    assert item["fix"]["applicability"] == "display-only"
    assert item["fix"]["edits"]  # the edits are there for a tool or a person to read


def test_summary_counts_no_display_only_fix(display_only):
    diags = lint_text(CODE, "step.py", JAX102)
    args = argparse.Namespace(fix=False, diff=False, unsafe_fixes=False)
    line = _summary_line(diags, FixSummary(), args)
    assert line == "Found 1 finding.\n", line  # neither "fixable" nor "--unsafe-fixes"


def test_cache_keeps_the_tier(display_only):
    diags = lint_text(CODE, "step.py", JAX102)
    back = cache._decode(json.loads(json.dumps(cache._encode(diags, "step.py"))), "step.py")
    assert back == diags


def test_fix_availability_is_derived_or_declared():
    class NoFix(Rule):
        code = "JAX999"

    class Fixes(Rule):
        code = "JAX998"
        fix_safety = "safe"

    class Always(Fixes):
        fix_availability = "always"

    class Child(Always):
        pass

    assert NoFix.fix_availability == "none"
    assert Fixes.fix_availability == "sometimes"
    assert Always.fix_availability == Child.fix_availability == "always"
    assert get_rule("JAX001").fix_availability == "always"


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_fix_availability_matches_the_examples(rule):
    """Availability "none": no example finding has a fix; "always": every one has one;
    "sometimes": a fix example, or some finding with a (display-only) fix."""
    fixes = []
    for text in rule.examples.invalid:
        for d in lint_text(snippet(text), "example.py", LintOptions(codes=frozenset({rule.code}))):
            if d.code == rule.code:
                fixes.append(d.fix is not None)
    if rule.fix_availability == "none":
        assert not any(fixes), "declares no fix, yet an example finding has one"
    elif rule.fix_availability == "always":
        assert all(fixes), "declares a fix always, yet an example finding has none"
    else:  # a fix example, or (display-only fixes are never applied) a finding with a fix
        assert rule.examples.fixes or rule.examples.unsafe_fixes or any(fixes)


def test_cli_json_and_explain_show_availability(run_cli):
    rows = json.loads(run_cli("rules", "--format", "json").stdout)
    by_code = {r["code"]: r for r in rows}
    assert by_code["JAX001"]["fix_availability"] == "always"
    assert by_code["JAX111"]["fix_availability"] == "none"
    assert "Fix: safe (sometimes available)" in run_cli("explain", "JAX102").stdout


# -- the real LSP server, with JAX102's fix display-only (tests/display_only_site) -----------

pytest_lsp = pytest.importorskip("pytest_lsp", reason="needs pytest-lsp (the dev extra)")
pytest.importorskip("pygls", reason="needs pygls (the lsp extra)")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from tests import lspfork  # noqa: E402
from tests.test_lsp import code_actions, open_doc  # noqa: E402


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("JAX_PLATFORMS", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SITE), env.get("PYTHONPATH")) if p)
    return env


ENV = _env()


@pytest.fixture(scope="module", autouse=True)
def lsp_server() -> None:
    """Before the client fixture launches its server (an autouse fixture comes first)."""
    lspfork.start(ENV)


@pytest_lsp.fixture(
    # forked from a process that imported `jaxlint lsp` (tests/lspfork.py)
    config=ClientServerConfig(server_command=lspfork.lsp_command(ENV), server_env=ENV)
)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
        pass  # the server asks to watch pyproject files, as an editor would

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="work")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_lsp_shows_but_never_offers_a_display_only_fix(client: LanguageClient, tmp_path):
    # JAX102 is in preview since the v33 check set: the project turns preview on
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    path = tmp_path / "step.py"
    diags = [d for d in await open_doc(client, path, CODE) if d.code == "JAX102"]
    assert len(diags) == 1
    actions = await code_actions(client, path.as_uri(), diags[0].range)
    titles = [a.title for a in actions]
    assert "Disable JAX102 on this line" in titles
    assert not [t for t in titles if t.startswith("JAX102:")], titles  # no quick fix
    assert not [a for a in actions if a.kind and a.kind.startswith("source.fixAll")], titles
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=diags[0].range.start,
        )
    )
    assert hover is not None and "Suggested fix: Delete the `jax.device_get` call" in (
        hover.contents.value
    )
