"""`jaxlint mcp` end to end: the MCP SDK's own stdio client drives the real server subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp SDK >= 2 (the mcp extra)")

import anyio  # noqa: E402
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

# JAX111 (line 7, no fix; in preview after the v13 check set: the tests that want it pass
# `preview`) and JAX801 (line 9, safe fix, a default rule)
SHARP = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def step(x):
        assert x > 0
        x = x * 2
        return jax.tree_map(jnp.abs, x)
    """
)
FIXED_LINE = "    return jax.tree.map(jnp.abs, x)\n"
KEY_REUSE = textwrap.dedent(
    """\
    import jax


    def draw(key):
        a = jax.random.normal(key, (3,))
        b = jax.random.normal(key, (3,))
        return a + b
    """
)
TOOLS = {
    "check",
    "fix",
    "explain",
    "rules",
    "verify",
    "probe",
    "bench",
    "recompile",
    "env",
    "locate",
    "template",
}


def _run(
    root: Path,
    body: Callable[[ClientSession], Awaitable[None]],
    *extra: str,
    **client: Any,
) -> None:
    """Start `jaxlint mcp` in `root`, connect the SDK client, run `body(session)`."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, env.get("PYTHONPATH")]))
    env.pop("JAX_PLATFORMS", None)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "jaxlint", "mcp", *extra], cwd=str(root), env=env
    )

    async def main() -> None:
        with anyio.fail_after(240):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, **client) as session:
                    await session.initialize()
                    await body(session)

    anyio.run(main)


def _text(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "step.py").write_text(SHARP)
    (root / "draw.py").write_text(KEY_REUSE)
    (tmp_path / "outside.py").write_text(SHARP)
    return root


def test_tools_check_explain_rules_and_resources(project: Path) -> None:
    async def body(s: ClientSession) -> None:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():  # typed input, structured output
            assert tool.input_schema["type"] == "object"
            assert tool.output_schema is not None, tool.name
        assert {"paths", "code", "filename", "select", "ignore"} <= set(
            tools["check"].input_schema["properties"]
        )

        default = await s.call_tool("check", {"paths": ["step.py"]})
        assert [f["code"] for f in default.structured_content["findings"]] == ["JAX801"]
        on_file = await s.call_tool("check", {"paths": ["step.py"], "preview": True})  # JAX111
        assert not on_file.is_error, _text(on_file)
        findings = on_file.structured_content["findings"]
        by_code = {f["code"]: f for f in findings}
        assert set(by_code) == {"JAX111", "JAX801"}
        tree_map = by_code["JAX801"]
        assert tree_map["path"] == "step.py"
        assert (tree_map["line"], tree_map["column"]) == (9, 12)  # 1-based, as --format json
        assert tree_map["end_line"] == 9 and tree_map["end_column"] > tree_map["column"]
        assert tree_map["fix"]["applicability"] == "safe"
        assert tree_map["fix"]["edits"][0]["content"] == "jax.tree.map"
        assert by_code["JAX111"]["line"] == 7 and by_code["JAX111"]["fix"] is None  # no fix
        # the same answer as `jaxlint check --format json`
        cli = subprocess.run(
            [sys.executable, "-m", "jaxlint", "check", "--preview", "--format", "json", "step.py"],
            cwd=project,
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=ROOT),
        )
        assert [
            (d["code"], d["location"]["row"], d["location"]["column"])
            for d in json.loads(cli.stdout)
        ] == [(f["code"], f["line"], f["column"]) for f in findings]

        whole = await s.call_tool("check", {"preview": True})  # default: the whole root
        assert {f["path"] for f in whole.structured_content["findings"]} == {"step.py", "draw.py"}

        inline = await s.call_tool(
            "check", {"code": SHARP, "filename": "mod.py", "select": ["JAX8"]}
        )
        assert not inline.is_error, _text(inline)
        assert [(f["code"], f["path"]) for f in inline.structured_content["findings"]] == [
            ("JAX801", "mod.py")
        ]
        ignored = await s.call_tool("check", {"code": SHARP, "ignore": ["JAX1", "JAX8"]})
        assert ignored.structured_content["findings"] == []

        bad_select = await s.call_tool("check", {"code": SHARP, "select": ["nonsense"]})
        assert bad_select.is_error and "invalid rule selector" in _text(bad_select)
        both = await s.call_tool("check", {"code": SHARP, "paths": ["step.py"]})
        assert both.is_error and "not both" in _text(both)
        wrong_type = await s.call_tool("check", {"paths": 5})
        assert wrong_type.is_error and "paths" in _text(wrong_type)
        syntax = await s.call_tool("check", {"code": "def f(:\n"})
        assert [f["code"] for f in syntax.structured_content["findings"]] == ["JAX000"]

        doc = await s.call_tool("explain", {"code": "JAX201"})
        assert not doc.is_error
        assert doc.structured_content["name"] == "prng-key-reuse"
        assert "Why is this bad" in doc.structured_content["text"]
        unknown = await s.call_tool("explain", {"code": "JAX999"})
        assert unknown.is_error and "unknown rule" in _text(unknown)

        rules = (await s.call_tool("rules", {})).structured_content["rules"]
        from jaxlint.rules import ALL_RULES

        assert [r["code"] for r in rules] == [r.code for r in ALL_RULES]

        resources = {str(r.uri) for r in (await s.list_resources()).resources}
        assert "jaxlint://rules/JAX201" in resources and "jaxlint://rules" in resources
        page = await s.read_resource("jaxlint://rules/JAX201")
        assert page.contents[0].text.startswith("JAX201 (prng-key-reuse)")

        template = await s.call_tool("template", {"name": "mre"})
        assert "jax" in template.structured_content["source"]
        listing = await s.call_tool("template", {})
        assert any(t.startswith("benchmark:") for t in listing.structured_content["available"])
        missing = await s.call_tool("template", {"name": "nope"})
        assert missing.is_error and "unknown template" in _text(missing)

    _run(project, body)


def test_fix_diff_then_write(project: Path) -> None:
    path = project / "step.py"

    async def body(s: ClientSession) -> None:
        preview = await s.call_tool("fix", {"paths": ["step.py"], "preview": True})  # JAX111
        assert not preview.is_error, _text(preview)
        out = preview.structured_content
        assert out["fixed"] == 1 and out["written"] == []
        assert "-    return jax.tree_map(jnp.abs, x)" in out["diff"]
        assert "+" + FIXED_LINE in out["diff"]
        assert [f["code"] for f in out["remaining"]] == ["JAX111"]
        assert path.read_text() == SHARP  # untouched without write=true

        inline = await s.call_tool("fix", {"code": SHARP})
        assert FIXED_LINE in inline.structured_content["code"]
        assert path.read_text() == SHARP

        written = await s.call_tool("fix", {"paths": ["step.py"], "write": True})
        assert not written.is_error, _text(written)
        assert written.structured_content["written"] == ["step.py"]
        assert FIXED_LINE in path.read_text()

        again = await s.call_tool("fix", {"paths": ["step.py"], "write": True})
        assert again.structured_content["diff"] == "" and again.structured_content["fixed"] == 0

    _run(project, body)


def test_paths_outside_the_root_are_refused(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    (project / "link.py").symlink_to(outside)
    (project / "linkdir").symlink_to(tmp_path, target_is_directory=True)

    async def body(s: ClientSession) -> None:
        for tool, args in [
            ("check", {"paths": ["../outside.py"]}),
            ("check", {"paths": [str(outside)]}),
            ("check", {"paths": ["link.py"]}),
            ("check", {"paths": ["linkdir/outside.py"]}),
            ("check", {"paths": ["/"]}),
            ("fix", {"paths": ["../outside.py"], "write": True}),
            ("fix", {"code": "x = 1\n", "filename": "../outside.py"}),
            ("verify", {"target": "../outside.py::step"}),
            ("probe", {"target": "../outside.py::step", "args": "f32[3]"}),
            (
                "bench",
                {"target": "step.py::step", "args": "f32[3]", "compare": "../outside.py::step"},
            ),
        ]:
            result = await s.call_tool(tool, args)
            assert result.is_error, (tool, args)
            assert "outside the server's root" in _text(result), _text(result)
        # walking the root skips the symlink that leads out of it
        whole = await s.call_tool("check", {"paths": ["."], "preview": True})  # JAX201 in draw.py
        assert {f["path"] for f in whole.structured_content["findings"]} == {"step.py", "draw.py"}
        missing = await s.call_tool("check", {"paths": ["nope.py"]})
        assert missing.is_error and "no such file" in _text(missing)
        # the server is still alive after the refusals
        assert not (await s.call_tool("rules", {})).is_error

    _run(project, body)
    assert outside.read_text() == SHARP


def test_roots_option(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.py").write_text(SHARP)

    async def body(s: ClientSession) -> None:
        result = await s.call_tool("check", {"paths": [str(other / "b.py")]})
        assert not result.is_error, _text(result)
        assert result.structured_content["findings"]
        refused = await s.call_tool("check", {"paths": [str(tmp_path / "outside.py")]})
        assert refused.is_error

    _run(project, body, "--root", str(project), "--root", str(other))


def test_roots_announced_by_the_client(project: Path, tmp_path: Path) -> None:
    """Without --root, the folders the client announces (MCP roots) replace the working dir."""
    from mcp import types

    other = tmp_path / "other"
    other.mkdir()
    (other / "b.py").write_text(SHARP)

    async def list_roots(context: Any) -> Any:
        return types.ListRootsResult(roots=[types.Root(uri=other.as_uri(), name="other")])

    async def body(s: ClientSession) -> None:
        inside = await s.call_tool("check", {"paths": ["b.py"]})  # relative to the announced root
        assert not inside.is_error, _text(inside)
        assert [f["path"] for f in inside.structured_content["findings"]][:1] == ["b.py"]
        refused = await s.call_tool("check", {"paths": [str(project / "step.py")]})
        assert refused.is_error and "outside the server's root" in _text(refused)

    _run(project, body, list_roots_callback=list_roots)


@pytest.mark.jax
# the MCP face's plumbing: verify itself on each JAX is tests/runtime/test_verify*.py's
@pytest.mark.jax_any_version
def test_verify_a_small_function(project: Path) -> None:
    pytest.importorskip("jax")

    async def body(s: ClientSession) -> None:
        result = await s.call_tool(
            "verify",
            {"target": "draw.py::draw", "args": "key", "check_fixes": False, "preview": True},
        )
        assert not result.is_error, _text(result)
        report = result.structured_content
        assert report["file"] == "draw.py" and report["function"] == "draw"
        (finding,) = report["findings"]
        assert finding["code"] == "JAX201"
        assert finding["verdict"] == "confirmed", finding
        assert finding["evidence"]
        bad_args = await s.call_tool("verify", {"target": "draw.py::draw", "args": "f32[oops"})
        assert bad_args.is_error and "args" in _text(bad_args)
        no_func = await s.call_tool("verify", {"target": "draw.py::nothing"})
        assert no_func.is_error and "no function" in _text(no_func)

    _run(project, body)


def test_capture_main_is_passed_through_or_refused_clearly(project: Path) -> None:
    import inspect

    from jaxlint.verify.driver import verify_file

    if "capture_main" in inspect.signature(verify_file).parameters:
        pytest.skip("this version supports capture_main; covered by the verify tests")

    async def body(s: ClientSession) -> None:
        result = await s.call_tool("verify", {"target": "draw.py::draw", "capture_main": True})
        assert result.is_error
        text = _text(result)
        assert "capture_main" in text and ("not available" in text or "not installed" in text)

    _run(project, body)


def test_missing_sdk_prints_a_hint_and_exits_2() -> None:
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from jaxlint.cli import main\n"
        "sys.exit(main(['mcp']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -e '.[mcp]'" in lines[0]


def test_check_does_not_import_the_sdk(tmp_path: Path) -> None:
    """The server adds no import cost to `jaxlint check`: only `jaxlint mcp` loads the SDK."""
    (tmp_path / "prog.py").write_text(SHARP)
    code = (
        "import sys\n"
        "import jaxlint.cli\n"
        "assert 'mcp' not in sys.modules, 'import jaxlint.cli'\n"
        "rc = jaxlint.cli.main(['check', '--no-cache', 'prog.py'])\n"
        "jaxlint.cli.build_parser().parse_args(['mcp', '--help'][:1])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', 'pydantic'))\n"
        "assert not bad, bad\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    assert proc.returncode == 1, proc.stderr
    assert "JAX801" in proc.stdout


@pytest.mark.jax
# the MCP face's plumbing: the tools on each JAX are tests/runtime/test_toolbox*.py's
@pytest.mark.jax_any_version
def test_toolbox_tools(project: Path) -> None:
    pytest.importorskip("jax")
    (project / "model.py").write_text(
        "import jax.numpy as jnp\n\n\ndef predict(w, x):\n    return jnp.tanh(x @ w)\n\n\n"
        "def boom(x):\n    raise RuntimeError('boom from user code')\n"
    )

    async def body(s: ClientSession) -> None:
        probe = await s.call_tool(
            "probe", {"target": "model.py::predict", "args": "f32[4,3], f32[2,4]"}
        )
        assert not probe.is_error, _text(probe)
        out = probe.structured_content
        assert out["function"] == "model.py::predict"
        assert "jaxpr" in out and "hlo" not in out and "stablehlo" not in out

        recompile = await s.call_tool(
            "recompile",
            {"target": "model.py::predict", "cases": ["f32[4,3], f32[2,4]", "f32[4,3], f32[5,4]"]},
        )
        assert not recompile.is_error, _text(recompile)
        assert recompile.structured_content["compiles"] == 2

        bench = await s.call_tool(
            "bench",
            {"target": "model.py::predict", "args": "f32[4,3], f32[2,4]", "repeat": 2, "warmup": 1},
        )
        assert not bench.is_error, _text(bench)
        assert bench.structured_content["runs"] == 2

        failed = await s.call_tool("probe", {"target": "model.py::boom", "args": "f32[3]"})
        assert failed.is_error and "boom from user code" in _text(failed)

        env = await s.call_tool("env", {})
        assert not env.is_error, _text(env)
        assert env.structured_content["jax"]

        found = await s.call_tool("locate", {"topic": "key reuse", "limit": 2})
        assert not found.is_error, _text(found)
        assert len(found.structured_content["results"]) == 2

        not_static = await s.call_tool("probe", {"target": "model.py", "args": "f32[3]"})
        assert not_static.is_error and "FILE::FUNCTION" in _text(not_static)

    _run(project, body)
