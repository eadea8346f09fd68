"""`jaxlint lsp`: registers the subcommand; pygls is imported only when it runs."""

from __future__ import annotations

import argparse

from jaxlint.core.errors import UsageError

LSP_PACKAGES = ("pygls", "lsprotocol", "cattrs", "attrs")


def register(sub: argparse._SubParsersAction) -> None:
    lsp = sub.add_parser(
        "lsp",
        help="run the language server (LSP over stdio) for editors",
        description=(
            "Run jaxlint as a language server on stdin/stdout: diagnostics, quick fixes, "
            "fix-all, `# noqa` insertion and rule docs on hover. Needs the `lsp` extra "
            "(pip install 'jaxlint-sharp[lsp]'). See docs/editors.md for editor set-up."
        ),
    )
    lsp.add_argument(
        "--stdio",
        action="store_true",
        help="talk over stdin/stdout (the default and only transport; accepted because "
        "some editors pass it)",
    )
    lsp.add_argument(
        "--debounce-ms",
        type=int,
        default=150,
        metavar="MS",
        help="while typing, lint once no change came for MS milliseconds (default 150)",
    )
    lsp.add_argument(
        "--log-level",
        default="WARNING",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        type=str.upper,
        help="what to log to stderr (default WARNING)",
    )
    lsp.set_defaults(handler=run_lsp)


def run_lsp(args: argparse.Namespace) -> int:
    try:
        from jaxlint.integrations import lsp
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing in LSP_PACKAGES:
            raise UsageError(
                f"`jaxlint lsp` needs the optional `lsp` dependencies ({missing} is missing): "
                "pip install 'jaxlint-sharp[lsp]' (or: pip install pygls lsprotocol)"
            ) from None
        raise
    if args.debounce_ms < 0:
        raise UsageError("--debounce-ms must be 0 or more")
    return lsp.serve(debounce_ms=args.debounce_ms, log_level=args.log_level)
