"""pytest plugin: `pytest --jaxlint-runtime` runs a test suite with JAX's own runtime checkers on.

Registered through the `pytest11` entry point, so pytest imports this module in every run where
jaxlint is installed. It therefore imports nothing heavy (no JAX, no libcst, no jaxlint rules):
it only adds the command-line options and the `jaxlint_allow` marker. The checkers live in
`jaxlint.runtime.pytest_runtime`, imported only when `--jaxlint-runtime` is given.
See docs/pytest.md.
"""

from __future__ import annotations

from typing import Any

CHECKS_DEFAULT = ("keys", "leaks", "compiles")
CHECKS_OPTIONAL = ("transfers", "nans", "strict-leaks")


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("jaxlint", "jaxlint runtime checks")
    group.addoption(
        "--jaxlint-runtime",
        nargs="?",
        const="default",
        default=None,
        metavar="CHECKS",
        help="run the tests with JAX's checkers on and report sharp bits as jaxlint findings: "
        "key reuse (JAX201), leaked tracers (JAX502), recompiles (JAX401/403/404). "
        "CHECKS (comma-separated) adds the opt-in ones, `transfers` (JAX407), `nans` and "
        "`strict-leaks` (JAX's own leak checker, slower), or "
        "names the set to run: keys, leaks, compiles, default, all "
        "(e.g. --jaxlint-runtime=nans)",
    )
    group.addoption(
        "--jaxlint-runtime-json",
        default=None,
        metavar="PATH",
        help="write the runtime findings as JSON: a list of "
        '{"code", "path", "line", "test", "message", "evidence"}',
    )


def parse_checks(value: str) -> tuple[str, ...]:
    """`"nans"` -> the default checks plus NaNs; `"keys,leaks"` -> only those (naming a default
    check picks the set explicitly). Unknown names raise ValueError."""
    known = CHECKS_DEFAULT + CHECKS_OPTIONAL
    out: list[str] = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        if part == "default":
            out.extend(CHECKS_DEFAULT)
        elif part == "all":
            out.extend(known)
        elif part in known:
            out.append(part)
        else:
            raise ValueError(
                f"unknown --jaxlint-runtime check {part!r} (known: {', '.join(known)})"
            )
    if not any(c in CHECKS_DEFAULT for c in out):
        out[:0] = CHECKS_DEFAULT  # opt-in checks come on top of the default ones
    return tuple(dict.fromkeys(out))


def pytest_load_initial_conftests(early_config: Any, parser: Any, args: list[str]) -> None:
    """`pytest --jaxlint-runtime tests/`: the optional CHECKS value must not swallow a path, so
    a following argument that is not a list of check names gets `default` put before it."""
    insert_default_checks(args)


def insert_default_checks(args: list[str]) -> None:
    known = {*CHECKS_DEFAULT, *CHECKS_OPTIONAL, "default", "all"}
    for i, arg in enumerate(args):
        if arg != "--jaxlint-runtime" or i + 1 >= len(args):
            continue
        following = args[i + 1]
        names = {p.strip() for p in following.split(",") if p.strip()}
        if not following.startswith("-") and not (names and names <= known):
            args.insert(i + 1, "default")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "jaxlint_allow(*codes): do not report these jaxlint runtime findings (codes or prefixes, "
        "e.g. 'JAX404') for this test",
    )
    value = config.getoption("jaxlint_runtime", None)
    if value is None:
        return
    import pytest

    try:
        checks = parse_checks(value)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    from jaxlint.runtime.pytest_runtime import RuntimeChecks

    config.pluginmanager.register(RuntimeChecks(config, checks), "jaxlint-runtime")
