"""The runtime kit below the verifier kinds: what `runtime.runner` (the runner) and the
`kinds.*` kinds both need, so that no kind imports the runner back (ARCHITECTURE.md §5, step 8:
`runtime/verify/kit.py`).

It holds the verdicts (`Outcome`, `confirmed`/`not_reproduced`/`could_not_run`, `stopped`), the
per-job soft timeout (`VerifyTimeout`), the exception helpers (`CouldNotRun`, `short_message`,
`describe_exception`) and the comparison of an original and a fixed side (`compare_sides`),
which the `numeric` kind and the runner's fix check (`runtime.runner.check_fix`) share. A side is
duck-typed (`side.Side`: `job`, `mode`, `fixed`, `filename`, `entry()`, `module()`), so this
module imports no other part of the runtime but `bench`. `runtime.runner` re-exports these,
so `from jaxlint.runtime.runner import CouldNotRun` keeps working.
Runs in the sandboxed child only: JAX is imported inside functions.
"""

from __future__ import annotations

import sys
import traceback
import types
from dataclasses import dataclass, field
from typing import Any

from jaxlint.runtime.toolbox.bench import outputs_match

MESSAGE_LIMIT = 400


class CouldNotRun(Exception):
    """This check cannot run (missing entry, inputs that do not fit, nothing to compare...)."""


def short_message(exc: BaseException | str, limit: int = MESSAGE_LIMIT) -> str:
    text = str(exc) if not isinstance(exc, str) else exc
    lines = [line for line in text.strip().splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if first.startswith("See https://") and len(lines) > 1:
        first = lines[1]
    first = " ".join(first.split())
    return first if len(first) <= limit else first[: limit - 3] + "..."


def exception_name(exc: BaseException) -> str:
    cls = type(exc)
    module = cls.__module__
    if module in ("builtins", "__builtin__"):
        return cls.__qualname__
    if module.startswith("jax") and hasattr(_jax_errors(), cls.__name__):
        return f"jax.errors.{cls.__name__}"
    return f"{module}.{cls.__qualname__}"


def _jax_errors() -> Any:
    try:
        import jax.errors

        return jax.errors
    except Exception:  # pragma: no cover
        return types.SimpleNamespace()


def describe_exception(exc: BaseException, filename: str | None = None) -> dict[str, Any]:
    info: dict[str, Any] = {
        "exception": exception_name(exc),
        "message": short_message(exc),
        "mro": [c.__name__ for c in type(exc).__mro__[1:] if c not in (object, BaseException)],
    }
    if filename:
        lines = exception_lines(exc, filename)
        info["at_line"] = lines[0] if lines else None
        info["user_frames"] = lines
    return info


def exception_lines(exc: BaseException, filename: str) -> list[int]:
    """Lines of the user's file on the exception's traceback, innermost first."""
    lines: list[int] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        for frame in reversed(traceback.extract_tb(current.__traceback__)):
            if frame.filename == filename and frame.lineno and frame.lineno not in lines:
                lines.append(frame.lineno)
        if lines:
            break
        current = current.__cause__ or current.__context__
    return lines


def stack_lines(filename: str, frame: types.FrameType | None = None) -> list[int]:
    """Lines of the user's file on the current Python stack, innermost first."""
    frame = frame or sys._getframe(1)
    out = []
    while frame is not None:
        if frame.f_code.co_filename == filename:
            out.append(frame.f_lineno)
        frame = frame.f_back
    return out


# (file, hash of the source, __main__ mode) -> (array values, errors) of a script's shared run,
# filled by `script_run` (below the kinds, so no kind imports it for this)
SCRIPT_VALUES: dict[tuple[str, int, bool], tuple[dict[str, Any], list[dict[str, Any]]]] = {}


def module_values(side: Any) -> dict[str, Any]:
    import jax
    import numpy as np

    run_main = bool((side.entry_spec or {}).get("run_main"))
    shared = SCRIPT_VALUES.get((side.filename, hash(side.source), run_main))
    if shared is not None:  # a timing check already ran this script (`script_run`): its values
        values, errors = shared
        if errors:
            first = errors[0]
            raise CouldNotRun(
                f"{'the fixed' if side.fixed else 'the original'} module fails at line "
                f"{first['at_line']}: {type(first['exc']).__name__}: {short_message(first['exc'])}"
            )
        return dict(values)
    mod = side.run_module()
    if mod.errors:
        first = mod.errors[0]
        raise CouldNotRun(
            f"{'the fixed' if side.fixed else 'the original'} module fails at line {first['at_line']}: "
            f"{type(first['exc']).__name__}: {short_message(first['exc'])}"
        )
    values = {}
    for name, value in mod.namespace.items():
        if name.startswith("__"):
            continue
        leaves = jax.tree.leaves(value) if isinstance(value, (list, tuple, dict)) else [value]
        if leaves and all(
            isinstance(v, (jax.Array, np.ndarray, np.generic, bool, int, float, complex))
            for v in leaves
        ):
            values[name] = value
    return values


def run_original(side: Any) -> tuple[Any, str]:
    """The original's output: as written, else eagerly; raises CouldNotRun when neither works."""
    entry = side.entry()
    try:
        return entry.run(), "as written"
    except Exception as exc:
        first = exc
    try:
        return side.entry().eager(), "eagerly (the sharp bit stops it as written)"
    except Exception as exc:
        raise CouldNotRun(
            f"the original cannot run, as written ({type(first).__name__}: {short_message(first)}) "
            f"or eagerly ({type(exc).__name__}: {short_message(exc)})"
        ) from None


def compare_sides(original: Any, fixed: Any) -> dict[str, Any]:
    """Outputs of the original (as written or eagerly) vs the fixed code (as written)."""
    if original.job.get("pmap_entry"):  # compare what the pmapped name computes
        for side in (original, fixed):
            side.entry_spec = original.job["pmap_entry"]
    if original.mode == "module":
        before = module_values(original)
        after = module_values(fixed)
        common = sorted(set(before) & set(after))
        if not common:
            raise CouldNotRun("no array values defined by both versions of the module")
        same, diff = outputs_match([before[n] for n in common], [after[n] for n in common])
        return {
            "compared": True,
            "outputs_match": same,
            "max_abs_diff": diff,
            "names": common[:8],
            "original_ran": "as written",
        }
    out_a, how = run_original(original)
    try:
        out_b = fixed.entry().run()
    except Exception as exc:
        info = describe_exception(exc, fixed.filename)
        return {
            "compared": False,
            "reason": f"the fixed code fails: {info['exception']}: {info['message']}",
            "fixed_error": info,
        }
    same, diff = outputs_match(out_a, out_b)
    return {"compared": True, "outputs_match": same, "max_abs_diff": diff, "original_ran": how}


CONFIRMED = "confirmed"
NOT_REPRODUCED = "not-reproduced"
COULD_NOT_RUN = "could-not-run"


class VerifyTimeout(BaseException):
    """The per-job soft time limit ran out (BaseException: user `except Exception` won't eat it)."""


@dataclass
class Outcome:
    verdict: str
    reason: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)


