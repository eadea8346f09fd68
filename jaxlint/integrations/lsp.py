"""`jaxlint lsp`: a language server over stdio (pygls 2).

What it offers an editor:

- diagnostics on open, change and save (code, message, severity, source `jaxlint`, a link
  to the rule's docs), with ranges in the client's position encoding (UTF-16 by default);
- code actions: a quick fix per fixable finding under the cursor (unsafe ones say so; a
  display-only suggestion is shown in the hover, never offered as a quick fix),
  "Disable JAX### on this line" (`# noqa: JAX###`, or the code added to an existing
  `# noqa: ...` list) and `source.fixAll.jaxlint` (every safe fix, as one WorkspaceEdit);
- hover over a flagged range: the rule's documentation as markdown;
- Jupyter notebooks (`notebookDocument/*` sync): the code cells are linted together, as
  `jaxlint check` lints an `.ipynb` (names flow between cells, magics are masked), and each
  cell gets its own diagnostics, code actions and hover, in cell coordinates.

A change for a document that was never opened is ignored (logged), not an error.

The buffer is linted from memory with the configuration that applies to the file's path
(nearest pyproject.toml with `[tool.jaxlint]`). Nothing is executed: the static layer only
parses. Changes are debounced per document: a change after a quiet period is linted at
once; during a burst, the server waits until no change came for `debounce` seconds. Results
are published only for the document's latest version. Linting runs in one worker thread so
the event loop keeps answering requests. Logs go to stderr only: stdout carries the
protocol.
"""

from __future__ import annotations

import asyncio
import difflib
import io
import logging
import os
import re
import sys
import time
import tokenize
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path
from pygls.workspace.position_codec import PositionCodec

from jaxlint import __version__
from jaxlint.config import DEFAULT_EXCLUDE, ConfigResolver, Settings
from jaxlint.diagnostic import Diagnostic, Position
from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.errors import UsageError
from jaxlint.integrations.formats import rule_url, suggestion
from jaxlint.suppressions import NOQA, token_ranges

logger = logging.getLogger("jaxlint.lsp")

SOURCE = "jaxlint"
FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.jaxlint"  # source.fixAll.jaxlint
FIX_ALL_TITLE = "Fix all safe jaxlint findings"
DEFAULT_DEBOUNCE_S = 0.150
PYTHON_SUFFIXES = (".py", ".pyi")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # LSP line breaks only
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


# -- positions ------------------------------------------------------------------------------


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split on `\\r\\n`, `\\r` and `\\n` only.

    LSP and jaxlint's `SourceText` both count lines this way; `str.splitlines` (which pygls'
    `TextDocument.lines` uses) also splits on form feeds, `\\x1c`-`\\x1e`, `\\x85`, U+2028 and
    U+2029, which would shift every later line.
    """
    return _LINE.findall(text)


@dataclass(frozen=True)
class LineIndex:
    """Converts between jaxlint positions (1-based line, code-point column) and LSP ones."""

    lines: tuple[str, ...]
    codec: PositionCodec

    @classmethod
    def of(cls, text: str, codec: PositionCodec) -> LineIndex:
        return cls(tuple(split_lines(text)), codec)

    def _content(self, line0: int) -> str:
        return self.lines[line0].rstrip("\r\n")

    def end(self) -> types.Position:
        if not self.lines:
            return types.Position(line=0, character=0)
        last = self.lines[-1]
        if last.endswith(("\n", "\r")):
            return types.Position(line=len(self.lines), character=0)
        return types.Position(line=len(self.lines) - 1, character=self.codec.client_num_units(last))

    def to_client(self, line: int, col: int) -> types.Position:
        """jaxlint (1-based line, code points) -> LSP position in the client's units."""
        line0 = line - 1
        if line0 < 0:
            return types.Position(line=0, character=0)
        if line0 >= len(self.lines):
            return self.end()
        content = self._content(line0)
        col = max(0, min(col, len(content)))
        return types.Position(line=line0, character=self.codec.client_num_units(content[:col]))

    def range_to_client(self, start: Position, end: Position) -> types.Range:
        return types.Range(
            start=self.to_client(start.line, start.col), end=self.to_client(end.line, end.col)
        )

    def line_start(self, line0: int) -> types.Position:
        """Start of the 0-based line `line0`; the end of the text for `line0 == len(lines)`."""
        if line0 < len(self.lines):
            return types.Position(line=line0, character=0)
        return self.end()

    def from_client(self, pos: types.Position) -> tuple[int, int]:
        """LSP position -> (0-based line, code-point column), clamped to the text."""
        if not self.lines:
            return (0, 0)
        if pos.line >= len(self.lines):
            return (len(self.lines), 0)
        content = self._content(pos.line)
        units = 0
        for i, ch in enumerate(content):
            if units >= pos.character:
                return (pos.line, i)
            units += self.codec.client_num_units(ch)
        return (pos.line, len(content))


