"""Command line: parses arguments, calls the layers, picks the output format.

Subcommands other than the static ones live in extension modules that expose
`register(subparsers)`; each adds its parser and sets `handler=callable(args) -> int`.
They import JAX lazily, inside their handlers, so `jaxlint check` never does.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
from collections.abc import Sequence

from jaxlint import __version__
from jaxlint.core.errors import UsageError

EXTENSIONS = (
    "jaxlint.commands",  # check, rules, explain
    "jaxlint.runtime.toolbox.commands",  # verify, env, probe, bench, recompile, locate
    "jaxlint.templates",  # template
    "jaxlint.integrations.lsp_command",  # lsp
    "jaxlint.integrations.mcp_command",  # mcp
    "jaxlint.skill",  # skill
)


# what ruff (and habit) call our commands
ALIASES = {"rule": "explain", "lint": "check", "format": "check", "server": "lsp"}


class Parser(argparse.ArgumentParser):
    """No abbreviated options (`--sel` is not `--select`), as in ruff: an abbreviation that
    works today breaks when a longer option is added."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="jaxlint",
        description="Find, fix and prove JAX sharp bits.",
    )
    parser.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in EXTENSIONS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _known_commands(parser: argparse.ArgumentParser) -> set[str]:
    return set(_subparsers(parser))


def _mistyped_command(word: str, commands: set[str]) -> str | None:
    """`jaxlint chekc` / `jaxlint rule`: a word that is no path but close to a command."""
    if os.path.lexists(word) or word.startswith("-") or any(c in word for c in "/\\.*"):
        return None
    if word in ALIASES and ALIASES[word] in commands:
        return ALIASES[word]
    close = difflib.get_close_matches(word, sorted(commands), n=1, cutoff=0.6)
    return close[0] if close else None


# ruff options whose jaxlint counterpart has another name (a ruff user types these first)
_RUFF_OPTIONS = {
    "--target-version": ("--target-jax", 'the JAX release to check for, e.g. "0.6"'),
}


def _option_hint(parser: argparse.ArgumentParser, extra: list[str]) -> str:
    """`--fixx`: the closest option of the same command, as a suggestion (options are never
    abbreviated, so a typo is an error, and the fix should be one glance away)."""
    options = sorted(o for a in parser._actions for o in a.option_strings if o.startswith("--"))
    for word in extra:
        flag = word.split("=", 1)[0]
        if flag in _RUFF_OPTIONS and _RUFF_OPTIONS[flag][0] in options:
            new, why = _RUFF_OPTIONS[flag]
            return f" (ruff's `{flag}` is `{new}` here: {why})"
        if word.startswith("--"):
            close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1, cutoff=0.75)
            if close:
                return f" (did you mean `{close[0]}`?)"
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    commands = _known_commands(parser)
    # `jaxlint PATH ...` is `jaxlint check PATH ...`.
    if args_list and args_list[0] not in commands:
        guess = _mistyped_command(args_list[0], commands)
        if guess is not None:
            print(
                f"jaxlint: error: `{args_list[0]}` is not a command nor an existing path; "
                f"did you mean `jaxlint {guess}`?",
                file=sys.stderr,
            )
            return 2
    if not args_list or (
        args_list[0] not in commands and args_list[0] not in ("-h", "--help", "--version")
    ):
        args_list.insert(0, "check")
    try:
        args, extra = parser.parse_known_args(args_list)
        if extra:  # the subcommand's usage, not the top level's
            sub = _subparsers(parser).get(getattr(args, "command", None) or "", parser)
            sub.error(f"unrecognized arguments: {' '.join(extra)}{_option_hint(sub, extra)}")
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
