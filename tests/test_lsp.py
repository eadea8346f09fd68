"""`jaxlint lsp` end to end: a pytest-lsp client talks to the real server over stdio."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp", reason="needs pytest-lsp (the dev extra)")
pytest.importorskip("pygls", reason="needs pygls (the lsp extra)")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from jaxlint.integrations.formats import rule_url  # noqa: E402
from tests import lspfork  # noqa: E402

WAIT_S = 20.0

SHARP = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp

    s = 'abc'; t = jax.tree_map(f, xs)
    s = 'é€𝄞'; t = jax.tree_map(f, xs)
    x = jnp.zeros(3)
    x[0] = 1.0
    """
)
# code points: `jax.tree_map` starts at 15 on both lines; in UTF-16 the 𝄞 takes two units
ASCII_LINE, UNICODE_LINE, INPLACE_LINE = 3, 4, 6
# JAX501 (`x[0] = 1.0`, the safe fix to `x.at[0].set(1.0)`) is in preview after the v13
# check set: the tests that use it turn preview on in the workspace's pyproject.toml
PREVIEW_ON = "[tool.jaxlint]\npreview = true\n"


def _env() -> dict[str, str]:
    env = dict(os.environ)  # server_env replaces the environment: merge it ourselves
    env.pop("JAX_PLATFORMS", None)
    return env


ENV = _env()


@pytest.fixture(scope="module", autouse=True)
def lsp_server() -> None:
    """Before the client fixture launches its server (an autouse fixture comes first)."""
    lspfork.start(ENV)


@pytest_lsp.fixture(
    # `jaxlint lsp` forked from a process that imported it (tests/lspfork.py says what differs
    # from `python -m jaxlint lsp`, which test_stdout_carries_only_protocol_frames runs)
    config=ClientServerConfig(server_command=lspfork.lsp_command(ENV), server_env=ENV)
)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    registrations: list[types.Registration] = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
        registrations.extend(params.registrations)  # a real editor starts watching files

    lsp_client.registrations = registrations  # type: ignore[attr-defined]
    # the version of each uri's last publishDiagnostics (pytest-lsp keeps only the list): a
    # publish of the version before a didChange can still be in flight when the test pops the
    # old diagnostics, so change_doc waits for the version it sent
    versions: dict[str, int | None] = {}
    features = lsp_client.protocol.fm.features
    keep = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def publish(params: types.PublishDiagnosticsParams) -> None:
        versions[params.uri] = params.version
        keep(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    lsp_client.versions = versions  # type: ignore[attr-defined]
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="work")],
        )
    )
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


# -- helpers ------------------------------------------------------------------------------