# -- rule documentation as markdown ---------------------------------------------------------


def rule_markdown(code: str) -> str | None:
    """The rule's page as Markdown, from the one parse of its docs, plus a docs link."""
    from jaxlint.rules import get_rule
    from jaxlint.rules.docs import explain_markdown

    rule = get_rule(code)
    if rule is None:
        return None
    return explain_markdown(rule) + f"\n[{code} documentation]({rule_url(code)})\n"


# -- noqa comments ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LineEnds:
    """Per line: where a trailing comment can go (None: nowhere) and the existing comment."""

    appendable: frozenset[int]  # 1-based lines that end in a NEWLINE/NL token
    comments: dict[int, tuple[int, str]]  # 1-based line -> (code-point column, comment text)

    @classmethod
    def of(cls, text: str) -> LineEnds:
        appendable: set[int] = set()
        comments: dict[int, tuple[int, str]] = {}
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type in (tokenize.NEWLINE, tokenize.NL):
                    appendable.add(tok.start[0])
                elif tok.type == tokenize.COMMENT:
                    comments[tok.start[0]] = (tok.start[1], tok.string)
                elif tok.type == tokenize.ENDMARKER:
                    appendable.add(tok.start[0])
        except (tokenize.TokenError, SyntaxError, IndentationError):
            pass
        return cls(frozenset(appendable), comments)


def noqa_edit(text_line: str, line: int, code: str, ends: LineEnds) -> tuple[int, int, str] | None:
    """(start col, end col, replacement) on `line` that adds `code` to its `# noqa`, or None
    when a comment cannot go there (the line ends inside a string or after a backslash)."""
    content = text_line.rstrip("\r\n")
    comment = ends.comments.get(line)
    if comment is not None:
        col, comment_text = comment
        m = NOQA.search(comment_text)
        if m and m.group("codes") and not re.search(r"# noqa\s+:", comment_text, re.I):
            codes_text = m.group("codes")
            insert = col + m.start("codes") + len(codes_text.rstrip(", \t"))
            return (insert, insert, f", {code}")
        end = col + len(comment_text)
        return (end, len(content), f"  # noqa: {code}")
    if line not in ends.appendable:
        return None
    stripped = len(content.rstrip())
    return (stripped, len(content), f"  # noqa: {code}")


# JAXLINT_NO_PROJECT_INDEX=1: no cross-module tracing (as `jaxlint check --no-project-index`)
NO_PROJECT_INDEX = os.environ.get("JAXLINT_NO_PROJECT_INDEX", "") not in ("", "0")

# -- server state ---------------------------------------------------------------------------


@dataclass
class LintResult:
    version: int | None
    text: str
    index: LineIndex
    diagnostics: list[Diagnostic]
    settings: Settings | None
    path: str
    _ends: LineEnds | None = None
    notebook: tuple[tuple[str, ...], int] | None = None  # (code cell texts, this cell's index)
    # the facts of an unseeded lint: the project-index summary comes from them (dropped after)
    facts: object | None = None

    @property
    def ends(self) -> LineEnds:
        if self._ends is None:
            self._ends = LineEnds.of(self.text)
        return self._ends


@dataclass
class DocState:
    last_change: float = float("-inf")
    worker: asyncio.Task | None = None
    key: tuple | None = None  # (version, text) of `pending`
    pending: asyncio.Future | None = None  # -> LintResult
    fix_key: tuple | None = None
    fix_pending: asyncio.Future | None = None  # -> fixed text
    tasks: set[asyncio.Task] = field(default_factory=set)


def config_signature(path: str | None) -> tuple:
    """(pyproject path, mtime, size) for the folder of `path` and every folder above it."""
    if not path:
        return ()
    out = []
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        try:
            st = os.stat(candidate)
            out.append((candidate, st.st_mtime_ns, st.st_size))
        except OSError:
            pass
        parent = os.path.dirname(directory)
        if parent == directory:
            return tuple(out)
        directory = parent


