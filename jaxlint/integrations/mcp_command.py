"""`jaxlint mcp`: registers the subcommand; the `mcp` SDK is imported only when it runs.

Keeping the import in the handler means `jaxlint check` (and `import jaxlint.cli`) never load the
SDK, pydantic or anyio; tests/test_mcp.py holds that.
"""

from __future__ import annotations

import argparse
import os
import sys

MCP_PACKAGES = ("mcp", "mcp_types", "pydantic", "pydantic_core", "anyio", "typing_extensions")
INSTALL_HINT = (
    "jaxlint mcp needs the optional `mcp` dependency (the Model Context Protocol SDK, >= 2.0): "
    "pip install -e '.[mcp]' from the jaxlint checkout (or: pip install 'mcp>=2')"
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `jaxlint mcp` to the CLI."""
    parser = sub.add_parser(
        "mcp",
        help="run the MCP server (Model Context Protocol, stdio) for coding agents",
        description=(
            "Serve jaxlint's tools (check, fix, explain, rules, verify, probe, bench, recompile, "
            "env, locate, template) and the rule docs to an agent over the Model Context "
            "Protocol on stdin/stdout. Paths are confined to the --root folders, else the "
            "client's roots, else the working directory. Needs the `mcp` extra: pip install -e '.[mcp]'. See docs/agents.md."
        ),
    )
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder the tools may read and write (repeatable; relative paths are taken "
        "from the first). Default: the roots the client announces, else the working directory",
    )
    parser.set_defaults(handler=run_mcp)


def run_mcp(args: argparse.Namespace) -> int:
    """Start the server, or print a one-line install hint and exit 2 when the SDK is missing."""
    try:
        from jaxlint.integrations.mcp import serve
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing in MCP_PACKAGES:
            print(f"jaxlint: error: {INSTALL_HINT}", file=sys.stderr)
            return 2
        raise
    except ImportError as exc:  # an `mcp` 1.x without mcp.server.mcpserver
        print(f"jaxlint: error: {INSTALL_HINT} ({exc})", file=sys.stderr)
        return 2
    for root in args.root:
        if not os.path.isdir(root):
            print(f"jaxlint: error: --root {root!r} is not a directory", file=sys.stderr)
            return 2
    return serve(args.root or None)