async def _next_diagnostics(
    client: LanguageClient, uri: str, version: int | None = None
) -> list[types.Diagnostic]:
    """Wait for the next publishDiagnostics of `uri` (the caller popped the old one), of
    `version` when given (a late publish of an older version is skipped)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    versions = getattr(client, "versions", {})
    while uri not in client.diagnostics or (
        version is not None and versions.get(uri, version) != version
    ):
        if loop.time() > deadline:
            raise AssertionError(f"no diagnostics for {uri} (version {version}) within {WAIT_S} s")
        await asyncio.sleep(0.01)
    return list(client.diagnostics[uri])


async def open_doc(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    return await _next_diagnostics(client, uri)


async def change_doc(
    client: LanguageClient, path: Path, text: str, version: int
) -> list[types.Diagnostic]:
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await _next_diagnostics(client, uri, version)


def _utf16_offset(text: str, pos: types.Position) -> int:
    """Independent of the server: LSP line/UTF-16 character -> index into `text`."""
    lines = text.splitlines(keepends=True)
    if pos.line >= len(lines):
        return len(text)
    offset = sum(len(line) for line in lines[: pos.line])
    units = 0
    for i, ch in enumerate(lines[pos.line]):
        if units >= pos.character:
            return offset + i
        units += len(ch.encode("utf-16-le")) // 2
    return offset + len(lines[pos.line])


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if edit.document_changes:
        return [e for change in edit.document_changes for e in change.edits]
    return list(edit.changes[uri])


def apply_edit(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    spans = [
        (_utf16_offset(text, e.range.start), _utf16_offset(text, e.range.end), e.new_text)
        for e in edits_for(edit, uri)
    ]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


async def code_actions(
    client: LanguageClient, uri: str, rng: types.Range, only: list[str] | None = None
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rng,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return list(result or [])


def by_code(diags: list[types.Diagnostic], code: str) -> list[types.Diagnostic]:
    return [d for d in diags if d.code == code]


# -- tests ---------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_diagnostics_on_open_with_utf16_ranges(client: LanguageClient, tmp_path: Path):
    caps = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Full
    assert caps.hover_provider
    (tmp_path / "pyproject.toml").write_text(PREVIEW_ON)  # JAX501 is in preview
    path = tmp_path / "train.py"
    path.write_text("x = 1\n", encoding="utf-8")  # the unsaved buffer is what gets linted

    diags = await open_doc(client, path, SHARP)

    tree = sorted(by_code(diags, "JAX801"), key=lambda d: d.range.start.line)
    assert [d.range.start.line for d in tree] == [ASCII_LINE, UNICODE_LINE]
    ascii_diag, unicode_diag = tree
    assert ascii_diag.range.start.character == 15
    assert ascii_diag.range.end.character == 15 + len("jax.tree_map")
    # 'é€𝄞' is 4 code points but 5 UTF-16 units: everything after it shifts by one
    assert unicode_diag.range.start.character == 16
    assert unicode_diag.range.end.character == 16 + len("jax.tree_map")
    d = ascii_diag
    assert d.source == "jaxlint"
    assert d.severity == types.DiagnosticSeverity.Warning
    assert "jax.tree.map" in d.message
    assert d.code_description.href == rule_url("JAX801")
    (inplace,) = by_code(diags, "JAX501")
    assert inplace.range.start == types.Position(line=INPLACE_LINE, character=0)


@pytest.mark.asyncio
async def test_quick_fix_edit_gives_the_fixed_text(client: LanguageClient, tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text(PREVIEW_ON)  # JAX501 is in preview
    path = tmp_path / "train.py"
    uri = path.as_uri()
    diags = await open_doc(client, path, SHARP)
    target = next(d for d in by_code(diags, "JAX801") if d.range.start.line == UNICODE_LINE)

    actions = await code_actions(client, uri, target.range)

    fixes = [
        a
        for a in actions
        if a.kind == types.CodeActionKind.QuickFix and a.title.startswith("JAX801")
    ]
    assert len(fixes) == 1, [a.title for a in actions]
    fix = fixes[0]
    assert "unsafe" not in fix.title and fix.is_preferred
    assert [d.code for d in fix.diagnostics] == ["JAX801"]
    fixed = apply_edit(SHARP, fix.edit, uri)
    assert fixed == SHARP.replace("s = 'é€𝄞'; t = jax.tree_map", "s = 'é€𝄞'; t = jax.tree.map")

    # didChange with the fixed text refreshes the diagnostics
    after = await change_doc(client, path, fixed, version=2)
    assert client.versions[uri] == 2  # type: ignore[attr-defined]
    assert [d.range.start.line for d in by_code(after, "JAX801")] == [ASCII_LINE]
    assert len(by_code(after, "JAX501")) == 1


@pytest.mark.asyncio
async def test_unsafe_fix_is_labelled(client: LanguageClient, tmp_path: Path):
    # JAX121's `size=` fix is unsafe (it can change the result): a default rule, unlike JAX103
    text = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\n"
        "def f(x):\n    idx = jnp.nonzero(x)\n    return x * 2\n"
    )
    path = tmp_path / "nonzero.py"
    diags = await open_doc(client, path, text)
    (d,) = by_code(diags, "JAX121")
    actions = await code_actions(client, path.as_uri(), d.range, only=["quickfix"])
    (fix,) = [a for a in actions if a.title.startswith("JAX121")]
    assert fix.title.endswith("(unsafe)") and not fix.is_preferred
    assert "jnp.nonzero(x, size=" in apply_edit(text, fix.edit, path.as_uri())
    # only=["quickfix"] leaves the source action out
    assert all(a.kind == types.CodeActionKind.QuickFix for a in actions)


@pytest.mark.asyncio
async def test_change_bursts_publish_the_latest_version(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "burst.py"
    uri = path.as_uri()
    await open_doc(client, path, "import jax\n")
    client.diagnostics.pop(uri, None)
    lines = ["import jax\n"]
    for version in range(2, 8):  # typing: six versions 10 ms apart
        lines.append(f"t{version} = jax.tree_map(f, xs)\n")
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text="".join(lines))],
            )
        )
        await asyncio.sleep(0.01)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while len(by_code(client.diagnostics.get(uri, []), "JAX801")) != 6:
        assert loop.time() < deadline, client.diagnostics.get(uri)
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.5)  # nothing older arrives afterwards
    assert len(by_code(client.diagnostics[uri], "JAX801")) == 6


@pytest.mark.asyncio
async def test_hover_shows_the_rule_docs(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "train.py"
    uri = path.as_uri()
    await open_doc(client, path, SHARP)

    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=UNICODE_LINE, character=20),
        )
    )
    assert hover is not None
    assert hover.contents.kind == types.MarkupKind.Markdown
    md = hover.contents.value
    assert "JAX801" in md and "removed-tree-aliases" in md
    assert "```python" in md and "jax.tree.map" in md
    assert rule_url("JAX801") in md
    assert hover.range.start == types.Position(line=UNICODE_LINE, character=16)

    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=0, character=2),
        )
    )
    assert nothing is None


@pytest.mark.asyncio
async def test_disable_action_inserts_noqa(client: LanguageClient, tmp_path: Path):
    text = SHARP.replace("x[0] = 1.0\n", "x[0] = 1.0  # noqa: E501\n")
    (tmp_path / "pyproject.toml").write_text(PREVIEW_ON)  # JAX501 is in preview
    path = tmp_path / "train.py"
    uri = path.as_uri()
    diags = await open_doc(client, path, text)

    tree = next(d for d in by_code(diags, "JAX801") if d.range.start.line == UNICODE_LINE)
    actions = await code_actions(client, uri, tree.range)
    (disable,) = [a for a in actions if a.title == "Disable JAX801 on this line"]
    text = apply_edit(text, disable.edit, uri)
    assert text.splitlines()[UNICODE_LINE] == "s = 'é€𝄞'; t = jax.tree_map(f, xs)  # noqa: JAX801"

    (inplace,) = by_code(diags, "JAX501")
    actions = await code_actions(client, uri, inplace.range)
    (disable,) = [a for a in actions if a.title == "Disable JAX501 on this line"]
    text = apply_edit(text, disable.edit, uri)
    assert text.splitlines()[INPLACE_LINE] == "x[0] = 1.0  # noqa: E501, JAX501"

    after = await change_doc(client, path, text, version=2)
    assert [(d.code, d.range.start.line) for d in after] == [("JAX801", ASCII_LINE)]


@pytest.mark.asyncio
async def test_fix_all_applies_every_safe_fix(client: LanguageClient, tmp_path: Path):
    text = SHARP + "\n\n@jax.jit\ndef f(x):\n    idx = jnp.nonzero(x)\n    return x * 2\n"
    (tmp_path / "pyproject.toml").write_text(PREVIEW_ON)  # JAX501 is in preview
    path = tmp_path / "train.py"
    uri = path.as_uri()
    await open_doc(client, path, text)

    start = types.Position(line=0, character=0)
    actions = await code_actions(
        client, uri, types.Range(start=start, end=start), ["source.fixAll"]
    )
    (fix_all,) = actions
    assert fix_all.kind == "source.fixAll.jaxlint"
    assert fix_all.title == "Fix all safe jaxlint findings"
    if fix_all.edit is None:  # the VS Code capabilities allow resolving the edit lazily
        fix_all = await client.code_action_resolve_async(fix_all)
    fixed = apply_edit(text, fix_all.edit, uri)
    assert "jax.tree_map" not in fixed and fixed.count("jax.tree.map(f, xs)") == 2
    assert "x = x.at[0].set(1.0)\n" in fixed
    assert "idx = jnp.nonzero(x)\n" in fixed  # JAX121's fix is unsafe: not part of fix-all

    after = await change_doc(client, path, fixed, version=2)
    assert [d.code for d in after] == ["JAX121"]


@pytest.mark.asyncio
async def test_workspace_pyproject_applies(client: LanguageClient, tmp_path: Path):
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    # preview on: JAX501 is in preview (after the v13 check set)
    (project / "pyproject.toml").write_text(PREVIEW_ON + 'ignore = ["JAX501"]\n')
    path = project / "pkg" / "model.py"
    diags = await open_doc(client, path, SHARP)
    assert {d.code for d in diags} == {"JAX801"}

    # the server asked to watch pyproject.toml files; a change re-lints open documents
    (reg,) = client.registrations  # type: ignore[attr-defined]
    assert reg.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    (project / "pyproject.toml").write_text(PREVIEW_ON + 'ignore = ["JAX801"]\n')
    client.diagnostics.pop(path.as_uri(), None)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=(project / "pyproject.toml").as_uri(), type=types.FileChangeType.Changed
                )
            ]
        )
    )
    # the next publish may still be one for the old configuration (the open's, sent after the
    # pop): wait for diagnostics under the new one, which must come within WAIT_S
    uri, loop = path.as_uri(), asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while {d.code for d in client.diagnostics.get(uri, ())} != {"JAX501"}:
        seen = [d.code for d in client.diagnostics.get(uri, ())]
        assert loop.time() < deadline, f"still {seen} {WAIT_S} s after the change"
        await asyncio.sleep(0.01)


def test_missing_lsp_extra_is_a_usage_error():
    code = (
        "import sys; sys.modules['pygls'] = None\n"
        "from jaxlint.cli import main\n"
        "sys.exit(main(['lsp']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "jaxlint-sharp[lsp]" in proc.stderr and proc.stdout == ""


def _send(stream, message: dict) -> None:  # noqa: ANN001
    import json

    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    stream.flush()


def _read_frame(stream) -> dict:  # noqa: ANN001
    """One LSP frame, parsed strictly: anything else on stdout is a protocol error."""
    import json

    headers = {}
    while True:
        line = stream.readline()
        assert line.endswith(b"\r\n"), f"not an LSP header on stdout: {line!r}"
        if line == b"\r\n":
            break
        name, sep, value = line.decode("ascii").partition(": ")
        assert sep and name in ("Content-Length", "Content-Type"), f"bad header {line!r}"
        headers[name] = value.strip()
    return json.loads(stream.read(int(headers["Content-Length"])))


def test_stdout_carries_only_protocol_frames(tmp_path: Path):
    """Config warnings (here: an unknown key) go to stderr, never into the protocol stream."""
    import threading

    # preview on (JAX501 is in preview after the v13 check set) and an unknown key
    (tmp_path / "pyproject.toml").write_text(PREVIEW_ON + "no-such-key = 1\n")
    uri = (tmp_path / "m.py").as_uri()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint", "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        cwd=tmp_path,
    )
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        _send(
            proc.stdin,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}},
            },
        )
        assert "capabilities" in _read_frame(proc.stdout)["result"]
        _send(proc.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        item = {"uri": uri, "languageId": "python", "version": 1, "text": SHARP}
        _send(
            proc.stdin,
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}},
        )
        frame = _read_frame(proc.stdout)
        assert frame["method"] == "textDocument/publishDiagnostics"
        assert {d["code"] for d in frame["params"]["diagnostics"]} == {"JAX801", "JAX501"}
        _send(proc.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
        # the server may publish the document again first (the project index became ready):
        # still a protocol frame; the reply to `shutdown` must follow
        frame = _read_frame(proc.stdout)
        while frame.get("method") == "textDocument/publishDiagnostics":
            frame = _read_frame(proc.stdout)
        assert frame == {"jsonrpc": "2.0", "id": 2, "result": None}
        _send(proc.stdin, {"jsonrpc": "2.0", "method": "exit", "params": None})
        proc.stdin.close()
        assert proc.stdout.read() == b""  # nothing after the last frame
        assert proc.wait(timeout=30) == 0
        assert b"unknown key `no-such-key`" in proc.stderr.read()
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()


# -- the pure helpers behind the server ------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "character"),
    [
        (types.PositionEncodingKind.Utf16, 16),
        (types.PositionEncodingKind.Utf8, 12 + 2 + 3 + 4),  # é: 2 bytes, €: 3, 𝄞: 4
        (types.PositionEncodingKind.Utf32, 15),
    ],
)
def test_line_index_speaks_every_position_encoding(encoding, character):
    from pygls.workspace.position_codec import PositionCodec

    from jaxlint.integrations.lsp import LineIndex

    index = LineIndex.of(SHARP, PositionCodec(encoding))
    pos = index.to_client(UNICODE_LINE + 1, 15)
    assert pos == types.Position(line=UNICODE_LINE, character=character)
    assert index.from_client(pos) == (UNICODE_LINE, 15)


def test_lines_split_like_lsp_not_like_str_splitlines():
    from jaxlint.integrations.lsp import split_lines

    text = "a = 1\x0c\nb = 2\u2028c\r\nd\re"
    assert split_lines(text) == ["a = 1\x0c\n", "b = 2\u2028c\r\n", "d\r", "e"]
    assert len(text.splitlines()) == 6  # what pygls' TextDocument.lines would count


@pytest.mark.parametrize(
    ("source", "line", "expected"),
    [
        ("x = f(a)   \n", 1, "x = f(a)  # noqa: JAX801\n"),
        ("x = f(a)  # noqa:E501\n", 1, "x = f(a)  # noqa:E501, JAX801\n"),
        ("x = f(a)  # type: ignore\n", 1, "x = f(a)  # type: ignore  # noqa: JAX801\n"),
        ("x = f(a,\n      b)\n", 1, "x = f(a,  # noqa: JAX801\n      b)\n"),
        ("x = f(a) + \\\n    1\n", 1, None),  # a comment after a backslash breaks the code
        ('x = f("""\n""")\n', 1, None),  # the line ends inside a string
    ],
)
def test_noqa_edit(source, line, expected):
    from jaxlint.integrations.lsp import LineEnds, noqa_edit, split_lines

    edit = noqa_edit(split_lines(source)[line - 1], line, "JAX801", LineEnds.of(source))
    if expected is None:
        assert edit is None
        return
    start, end, new = edit
    lines = split_lines(source)
    lines[line - 1] = lines[line - 1][:start] + new + lines[line - 1][end:]
    assert "".join(lines) == expected


@pytest.mark.asyncio
async def test_disable_action_after_a_multiline_string(client: LanguageClient, tmp_path: Path):
    text = 'import jax\nt = (jax.tree_map, """\ndoc\n""")\n'
    path = tmp_path / "doc.py"
    uri = path.as_uri()
    (d,) = by_code(await open_doc(client, path, text), "JAX801")
    actions = await code_actions(client, uri, d.range)
    (disable,) = [a for a in actions if a.title == "Disable JAX801 on this line"]
    fixed = apply_edit(text, disable.edit, uri)
    assert fixed == 'import jax\nt = (jax.tree_map, """\ndoc\n""")  # noqa: JAX801\n'
    assert await change_doc(client, path, fixed, version=2) == []


# -- robustness and notebooks ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_change_to_a_never_opened_document_is_ignored(client: LanguageClient, tmp_path):
    ghost = (tmp_path / "nowhere.py").as_uri()
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=ghost, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="x = 1\n")],
        )
    )
    # the server is still healthy, and said nothing to the user
    diags = await open_doc(client, tmp_path / "train.py", SHARP)
    assert by_code(diags, "JAX801")
    assert not [m for m in client.messages if m.type == types.MessageType.Error], client.messages
    assert ghost not in client.diagnostics


NB_CELLS = [
    "import jax\nimport jax.numpy as jnp\n",
    "# notes\n",  # a markdown cell, in the test below
    # a transparent cell magic (not %%time: its cell is a timed region, JAX601 on jnp.zeros)
    "%%capture out\nx = jnp.zeros(3)\nx[0] = 1.0\n",
    "def f(key):\n    a = jax.random.normal(key, (3,))\n    b = jax.random.normal(key, (3,))\n    return a, b\n",
]


def _cell_uri(path: Path, i: int) -> str:
    return f"vscode-notebook-cell:{path.as_posix()}#W{i}sZmlsZQ%3D%3D"


@pytest.mark.asyncio
async def test_notebook_cells_get_their_own_diagnostics(client: LanguageClient, tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text(PREVIEW_ON)  # JAX501 (cell 2) is in preview
    path = tmp_path / "demo.ipynb"
    nb_uri = path.as_uri()
    uris = [_cell_uri(path, i) for i in range(len(NB_CELLS))]
    kinds = [
        types.NotebookCellKind.Markup if i == 1 else types.NotebookCellKind.Code for i in range(4)
    ]
    for uri in uris:
        client.diagnostics.pop(uri, None)
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=nb_uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(kind=k, document=u) for k, u in zip(kinds, uris)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=u, language_id="markdown" if i == 1 else "python", version=1, text=t
                )
                for i, (u, t) in enumerate(zip(uris, NB_CELLS))
            ],
        )
    )
    mutation = await _next_diagnostics(client, uris[2])
    reuse = await _next_diagnostics(client, uris[3])
    # names flow between cells (jnp from cell 1); positions and cited lines are the cell's
    assert [(d.code, d.range.start.line) for d in mutation] == [("JAX501", 2)]
    assert [(d.code, d.range.start.line) for d in reuse] == [("JAX201", 2)]
    assert "on line 2" in reuse[0].message
    assert list(client.diagnostics[uris[0]]) == []
    assert uris[1] not in client.diagnostics  # markdown is not linted

    # the quick fix edits the cell, in the cell's coordinates
    actions = await code_actions(client, uris[2], mutation[0].range)
    fix = next(a for a in actions if a.title.startswith("JAX501"))
    fixed = apply_edit(NB_CELLS[2], fix.edit, uris[2])
    assert fixed == "%%capture out\nx = jnp.zeros(3)\nx = x.at[0].set(1.0)\n"
    # fix-all in a cell is computed within the notebook (jnp comes from cell 1; the magic kept)
    start = types.Position(line=0, character=0)
    (fix_all,) = await code_actions(
        client, uris[2], types.Range(start=start, end=start), ["source.fixAll"]
    )
    if fix_all.edit is None:
        fix_all = await client.code_action_resolve_async(fix_all)
    assert apply_edit(NB_CELLS[2], fix_all.edit, uris[2]) == fixed

    # editing one cell re-lints the notebook: the import leaves cell 1, so jnp is unknown
    client.diagnostics.pop(uris[2], None)
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(version=2, uri=nb_uri),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=uris[2], version=2),
                            changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
                        )
                    ]
                )
            ),
        )
    )
    assert await _next_diagnostics(client, uris[2]) == []

    client.diagnostics.pop(uris[3], None)
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=nb_uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=u) for u in uris],
        )
    )
    assert await _next_diagnostics(client, uris[3]) == []


def test_server_advertises_notebook_sync_to_clients_that_support_it():
    from pygls.capabilities import ServerCapabilitiesBuilder

    from jaxlint.integrations.lsp import build_server

    server = build_server()
    caps = types.ClientCapabilities(
        notebook_document=types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities()
        )
    )
    built = ServerCapabilitiesBuilder(
        caps,
        set(server.protocol.fm.features),
        server.protocol.fm.feature_options,
        [],
        types.TextDocumentSyncKind.Full,
        server._notebook_document_sync,
    ).build()
    (selector,) = built.notebook_document_sync.notebook_selector
    assert selector.notebook == "jupyter-notebook"
    assert [c.language for c in selector.cells] == ["python"]


@pytest.mark.asyncio
async def test_notebook_new_cell_and_burst_of_edits(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "burst.ipynb"
    nb_uri = path.as_uri()
    first, second = _cell_uri(path, 0), _cell_uri(path, 1)
    client.diagnostics.pop(first, None)
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=nb_uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=first)],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=first, language_id="python", version=1, text="import jax\n"
                )
            ],
        )
    )
    assert await _next_diagnostics(client, first) == []
    client.diagnostics.pop(second, None)
    # a new cell, then quick edits to it: only the latest text's findings are published
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(version=2, uri=nb_uri),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    structure=types.NotebookDocumentCellChangeStructure(
                        array=types.NotebookCellArrayChange(
                            start=1,
                            delete_count=0,
                            cells=[
                                types.NotebookCell(
                                    kind=types.NotebookCellKind.Code, document=second
                                )
                            ],
                        ),
                        did_open=[
                            types.TextDocumentItem(
                                uri=second, language_id="python", version=1, text="x = 1\n"
                            )
                        ],
                    )
                )
            ),
        )
    )
    lines = ["a = jax.tree_map(abs, [1])\n"]
    for v in range(3, 8):
        lines.append(f"b{v} = jax.tree_map(abs, [1])\n")
        client.notebook_document_did_change(
            types.DidChangeNotebookDocumentParams(
                notebook_document=types.VersionedNotebookDocumentIdentifier(version=v, uri=nb_uri),
                change=types.NotebookDocumentChangeEvent(
                    cells=types.NotebookDocumentCellChanges(
                        text_content=[
                            types.NotebookDocumentCellContentChanges(
                                document=types.VersionedTextDocumentIdentifier(
                                    uri=second, version=v
                                ),
                                changes=[
                                    types.TextDocumentContentChangeWholeDocument(
                                        text="".join(lines)
                                    )
                                ],
                            )
                        ]
                    )
                ),
            )
        )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while len(client.diagnostics.get(second, ())) != 6:
        assert loop.time() < deadline, client.diagnostics.get(second)
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.5)  # nothing older arrives afterwards
    assert [d.range.start.line for d in client.diagnostics[second]] == [0, 1, 2, 3, 4, 5]


@pytest.mark.asyncio
async def test_project_index_traces_helpers_of_other_files(client: LanguageClient, tmp_path: Path):
    """A helper in losses.py called from a jitted step in train.py is traced; removing the
    jit in the open train.py re-publishes losses.py without the finding. (The project's
    pyproject turns preview on: both chained findings are in preview.)"""
    import shutil

    data = Path(__file__).parent / "data" / "project_index"
    shutil.copytree(data, tmp_path, dirs_exist_ok=True)
    losses = tmp_path / "pkg" / "losses.py"
    train = tmp_path / "pkg" / "train.py"
    diags = await open_doc(client, losses, losses.read_text())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not by_code(diags, "JAX101"):  # the index is built in the background, then re-lint
        assert loop.time() < deadline, diags
        await asyncio.sleep(0.05)
        diags = list(client.diagnostics.get(losses.as_uri(), []))
    (host,) = by_code(diags, "JAX101")
    assert "traced via train.train_step() -> losses.loss_fn()" in host.message
    assert len(by_code(diags, "JAX110")) == 1

    await open_doc(client, train, train.read_text())
    client.diagnostics.pop(losses.as_uri(), None)
    await change_doc(client, train, train.read_text().replace("@jax.jit\n", ""), version=2)
    assert await _next_diagnostics(client, losses.as_uri()) == []


@pytest.mark.asyncio
async def test_project_index_keys_consumed_by_helpers_of_other_files(
    client: LanguageClient, tmp_path: Path
):
    """`init_mlp(key, ...)` (imported from model.py, which consumes its key) then
    `normal(key, ...)` in train.py: JAX201, naming the helper; editing the open model.py so
    that init_mlp no longer consumes its key re-publishes train.py without the finding."""
    # preview on: a key consumed through a helper is JAX201 at medium confidence, in preview
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    model = tmp_path / "model.py"
    train = tmp_path / "train.py"
    model_text = "import jax\n\n\ndef init_mlp(key, n):\n    return jax.random.normal(key, (n,))\n"
    model.write_text(model_text)
    train.write_text(
        "import jax\nfrom model import init_mlp\n\n\ndef main():\n    key = jax.random.key(0)\n"
        "    p = init_mlp(key, 3)\n    return p, jax.random.normal(key, (3,))\n"
    )
    diags = await open_doc(client, train, train.read_text())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not by_code(diags, "JAX201"):  # the index is built in the background, then re-lint
        assert loop.time() < deadline, diags
        await asyncio.sleep(0.05)
        diags = list(client.diagnostics.get(train.as_uri(), []))
    (reuse,) = by_code(diags, "JAX201")
    assert "init_mlp" in reuse.message and reuse.range.start.line == 7

    await open_doc(client, model, model_text)
    client.diagnostics.pop(train.as_uri(), None)
    changed = model_text.replace("normal(key,", "normal(jax.random.key(1),")
    await change_doc(client, model, changed, version=2)
    assert by_code(await _next_diagnostics(client, train.as_uri()), "JAX201") == []


@pytest.mark.asyncio
async def test_project_index_keys_in_a_file_without_jax_random(
    client: LanguageClient, tmp_path: Path
):
    """A file opened after the index is built, that never names `jax.random`, calls a key
    helper of another file twice through `import model`: its own summary brings it the
    helper's key parameters, and it is published again with the JAX201."""
    # preview on: a key consumed through a helper is JAX201 at medium confidence, in preview
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    model = tmp_path / "model.py"
    train = tmp_path / "train.py"
    model_text = "import jax\n\n\ndef init_mlp(key, n):\n    return jax.random.normal(key, (n,))\n"
    model.write_text(model_text)
    train_text = (
        "import model\n\n\ndef main(key):\n    a = model.init_mlp(key, 3)\n"
        "    return a, model.init_mlp(key, 4)\n"
    )
    train.write_text(train_text)
    await open_doc(client, model, model_text)
    diags = await open_doc(client, train, train_text)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not by_code(diags, "JAX201"):
        assert loop.time() < deadline, diags
        await asyncio.sleep(0.05)
        diags = list(client.diagnostics.get(train.as_uri(), []))
    (reuse,) = by_code(diags, "JAX201")
    assert "model.init_mlp" in reuse.message and reuse.range.start.line == 5


