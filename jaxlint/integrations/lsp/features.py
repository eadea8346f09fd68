"""The LSP methods jaxlint answers, and `serve`: document and notebook sync, the pyproject.toml
watcher and shutdown are here; code actions live in `actions`, hover in `hover`.

Each handler is a module-level coroutine taking the server as `ls` (pygls passes it by that
name), so `build_server` only lists what is registered, with its options.
"""

from __future__ import annotations

import logging
import sys

from lsprotocol import types

from jaxlint.integrations.lsp.actions import CODE_ACTION_OPTIONS, code_action, code_action_resolve
from jaxlint.integrations.lsp.hover import hover
from jaxlint.integrations.lsp.server import DEFAULT_DEBOUNCE_S, JaxlintServer

logger = logging.getLogger("jaxlint.lsp")


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


async def did_open(ls: JaxlintServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    if not ls.wants(doc.uri, doc.language_id):
        return
    ls.invalidate(doc.uri)
    ls.spawn(doc.uri, ls.publish(doc.uri))


async def did_change(ls: JaxlintServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.open_document(uri)
    if doc is not None and ls.wants(uri, doc.language_id):
        ls.changed(uri)


async def did_save(ls: JaxlintServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.open_document(uri)
    if doc is None or not ls.wants(uri, doc.language_id):
        return
    ls.invalidate(uri)  # the configuration may have changed too
    ls.spawn(uri, ls.publish(uri))


async def did_close(ls: JaxlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    st = ls.docs.pop(uri, None)
    if st is not None:
        for task in list(st.tasks):
            task.cancel()
        ls.clear(uri)


async def notebook_did_open(ls: JaxlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    ls.invalidate(uri)
    ls.spawn(uri, ls.publish_notebook(uri))


async def notebook_did_change(
    ls: JaxlintServer, params: types.DidChangeNotebookDocumentParams
) -> None:
    uri = params.notebook_document.uri
    structure = params.change.cells.structure if params.change.cells else None
    for cell in (structure.did_close or []) if structure else []:
        ls.clear(cell.uri)  # a deleted cell keeps no diagnostics
    ls.notebook_changed(uri)


async def notebook_did_save(ls: JaxlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    ls.invalidate(uri)  # the configuration may have changed too
    ls.spawn(uri, ls.publish_notebook(uri))


async def notebook_did_close(
    ls: JaxlintServer, params: types.DidCloseNotebookDocumentParams
) -> None:
    st = ls.docs.pop(params.notebook_document.uri, None)
    if st is not None:
        for task in list(st.tasks):
            task.cancel()
    for cell in params.cell_text_documents:
        ls.clear(cell.uri)


async def shutdown(ls: JaxlintServer, params: None) -> None:
    for st in ls.docs.values():
        for task in list(st.tasks):
            task.cancel()
    ls.lint_pool.shutdown(wait=False, cancel_futures=True)
    ls.index_pool.shutdown(wait=False, cancel_futures=True)


def build_server(debounce: float = DEFAULT_DEBOUNCE_S) -> JaxlintServer:
    """A server with every jaxlint feature registered (not started)."""
    server = JaxlintServer(debounce)
    features = [
        (types.INITIALIZED, None, initialized),
        (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, None, watched_files_changed),
        (types.TEXT_DOCUMENT_DID_OPEN, None, did_open),
        (types.TEXT_DOCUMENT_DID_CHANGE, None, did_change),
        (types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False), did_save),
        (types.TEXT_DOCUMENT_DID_CLOSE, None, did_close),
        (types.NOTEBOOK_DOCUMENT_DID_OPEN, None, notebook_did_open),
        (types.NOTEBOOK_DOCUMENT_DID_CHANGE, None, notebook_did_change),
        (types.NOTEBOOK_DOCUMENT_DID_SAVE, None, notebook_did_save),
        (types.NOTEBOOK_DOCUMENT_DID_CLOSE, None, notebook_did_close),
        (types.TEXT_DOCUMENT_CODE_ACTION, CODE_ACTION_OPTIONS, code_action),
        (types.CODE_ACTION_RESOLVE, None, code_action_resolve),
        (types.TEXT_DOCUMENT_HOVER, None, hover),
        (types.SHUTDOWN, None, shutdown),
    ]
    for method, options, handler in features:
        server.feature(method, options)(handler)
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
