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

The package: `server` (document state, linting, debounce), `features` (the LSP methods,
`build_server`, `serve`), `actions` (quick fixes, noqa, fix-all), `hover` (rule docs),
`positions` (lines and columns in the client's encoding), `noqa` (where a `# noqa` can go).
Importing it imports pygls; `jaxlint.integrations.lsp_command` imports it only when
`jaxlint lsp` runs.
"""

from __future__ import annotations

from jaxlint.integrations.lsp.actions import FIX_ALL_KIND, FIX_ALL_TITLE
from jaxlint.integrations.lsp.features import build_server, serve
from jaxlint.integrations.lsp.hover import rule_markdown
from jaxlint.integrations.lsp.noqa import LineEnds, noqa_edit
from jaxlint.integrations.lsp.positions import (
    LineIndex,
    diff_edits,
    split_lines,
    text_edits,
    to_lsp,
)
from jaxlint.integrations.lsp.server import (
    DEFAULT_DEBOUNCE_S,
    DocState,
    JaxlintServer,
    LintResult,
    config_signature,
)

__all__ = [
    "DEFAULT_DEBOUNCE_S",
    "FIX_ALL_KIND",
    "FIX_ALL_TITLE",
    "DocState",
    "JaxlintServer",
    "LineEnds",
    "LineIndex",
    "LintResult",
    "build_server",
    "config_signature",
    "diff_edits",
    "noqa_edit",
    "rule_markdown",
    "serve",
    "split_lines",
    "text_edits",
    "to_lsp",
]