@pytest.mark.asyncio
async def test_project_index_chains_read_open_buffers(client: LanguageClient, tmp_path: Path):
    """train.step (jitted) -> a.middle -> b.clip: clip is traced two files away; editing the
    open a.py (unsaved) so that middle passes only a Python value re-publishes b.py clean:
    the chain is computed from the buffer, as the CLI would from the saved file. (JAX110 at
    medium confidence, a chained finding, is in preview: the project turns preview on.)"""
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    files = {
        "b.py": "def clip(x, limit):\n    if x > limit:\n        return limit\n    return x\n",
        "a.py": "import b\n\n\ndef middle(x, n):\n    return b.clip(x * 2, n)\n",
        "train.py": "import jax\nfrom a import middle\n\n\n@jax.jit\ndef step(x):\n"
        "    return middle(x, 3)\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    b, a = tmp_path / "b.py", tmp_path / "a.py"
    diags = await open_doc(client, b, files["b.py"])
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not by_code(diags, "JAX110"):  # the index is built in the background, then re-lint
        assert loop.time() < deadline, diags
        await asyncio.sleep(0.05)
        diags = list(client.diagnostics.get(b.as_uri(), []))
    (found,) = by_code(diags, "JAX110")
    assert "traced via train.step() -> a.middle() -> b.clip()" in found.message

    await open_doc(client, a, files["a.py"])
    client.diagnostics.pop(b.as_uri(), None)
    changed = files["a.py"].replace("b.clip(x * 2, n)", "b.clip(n, 2) * x")
    await change_doc(client, a, changed, version=2)
    assert by_code(await _next_diagnostics(client, b.as_uri()), "JAX110") == []


@pytest.mark.asyncio
async def test_edits_of_a_big_module_publish_the_whole_lints_findings(
    client: LanguageClient, tmp_path: Path
):
    """An edit of one function of a module of many is linted by parts (`IncrementalLinter`):
    the published findings are the whole module's lint's, and a quick fix under the cursor
    comes from the whole module."""
    from jaxlint.core.config import ConfigResolver
    from jaxlint.engine import LintOptions, lint_text
    from tests.test_incremental import generated_module

    path = tmp_path / "big.py"
    text = generated_module(4)
    options = LintOptions(settings=ConfigResolver().for_path(str(path)))

    def expected(text: str) -> list[tuple]:
        return [(d.code, d.line - 1, d.col, d.message) for d in lint_text(text, str(path), options)]

    def got(diags: list[types.Diagnostic]) -> list[tuple]:
        return [(d.code, d.range.start.line, d.range.start.character, d.message) for d in diags]

    assert got(await open_doc(client, path, text)) == expected(text)
    edits = [
        text.replace("EDITED = 0\n", "EDITED = 1\n"),
        text.replace("w_key, b_key = jax.random.split(k)", "w_key = b_key = k", 1),
        text.replace("    mask[0] = 0.0\n", "    mask[0] = 0.0\n    mask[1] = 1.0\n", 1),
    ]
    for version, new in enumerate(edits, start=2):
        assert got(await change_doc(client, path, new, version)) == expected(new)
    target = next(d for d in client.diagnostics[path.as_uri()] if d.code == "JAX801")
    actions = await code_actions(client, path.as_uri(), target.range)
    assert any(a.title.startswith("JAX801") for a in actions), [a.title for a in actions]