def confirmed(reason: str, **evidence: Any) -> Outcome:
    return Outcome(CONFIRMED, reason, evidence)


def not_reproduced(reason: str, **evidence: Any) -> Outcome:
    return Outcome(NOT_REPRODUCED, reason, evidence)


def could_not_run(reason: str, **evidence: Any) -> Outcome:
    return Outcome(COULD_NOT_RUN, reason, evidence)


def masked(side: Any, info: dict[str, Any], what: str) -> Outcome | None:
    """could-not-run when `what` (the code, tracing) stopped at another finding's line (`info`:
    `describe_exception`), with that finding as `masked_by`; None when no other finding is there."""
    other = side.other_finding_at(info.get("user_frames") or [])
    if other is None:
        return None
    info["masked_by"] = other
    return could_not_run(
        f"masked: {what} stopped earlier at line {info.get('at_line')} ({other['code']}: "
        f"{info['exception']}); fix that first and verify again",
        **info,
    )


def stopped(side: Any, exc: BaseException, ran: str, before: str = "") -> Outcome:
    """could-not-run for code that raised before the check could see anything; when it stopped at
    another finding's line, say so (`masked_by`), so that finding's fix can be applied and the
    check repeated."""
    info = describe_exception(exc, side.filename)
    where = info.get("at_line")
    masked_outcome = masked(side, info, "the code")
    if masked_outcome is not None:
        return masked_outcome
    place = f" at line {where}" if where else ""
    return could_not_run(
        f"{ran} failed{place}{before}: {info['exception']}: {info['message']}", **info
    )
