"""What every MCP tool shares: failures as tool errors with their message, argument checks,
and reports as plain JSON.

The SDK hides the text of unexpected exceptions from the client, which would leave an agent
guessing; so each tool is wrapped by `tool_errors`, and the checks here raise `ToolError`s that
say what to change.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from jaxlint.core.errors import UsageError

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
# verify/probe/bench/recompile/env import and run the user's code: not read-only by nature.
RUNS_CODE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

# --------------------------------------------------------------------------- helpers

_F = TypeVar("_F", bound=Callable[..., Any])


def tool_errors(fn: _F) -> _F:
    """Turn expected failures into tool errors with their message (the SDK hides the text of
    unexpected exceptions from the client, which would leave an agent guessing)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except UsageError as exc:
            raise ToolError(str(exc)) from None
        except ToolFailed as exc:
            raise ToolError(failure_text(exc.outcome)) from None
        except (OSError, ValueError) as exc:
            raise ToolError(f"{type(exc).__name__}: {exc}") from None
        except Exception as exc:  # a bug: say so, with the type, instead of a bare "error"
            raise ToolError(
                f"internal error: {type(exc).__name__}: {exc} (please report this bug)"
            ) from None

    return wrapper  # type: ignore[return-value]


class ToolFailed(Exception):
    """The JAX subprocess of a runtime tool failed; `outcome` is its report."""

    def __init__(self, outcome: dict[str, Any]) -> None:
        super().__init__(outcome.get("reason", "failed"))
        self.outcome = outcome


def failure_text(outcome: dict[str, Any]) -> str:
    """A failed subprocess as the tool error an agent reads: the reason, the error, stderr's tail."""
    error = outcome.get("error") or {}
    lines = [f"the JAX subprocess failed: {outcome.get('reason', 'unknown reason')}"]
    if error.get("type"):
        lines.append(f"{error['type']}: {error.get('message', '')}")
    tail = [line for line in outcome.get("stderr_tail", [])[-10:] if line.strip()]
    if tail:
        lines.append("stderr (last lines):")
        lines.extend(tail)
    return "\n".join(lines)


def parse_codes(value: list[str] | str | None, flag: str) -> tuple[str, ...]:
    """`select`/`ignore` as a list or a comma-separated string, checked as the CLI checks them."""
    from jaxlint.core.config import parse_codes_arg

    if value is None:
        return ()
    text = value if isinstance(value, str) else ",".join(value)
    return parse_codes_arg(text, flag)


def jsonable(value: dict[str, Any]) -> dict[str, Any]:
    """A runtime report as plain JSON (numbers, strings, lists, dicts), as the CLI prints it."""
    return json.loads(json.dumps(value, default=str))


def require_jax(tool: str) -> None:
    """Refuse a tool that runs code with JAX when the server's environment has no JAX."""
    if importlib.util.find_spec("jax") is None:
        raise ToolError(
            f"`{tool}` runs your code with JAX, which is not installed in the server's "
            "environment (pip install -e '.[runtime]')"
        )


def positive_timeout(value: float | None, default: float) -> float:
    """The timeout asked for (the default when none was), refused unless positive."""
    if value is None:
        return default
    if value <= 0:
        raise ToolError("timeout must be positive")
    return value
