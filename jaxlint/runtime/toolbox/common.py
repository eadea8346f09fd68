"""What the toolbox commands (`commands`) and `jaxlint verify` (`verify.driver`) share.

Both are parent-side CLI code (no JAX import): the same options (`--format`, `--timeout`,
`--memory-mb`, `--seed`, `--static`), the same checks of their values before a sandbox starts, and
the same way of printing seconds, which the `bench` verifier kind uses too. One place, so the
options read and fail alike in every runtime command.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Sequence
from typing import TypeVar

from jaxlint.core.errors import JaxMissingError, UsageError

Specs = TypeVar("Specs", str, Sequence[str])


def add_format(parser: argparse.ArgumentParser, default: str) -> None:
    """`--format json|text`; the default comes first in the choices (as `--help` shows them)."""
    other = "text" if default == "json" else "json"
    parser.add_argument(
        "--format",
        choices=(default, other),
        default=default,
        help=f"output format (default: {default})",
    )


def add_limits(parser: argparse.ArgumentParser, timeout: float, timeout_help: str) -> None:
    """`--timeout S` (`timeout_help` says what it limits) and `--memory-mb MB` of the sandbox."""
    parser.add_argument(
        "--timeout",
        type=float,
        default=timeout,
        metavar="S",
        help=f"{timeout_help} (default: {timeout:g})",
    )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=None,
        metavar="MB",
        help="address-space limit for the JAX subprocess (JAX itself needs ~2000)",
    )


def add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for the example inputs (default: 0)"
    )


def add_static(parser: argparse.ArgumentParser, verb: str = "mark") -> None:
    parser.add_argument(
        "--static",
        default=None,
        metavar="NAMES",
        help=f"comma-separated parameters to {verb} static",
    )


def require_jax(command: str) -> None:
    """Missing JAX is a usage error (exit 2) that names the command, before any work starts."""
    if importlib.util.find_spec("jax") is None:
        raise JaxMissingError(command)


def check_timeout(timeout: float) -> None:
    if timeout <= 0:
        raise UsageError("--timeout must be positive")


def check_specs(specs: Specs, option: str, *, objects: bool = False) -> Specs:
    """Parse input specs here, so a typo is a usage error naming `option`, not a failed child.
    With `objects`, `=EXPR` items (objects `verify` builds in the child) are left unparsed."""
    from jaxlint.runtime.toolbox.inputs import parse_specs, split_items

    try:
        if objects and isinstance(specs, str):
            parse_specs([i for i in split_items(specs) if not i.strip().startswith("=")])
        else:
            parse_specs(specs)
    except UsageError as exc:
        raise UsageError(f"{option}: {exc}") from None
    return specs


def format_seconds(value: float | None) -> str:
    """1.2e-5 -> '12.0 µs'; None -> 'n/a'."""
    if value is None:
        return "n/a"
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3f} ms"
    return f"{value * 1e6:.1f} µs"