class JaxlintProtocol(LanguageServerProtocol):
    """pygls' protocol, but a change to a document it does not hold is dropped with a log
    line instead of a KeyError (which pygls turns into an error popup in the editor)."""

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):  # noqa: ANN201
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            logger.warning("didChange for %s, which is not open: ignored", params.text_document.uri)
            return
        yield from super().lsp_text_document__did_change(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):  # noqa: ANN201
        if unquote(params.notebook_document.uri) not in self.workspace.notebook_documents:
            logger.warning(
                "notebook didChange for %s, which is not open: ignored",
                params.notebook_document.uri,
            )
            return
        yield from super().lsp_notebook_document__did_change(params)


NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")]
        )
    ]
)


class JaxlintServer(LanguageServer):
    """pygls server plus jaxlint's per-document state."""

    def __init__(self, debounce: float = DEFAULT_DEBOUNCE_S) -> None:
        super().__init__(
            "jaxlint",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=JaxlintProtocol,
        )
        self.debounce = debounce
        self.docs: dict[str, DocState] = {}
        self.lint_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jaxlint-lint")
        self._resolver = ConfigResolver()
        self._signatures: dict[str, tuple] = {}
        # the project index per project root, and the text each file was summarised from
        # (lint thread only)
        self._projects: dict[str, object] = {}
        self._summarized: dict[str, str] = {}
        self._building: set[str] = set()
        self._build_requests: list[tuple[str, str, Settings]] = []
        self.index_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jaxlint-index")

    # -- documents ---------------------------------------------------------------------

    def open_document(self, uri: str):  # noqa: ANN201 - pygls TextDocument
        """The managed document, or None (pygls would otherwise read a closed one from disk)."""
        return self.workspace.text_documents.get(unquote(uri))

    def state(self, uri: str) -> DocState:
        return self.docs.setdefault(uri, DocState())

    def path_of(self, uri: str) -> str | None:
        return to_fs_path(uri) if uri.startswith("file:") else None

    def wants(self, uri: str, language_id: str | None) -> bool:
        path = self.path_of(uri) or unquote(uri)
        return language_id == "python" or path.endswith(PYTHON_SUFFIXES)

    def spawn(self, uri: str, coro) -> asyncio.Task:  # noqa: ANN001
        task = asyncio.get_running_loop().create_task(coro)
        tasks = self.state(uri).tasks
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        task.add_done_callback(_log_task_error)
        return task

    # -- configuration (called in the lint thread only) ----------------------------------

    def settings_for(self, path: str | None) -> Settings:
        target = path or self.workspace.root_path or os.getcwd()
        directory = os.path.dirname(os.path.abspath(target)) if path else target
        signature = config_signature(os.path.join(directory, "x.py"))
        if self._signatures.get(directory, signature) != signature:
            self._reset_resolver()  # a pyproject.toml changed: forget them all
        self._signatures[directory] = signature
        try:
            return self._resolver.for_path(target)
        except UsageError as exc:  # a broken pyproject.toml: say so, lint with the defaults
            logger.warning("jaxlint configuration error: %s", exc)
            return Settings(exclude=DEFAULT_EXCLUDE, root=directory)

    def forget_config(self) -> None:
        self.lint_pool.submit(self._reset_resolver)

    def _reset_resolver(self) -> None:
        from jaxlint.jaxversion import forget

        self._resolver = ConfigResolver()
        self._signatures.clear()
        forget()  # the inferred target JAX may come from the changed file

    # -- linting ---------------------------------------------------------------------------

    def _lint_sync(self, uri: str, version: int | None, text: str) -> LintResult:
        path = self.path_of(uri)
        display = path or unquote(uri)
        settings = self.settings_for(path)
        index = LineIndex.of(text, self.workspace.position_codec)
        if path and settings.is_excluded(path):
            return LintResult(version, text, index, [], settings, display)
        seeds = None
        if path and path.endswith(".py") and not NO_PROJECT_INDEX:
            try:
                project = self._project(path, settings)
                seeds = project.seeds_for(path) if project is not None else None  # type: ignore[attr-defined]
            except Exception:  # the cross-module facts are a bonus, never cost the findings
                logger.exception("project index for %s failed", path)
        facts_out: list | None = [] if path and not seeds and not NO_PROJECT_INDEX else None
        diags = lint_text(text, display, LintOptions(settings=settings, seeds=seeds), facts_out)
        facts = facts_out[0] if facts_out else None
        return LintResult(version, text, index, diags, settings, display, facts=facts)

    def _project(self, path: str, settings: Settings):  # noqa: ANN202 - ProjectIndex | None
        """The project index of the file's project (lint thread). The first file of a project
        asks for it to be built in the background (`index_pool`): its diagnostics do not wait,
        and the open files of the project are linted again once it is there."""
        from jaxlint.project_index import package_top, project_root

        path = os.path.abspath(path)
        root = project_root([path]) or package_top(path)
        project = self._projects.get(root)
        if project is None and root not in self._building:
            self._building.add(root)
            self._build_requests.append((root, path, settings))
        return project

    async def build_projects(self) -> None:
        """Build the indexes asked for, then re-lint the open documents of each project."""
        from jaxlint.project_index import build_for_root

        loop = asyncio.get_running_loop()
        while self._build_requests:
            root, path, settings = self._build_requests.pop(0)
            try:
                project = await loop.run_in_executor(
                    self.index_pool, build_for_root, root, path, settings
                )
            except Exception:
                logger.exception("building the project index of %s failed", root)
                continue
            await loop.run_in_executor(self.lint_pool, self._install_project, root, project)
            for doc_uri in list(self.workspace.text_documents):
                doc_path = self.path_of(doc_uri)
                if doc_path and os.path.abspath(doc_path).startswith(root + os.sep):
                    self.invalidate(doc_uri)
                    self.spawn(doc_uri, self.publish(doc_uri))

    def _install_project(self, root: str, project: object) -> None:
        self._projects[root] = project
        for path in [p for p in self._summarized if p.startswith(root + os.sep)]:
            del self._summarized[path]  # built from disk: open buffers are summarised again

    def _resummarize(
        self, path: str, text: str, settings: Settings, facts: object | None = None
    ) -> frozenset[str]:
        """Re-summarise a document's text (after its diagnostics are out, so its own latency
        does not grow; from the lint's facts when it had no seeds); the other files whose
        seeds that changed (lint thread)."""
        from jaxlint.analysis.project import (
            module_names,
            needs_summary,
            summarize,
            uses_random,
            uses_transform,
        )
        from jaxlint.project_index import package_top, project_root, summarize_text

        path = os.path.abspath(path)
        if self._summarized.get(path) == text:
            return frozenset()
        try:
            project = self._project(path, settings)
            if project is None:
                return frozenset()  # being built; this buffer is summarised once it is
            root = project_root([path]) or package_top(path)
            before = project.seeds()  # type: ignore[attr-defined]
            names, is_package = module_names(path, root)
            summary = None
            jd = settings.jit_decorators
            if names and needs_summary(path, text, jd, linted=True):
                if facts is not None:
                    used = uses_transform(text, jd)
                    summary = summarize(facts, names[0], is_package, used, uses_random(text))
                else:
                    summary = summarize_text(text, path, names[0], is_package, jd)
            if names:
                project.add_module(path, names, summary)  # type: ignore[attr-defined]
            self._summarized[path] = text
            after = project.seeds()  # type: ignore[attr-defined]
        except Exception:
            logger.exception("project index update for %s failed", path)
            return frozenset()
        # the file itself too: its key-helper seeds come from its own imports
        return frozenset(p for p in set(before) | set(after) if before.get(p) != after.get(p))

    async def update_project(self, result: LintResult) -> None:
        if NO_PROJECT_INDEX or not result.path.endswith(".py") or not os.path.isabs(result.path):
            return
        loop = asyncio.get_running_loop()
        facts, result.facts = result.facts, None
        dependents = await loop.run_in_executor(
            self.lint_pool,
            self._resummarize,
            result.path,
            result.text,
            result.settings or Settings(),
            facts,
        )
        if dependents:
            self.relint_dependents(dependents)

    async def lint(self, uri: str) -> LintResult | None:
        """The lint result for the document's current text (shared by concurrent callers).

        For a notebook cell: the whole notebook is linted, the result holds that cell's part.
        """
        doc = self.open_document(uri)
        if doc is None:
            return None
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            cells = self.notebook_cells(notebook)
            results = await self.lint_notebook(notebook.uri, notebook.version, cells)
            return results.get(uri)
        st = self.state(uri)
        text, version = doc.source, doc.version
        key = (version, text)
        if st.pending is None or st.key != key:
            loop = asyncio.get_running_loop()
            st.key = key
            st.pending = loop.run_in_executor(self.lint_pool, self._lint_sync, uri, version, text)
        return await asyncio.shield(st.pending)

    # -- notebooks --------------------------------------------------------------------------

    def notebook_cells(self, notebook: types.NotebookDocument) -> tuple:
        """((cell uri, version, text), ...) of the code cells, in notebook order."""
        out = []
        for cell in notebook.cells:
            if cell.kind != types.NotebookCellKind.Code:
                continue
            doc = self.open_document(cell.document)
            if doc is not None:
                out.append((cell.document, doc.version, doc.source))
        return tuple(out)

    async def lint_notebook(self, nb_uri: str, version: int, cells: tuple) -> dict:
        st = self.state(nb_uri)
        key = (version, cells)
        if st.pending is None or st.key != key:
            st.key = key
            st.pending = asyncio.get_running_loop().run_in_executor(
                self.lint_pool, self._lint_notebook_sync, nb_uri, cells
            )
        return await asyncio.shield(st.pending)

    def _lint_notebook_sync(self, nb_uri: str, cells: tuple) -> dict[str, LintResult]:
        from jaxlint.files.notebook import lint_cells

        path = self.path_of(nb_uri)
        display = path or unquote(nb_uri)
        settings = self.settings_for(path)
        excluded = bool(path and settings.is_excluded(path))
        options = LintOptions(settings=settings)
        found = [] if excluded else lint_cells([c[2] for c in cells], options, display)
        out: dict[str, LintResult] = {}
        for i, (uri, version, text) in enumerate(cells):
            index = LineIndex.of(text, self.workspace.position_codec)
            mine = [d for d in found if d.cell == i]
            texts = tuple(c[2] for c in cells)
            out[uri] = LintResult(
                version, text, index, mine, settings, display, notebook=(texts, i)
            )
        return out

    async def publish_notebook(self, nb_uri: str) -> None:
        notebook = self.workspace.get_notebook_document(notebook_uri=nb_uri)
        if notebook is None:
            return
        version, cells = notebook.version, self.notebook_cells(notebook)
        try:
            results = await self.lint_notebook(nb_uri, version, cells)
        except Exception:
            logger.exception("linting %s failed", nb_uri)
            return
        notebook = self.workspace.get_notebook_document(notebook_uri=nb_uri)
        if notebook is None or notebook.version != version:
            return  # a newer version is on its way
        for uri, result in results.items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri,
                    version=result.version,
                    diagnostics=[to_lsp(d, result.index) for d in result.diagnostics],
                )
            )

    def invalidate(self, uri: str) -> None:
        st = self.state(uri)
        st.key = st.pending = st.fix_key = st.fix_pending = None

    async def publish(self, uri: str) -> None:
        started = time.perf_counter()
        try:
            result = await self.lint(uri)
        except Exception:
            logger.exception("linting %s failed", uri)
            return
        doc = self.open_document(uri)
        if (
            result is None
            or doc is None
            or doc.version != result.version
            or doc.source != result.text
        ):
            return  # a newer version is on its way; only the latest one is published
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                version=result.version,
                diagnostics=[to_lsp(d, result.index) for d in result.diagnostics],
            )
        )
        self.spawn(uri, self.update_project(result))
        if self._build_requests:
            self.spawn(uri, self.build_projects())
        logger.debug(
            "published %d diagnostics for %s v%s in %.1f ms",
            len(result.diagnostics),
            uri,
            result.version,
            (time.perf_counter() - started) * 1000,
        )

    def relint_dependents(self, paths: frozenset[str]) -> None:
        """Open documents whose incoming seeds changed (a caller in another file gained or lost
        a jit): lint them again."""
        for doc_uri in list(self.workspace.text_documents):
            doc_path = self.path_of(doc_uri)
            if doc_path and os.path.abspath(doc_path) in paths:
                self.invalidate(doc_uri)
                self.spawn(doc_uri, self.publish(doc_uri))

    def clear(self, uri: str) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    # -- debounce ---------------------------------------------------------------------------

    def changed(self, uri: str) -> None:
        st = self.state(uri)
        now = time.monotonic()
        quiet = now - st.last_change >= self.debounce
        st.last_change = now
        if st.worker is not None and not st.worker.done():
            return  # the running worker picks up the latest version
        st.worker = self.spawn(uri, self._change_worker(uri, immediate=quiet))

    def notebook_changed(self, nb_uri: str) -> None:
        """`changed` for a notebook: the same debounce, then the whole notebook is linted."""
        st = self.state(nb_uri)
        now = time.monotonic()
        quiet = now - st.last_change >= self.debounce
        st.last_change = now
        if st.worker is not None and not st.worker.done():
            return
        st.worker = self.spawn(nb_uri, self._notebook_worker(nb_uri, immediate=quiet))

    async def _notebook_worker(self, nb_uri: str, immediate: bool) -> None:
        st = self.state(nb_uri)
        if not immediate:
            await self._wait_quiet(st)
        while True:
            notebook = self.workspace.get_notebook_document(notebook_uri=nb_uri)
            if notebook is None:
                return
            version = notebook.version
            await self.publish_notebook(nb_uri)
            notebook = self.workspace.get_notebook_document(notebook_uri=nb_uri)
            if notebook is None or notebook.version == version:
                return
            await self._wait_quiet(st)

    async def _wait_quiet(self, st: DocState) -> None:
        while (remaining := st.last_change + self.debounce - time.monotonic()) > 0:
            await asyncio.sleep(remaining)

    async def _change_worker(self, uri: str, immediate: bool) -> None:
        st = self.state(uri)
        if not immediate:
            await self._wait_quiet(st)
        while True:
            doc = self.open_document(uri)
            if doc is None:
                return
            version = doc.version
            await self.publish(uri)
            doc = self.open_document(uri)
            if doc is None or doc.version == version:
                return
            await self._wait_quiet(st)

    # -- fixes ----------------------------------------------------------------------------

    async def fixed_text(self, result: LintResult, uri: str) -> str:
        st = self.state(uri)
        key = (result.version, result.text)
        if st.fix_pending is None or st.fix_key != key:
            options = LintOptions(settings=result.settings or Settings())
            st.fix_key = key
            st.fix_pending = asyncio.get_running_loop().run_in_executor(
                self.lint_pool, _fixed_text, result, options
            )
        return await asyncio.shield(st.fix_pending)

    def workspace_edit(
        self, uri: str, version: int | None, edits: list[types.TextEdit]
    ) -> types.WorkspaceEdit:
        caps = self.client_capabilities
        document_changes = bool(
            caps.workspace
            and caps.workspace.workspace_edit
            and caps.workspace.workspace_edit.document_changes
        )
        if document_changes and version is not None:
            return types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(
                            uri=uri, version=version
                        ),
                        edits=edits,
                    )
                ]
            )
        return types.WorkspaceEdit(changes={uri: edits})

    def supports_resolve(self, prop: str) -> bool:
        caps = self.client_capabilities.text_document
        support = caps and caps.code_action and caps.code_action.resolve_support
        return bool(support and prop in support.properties)


