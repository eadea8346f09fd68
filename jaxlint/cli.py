"""Command line: parses arguments, calls the layers, picks the output format.

Subcommands other than the static ones live in extension modules that expose
`register(subparsers)`; each adds its parser and sets `handler=callable(args) -> int`.
They import JAX lazily, inside their handlers, so `jaxlint check` never does.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from jaxlint import __version__
from jaxlint.errors import UsageError

EXTENSIONS = (
    "jaxlint.commands",  # check, rules, explain
    "jaxlint.runtime_checks.commands",  # verify, env, probe, bench, recompile, locate
    "jaxlint.templates",  # template
    "jaxlint.integrations.lsp_command",  # lsp
    "jaxlint.integrations.mcp_command",  # mcp
    "jaxlint.skill",  # skill
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jaxlint",
        description="Find, fix and prove JAX sharp bits.",
    )
    parser.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in EXTENSIONS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def _known_commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    commands = _known_commands(parser)
    # `jaxlint PATH ...` is `jaxlint check PATH ...`.
    if not args_list or (
        args_list[0] not in commands and args_list[0] not in ("-h", "--help", "--version")
    ):
        args_list.insert(0, "check")
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: 2 for usage errors, 0 for --help
        return int(exc.code or 0)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args))
    except UsageError as exc:
        print(f"jaxlint: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("jaxlint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
