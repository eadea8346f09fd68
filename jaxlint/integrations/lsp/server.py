"""The jaxlint language server's state: open documents, their lint results and the debounce.

`JaxlintServer` owns what the LSP handlers (`features`, `actions`, `hover`) share: the buffer is
linted from memory with the configuration that applies to the file's path (nearest
pyproject.toml with `[tool.jaxlint]`, re-read when one changes), in one worker thread so the
event loop keeps answering requests; concurrent requests for the same version share one lint;
results are published only for the document's latest version; and the project index (names
traced across modules) is built in the background and updated from the open buffers.
A notebook's code cells are linted together and each cell gets its own result.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from jaxlint import __version__, api
from jaxlint.api import LintOptions
from jaxlint.core.config import DEFAULT_EXCLUDE, ConfigResolver, Settings
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.core.errors import UsageError
from jaxlint.integrations.lsp.noqa import LineEnds
from jaxlint.integrations.lsp.positions import LineIndex, to_lsp

logger = logging.getLogger("jaxlint.lsp")

DEFAULT_DEBOUNCE_S = 0.150
# how long a document must stay unchanged before its text is summarised again for the project
# index when its lint kept no facts of the whole module (a parse and an analysis of the text,
# as long as a whole lint): other files see its new cross-module facts after a pause in the
# typing, and the CPU between two edits stays free for the next edit's diagnostics
SUMMARY_DELAY_S = 1.0
PYTHON_SUFFIXES = (".py", ".pyi")
# JAXLINT_NO_PROJECT_INDEX=1: no cross-module tracing (as `jaxlint check --no-project-index`)
NO_PROJECT_INDEX = not api.project_index_enabled()

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
    # linted by parts (`api.IncrementalLinter`): the findings are the module's, their fixes
    # were built on parts of it, so code actions ask for `JaxlintServer.exact` first
    incremental: bool = False
    options: LintOptions | None = None
    exact: LintResult | None = None

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
    # the document's incremental lint (lint thread only): an edit re-lints only the parts of
    # the module it can change (issue 26: 400 -> ~10 ms after an edit of a 3,000-line file)
    linter: api.IncrementalLinter = field(default_factory=api.IncrementalLinter)


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
        self.summary_delay = SUMMARY_DELAY_S
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
        from jaxlint.core.jaxversion import forget

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
        keep_facts = bool(path and not seeds and not NO_PROJECT_INDEX)
        # the collector paused for one lint: a lint's syntax trees are cyclic (parent links),
        # so while it runs every young collection rescans them and promotes them; collected
        # once afterwards instead (about 15 % of a 1,000-line file's lint, and its outliers)
        paused = gc.isenabled()
        if paused:
            gc.disable()
        st = self.docs.get(uri)
        try:
            # diagnostics show no fixability: fixes stay lazy (a JAX201 fix is checked by
            # re-analysing the module) until a code action asks for the ones under the cursor
            options = LintOptions(settings=settings, seeds=seeds, lazy_fixes=True)
            if st is None:  # closed meanwhile
                found = api.analyse_text(text, display, options, keep_facts=keep_facts)
                diags, facts, incremental = found.diagnostics, found.facts, False
            else:
                facts_out: list | None = [] if keep_facts else None
                diags = st.linter.lint(text, display, options, facts_out)
                facts = facts_out[0] if facts_out else None
                incremental = st.linter.last_incremental
        finally:
            if paused:
                gc.enable()
        return LintResult(
            version,
            text,
            index,
            diags,
            settings,
            display,
            facts=facts,
            incremental=incremental,
            options=options,
        )

    async def exact(self, result: LintResult) -> LintResult:
        """`result`, or for a lint by parts the whole module's lint of the same text (once):
        its findings are the same, and their fixes are built on the module."""
        if not result.incremental or result.options is None:
            return result
        if result.exact is None:
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(
                self.lint_pool, api.lint_text, result.text, result.path, result.options
            )
            result.exact = replace(result, diagnostics=found, incremental=False, facts=None)
        return result.exact

    def _project(self, path: str, settings: Settings):  # noqa: ANN202 - ProjectIndex | None
        """The project index of the file's project (lint thread). The first file of a project
        asks for it to be built in the background (`index_pool`): its diagnostics do not wait,
        and the open files of the project are linted again once it is there."""
        path = os.path.abspath(path)
        root = api.tree_root(path)
        project = self._projects.get(root)
        if project is None and root not in self._building:
            self._building.add(root)
            self._build_requests.append((root, path, settings))
        return project

    async def build_projects(self) -> None:
        """Build the indexes asked for, then re-lint the open documents of each project."""
        loop = asyncio.get_running_loop()
        while self._build_requests:
            root, path, settings = self._build_requests.pop(0)
            try:
                project = await loop.run_in_executor(
                    self.index_pool, api.build_tree_index, root, path, settings
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
        self,
        path: str,
        text: str,
        settings: Settings,
        facts: object | None = None,
        summarized: api.TreeSummary | None = None,
    ) -> frozenset[str]:
        """Re-summarise a document's text (after its diagnostics are out, so its own latency
        does not grow; from the lint's facts when it had no seeds, or the summary computed in
        the index thread); the other files whose seeds that changed (lint thread)."""
        path = os.path.abspath(path)
        if self._summarized.get(path) == text:
            return frozenset()
        try:
            project = self._project(path, settings)
            if project is None:
                return frozenset()  # being built; this buffer is summarised once it is
            changed = api.update_tree_index(
                project,  # type: ignore[arg-type]
                path,
                text,
                settings,
                facts,  # type: ignore[arg-type]
                summarized,
            )
            self._summarized[path] = text
        except Exception:
            logger.exception("project index update for %s failed", path)
            return frozenset()
        return changed

    async def update_project(self, result: LintResult, uri: str) -> None:
        if NO_PROJECT_INDEX or not result.path.endswith(".py") or not os.path.isabs(result.path):
            return
        loop = asyncio.get_running_loop()
        facts, result.facts = result.facts, None
        settings = result.settings or Settings()
        summarized = None
        if facts is None and self._summarized.get(os.path.abspath(result.path)) != result.text:
            # no facts of the whole module (linted by parts, or with seeds): the summary is a
            # parse and an analysis of the text, as long as a whole lint. Only for the version
            # the typing pauses on (SUMMARY_DELAY_S), and in the index thread: the lint thread
            # stays free for the next edit's diagnostics
            await asyncio.sleep(max(self.summary_delay, self.debounce))
            doc = self.open_document(uri)
            if doc is None or doc.version != result.version or doc.source != result.text:
                return  # a newer version is on its way; it is summarised instead
            if self._projects.get(api.tree_root(result.path)) is None:
                return  # being built: the open buffers are summarised once it is
            try:
                summarized = await loop.run_in_executor(
                    self.index_pool, api.summarize_for_tree, result.path, result.text, settings
                )
            except Exception:
                logger.exception("summarising %s for the project index failed", result.path)
                return
        dependents = await loop.run_in_executor(
            self.lint_pool,
            self._resummarize,
            result.path,
            result.text,
            settings,
            facts,
            summarized,
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
        path = self.path_of(nb_uri)
        display = path or unquote(nb_uri)
        settings = self.settings_for(path)
        excluded = bool(path and settings.is_excluded(path))
        options = LintOptions(settings=settings)
        found = [] if excluded else api.lint_cells([c[2] for c in cells], options, display)
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
        self.spawn(uri, self.update_project(result, uri))
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
        self._debounce(uri, self.open_document, self.publish)

    def notebook_changed(self, nb_uri: str) -> None:
        """`changed` for a notebook: the same debounce, then the whole notebook is linted."""
        self._debounce(nb_uri, self._notebook, self.publish_notebook)

    def _notebook(self, nb_uri: str):  # noqa: ANN202 - pygls NotebookDocument | None
        return self.workspace.get_notebook_document(notebook_uri=nb_uri)

    def _debounce(self, uri: str, current, publish) -> None:  # noqa: ANN001
        """Publish `uri` once its changes pause: at once after a quiet period, else when no
        change came for `debounce` seconds. `current(uri)` is the open document (or None),
        `publish(uri)` lints and publishes it."""
        st = self.state(uri)
        now = time.monotonic()
        quiet = now - st.last_change >= self.debounce
        st.last_change = now
        if st.worker is not None and not st.worker.done():
            return  # the running worker picks up the latest version
        st.worker = self.spawn(uri, self._change_worker(uri, quiet, current, publish))

    async def _wait_quiet(self, st: DocState) -> None:
        while (remaining := st.last_change + self.debounce - time.monotonic()) > 0:
            await asyncio.sleep(remaining)

    async def _change_worker(self, uri: str, immediate: bool, current, publish) -> None:  # noqa: ANN001
        st = self.state(uri)
        if not immediate:
            await self._wait_quiet(st)
        while True:
            doc = current(uri)
            if doc is None:
                return
            version = doc.version
            await publish(uri)
            doc = current(uri)
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
        return api.fix_text(result.text, result.path, options).text
    texts, i = result.notebook
    return api.fix_cells(list(texts), options, result.path)[i]


def _log_task_error(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.error("background task failed", exc_info=task.exception())