def _fixed_text(result: LintResult, options: LintOptions) -> str:
    """The document with every safe fix; a notebook cell is fixed within its notebook."""
    if result.notebook is None:
        return fix_text(result.text, result.path, options).text
    from jaxlint.files.notebook import fix_cells

    texts, i = result.notebook
    return fix_cells(list(texts), options, result.path)[i]


def _log_task_error(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.error("background task failed", exc_info=task.exception())


def to_lsp(d: Diagnostic, index: LineIndex) -> types.Diagnostic:
    return types.Diagnostic(
        range=index.range_to_client(d.span.start, d.span.end),
        message=d.message,
        severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Warning),
        code=d.code,
        code_description=(
            types.CodeDescription(href=rule_url(d.code)) if d.code != "JAX000" else None
        ),
        source=SOURCE,
    )


def text_edits(edits, index: LineIndex) -> list[types.TextEdit]:  # noqa: ANN001
    return [
        types.TextEdit(range=index.range_to_client(e.start, e.end), new_text=e.content)
        for e in sorted(edits, key=lambda e: (e.start, e.end))
    ]


def diff_edits(old: str, new: str, index: LineIndex) -> list[types.TextEdit]:
    """Whole-line edits turning `old` into `new` (so the editor keeps cursor and folds)."""
    a, b = split_lines(old), split_lines(new)
    out = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append(
            types.TextEdit(
                range=types.Range(start=index.line_start(i1), end=index.line_start(i2)),
                new_text="".join(b[j1:j2]),
            )
        )
    return out


def _overlaps(d: Diagnostic, start: tuple[int, int], end: tuple[int, int]) -> bool:
    d_start = (d.span.start.line - 1, d.span.start.col)
    d_end = (d.span.end.line - 1, d.span.end.col)
    return d_start <= end and start <= d_end


def _wanted(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


# -- the server -----------------------------------------------------------------------------


def build_server(debounce: float = DEFAULT_DEBOUNCE_S) -> JaxlintServer:
    server = JaxlintServer(debounce)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: JaxlintServer, params: types.InitializedParams) -> None:
        caps = ls.client_capabilities.workspace
        watched = caps and caps.did_change_watched_files
        if watched and watched.dynamic_registration:
            options = types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml")]
            )
            registration = types.Registration(
                id="jaxlint-pyproject",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=options,
            )
            try:
                await ls.client_register_capability_async(
                    types.RegistrationParams(registrations=[registration])
                )
            except Exception as exc:  # the client may refuse; saving still refreshes
                logger.info("could not watch pyproject.toml files: %s", exc)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched_files_changed(
        ls: JaxlintServer, params: types.DidChangeWatchedFilesParams
    ) -> None:
        if not any(c.uri.endswith("pyproject.toml") for c in params.changes):
            return
        ls.forget_config()
        for uri in list(ls.docs):
            if ls.open_document(uri) is not None:
                ls.invalidate(uri)
                ls.spawn(uri, ls.publish(uri))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: JaxlintServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        if not ls.wants(doc.uri, doc.language_id):
            return
        ls.invalidate(doc.uri)
        ls.spawn(doc.uri, ls.publish(doc.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: JaxlintServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.open_document(uri)
        if doc is not None and ls.wants(uri, doc.language_id):
            ls.changed(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    async def did_save(ls: JaxlintServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.open_document(uri)
        if doc is None or not ls.wants(uri, doc.language_id):
            return
        ls.invalidate(uri)  # the configuration may have changed too
        ls.spawn(uri, ls.publish(uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: JaxlintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        st = ls.docs.pop(uri, None)
        if st is not None:
            for task in list(st.tasks):
                task.cancel()
            ls.clear(uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    async def notebook_did_open(
        ls: JaxlintServer, params: types.DidOpenNotebookDocumentParams
    ) -> None:
        uri = params.notebook_document.uri
        ls.invalidate(uri)
        ls.spawn(uri, ls.publish_notebook(uri))

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    async def notebook_did_change(
        ls: JaxlintServer, params: types.DidChangeNotebookDocumentParams
    ) -> None:
        uri = params.notebook_document.uri
        structure = params.change.cells.structure if params.change.cells else None
        for cell in (structure.did_close or []) if structure else []:
            ls.clear(cell.uri)  # a deleted cell keeps no diagnostics
        ls.notebook_changed(uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    async def notebook_did_save(
        ls: JaxlintServer, params: types.DidSaveNotebookDocumentParams
    ) -> None:
        uri = params.notebook_document.uri
        ls.invalidate(uri)  # the configuration may have changed too
        ls.spawn(uri, ls.publish_notebook(uri))

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    async def notebook_did_close(
        ls: JaxlintServer, params: types.DidCloseNotebookDocumentParams
    ) -> None:
        st = ls.docs.pop(params.notebook_document.uri, None)
        if st is not None:
            for task in list(st.tasks):
                task.cancel()
        for cell in params.cell_text_documents:
            ls.clear(cell.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
            resolve_provider=True,
        ),
    )
    async def code_action(
        ls: JaxlintServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        result = await ls.lint(uri)
        if result is None:
            return None
        only = list(params.context.only or []) or None
        index = result.index
        start = index.from_client(params.range.start)
        end = index.from_client(params.range.end)
        here = [d for d in result.diagnostics if d.code != "JAX000" and _overlaps(d, start, end)]
        actions: list[types.CodeAction] = []
        if _wanted(types.CodeActionKind.QuickFix, only):
            for d in here:
                if d.fix is None or d.fix.display_only:
                    continue  # like ruff: a display-only suggestion is shown, never applied
                unsafe = d.fix.safety != "safe"
                what = d.fix.message or f"Fix {d.code}"
                actions.append(
                    types.CodeAction(
                        title=f"{d.code}: {what}" + (" (unsafe)" if unsafe else ""),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[to_lsp(d, index)],
                        is_preferred=not unsafe,
                        edit=ls.workspace_edit(uri, result.version, text_edits(d.fix.edits, index)),
                    )
                )
            seen: set[tuple[int, str]] = set()
            for d in here:
                if (d.line, d.code) in seen:
                    continue
                seen.add((d.line, d.code))
                line0 = d.line - 1
                if line0 >= len(index.lines):
                    continue
                target = d.line
                edit = noqa_edit(index.lines[line0], d.line, d.code, result.ends)
                if edit is None:
                    # the line ends inside a string or after a backslash: flake8 (and jaxlint)
                    # read the noqa at the end of the token range, as `--add-noqa` writes it
                    target = token_ranges(result.text)[0].get(d.line, (0, 0))[1]
                    if target <= d.line or target > len(index.lines):
                        continue
                    edit = noqa_edit(index.lines[target - 1], target, d.code, result.ends)
                    if edit is None:
                        continue
                a, b, new_text = edit
                actions.append(
                    types.CodeAction(
                        title=f"Disable {d.code} on this line",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[to_lsp(d, index)],
                        edit=ls.workspace_edit(
                            uri,
                            result.version,
                            [
                                types.TextEdit(
                                    range=types.Range(
                                        start=index.to_client(target, a),
                                        end=index.to_client(target, b),
                                    ),
                                    new_text=new_text,
                                )
                            ],
                        ),
                    )
                )
        fixable = any(d.fix is not None and d.fix.safety == "safe" for d in result.diagnostics)
        if fixable and _wanted(FIX_ALL_KIND, only):
            action = types.CodeAction(
                title=FIX_ALL_TITLE,
                kind=FIX_ALL_KIND,
                data={"uri": uri, "version": result.version},
            )
            if not ls.supports_resolve("edit"):
                action = await resolve_fix_all(ls, action)
                if action.edit is None:
                    action = None
            if action is not None:
                actions.append(action)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: JaxlintServer, action: types.CodeAction) -> types.CodeAction:
        if action.kind == FIX_ALL_KIND:
            return await resolve_fix_all(ls, action)
        return action

    async def resolve_fix_all(ls: JaxlintServer, action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("uri")
        if not uri:
            return action
        result = await ls.lint(uri)
        if result is None or (data.get("version") not in (None, result.version)):
            return action  # the document changed since; the client asks again
        new_text = await ls.fixed_text(result, uri)
        if new_text != result.text:
            edits = diff_edits(result.text, new_text, result.index)
            action.edit = ls.workspace_edit(uri, result.version, edits)
        return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: JaxlintServer, params: types.HoverParams) -> types.Hover | None:
        result = await ls.lint(params.text_document.uri)
        if result is None:
            return None
        pos = result.index.from_client(params.position)
        hits = [d for d in result.diagnostics if _overlaps(d, pos, pos)]
        if not hits:
            return None
        parts = []
        seen: set[str] = set()
        for d in hits:
            if d.code in seen:
                continue
            seen.add(d.code)
            docs = rule_markdown(d.code)
            hint = suggestion(d)
            head = f"**{d.code}**: {d.message}" + (f"\n\n{hint}" if hint else "")
            parts.append(head + (f"\n\n{docs}" if docs else ""))
        first = hits[0]
        return types.Hover(
            contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)
            ),
            range=result.index.range_to_client(first.span.start, first.span.end),
        )

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: JaxlintServer, params: None) -> None:
        for st in ls.docs.values():
            for task in list(st.tasks):
                task.cancel()
        ls.lint_pool.shutdown(wait=False, cancel_futures=True)
        ls.index_pool.shutdown(wait=False, cancel_futures=True)

    return server


def serve(debounce_ms: int = 150, log_level: str = "WARNING") -> int:
    """Run the server on stdin/stdout until the client says exit."""
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, log_level.upper(), logging.WARNING),
        format="jaxlint-lsp %(levelname)s %(name)s: %(message)s",
    )
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the protocol stream
    server = build_server(max(0, debounce_ms) / 1000)
    server.start_io(stdin, stdout)
    return 0
