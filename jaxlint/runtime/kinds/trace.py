"""Verifier kind `trace`: make JAX trace the flagged code and classify what it raises.

For a traced function: `jax.jit(f, static_argnames=...).trace(*args)` (nothing is executed or
compiled); for a grad-only context `jax.jvp`; for eager code and module-level statements the code
runs as written. Confirmed when the innermost frame of the user's file in the traceback is the
flagged line and the exception is one this rule describes (the job's `verify.expect`; any
exception for rules that list none). An error on another flagged line first is reported as
masked; on an unrelated line, as could-not-run (the inputs or the surrounding code failed first).
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any

from jaxlint.runtime.kit import (
    CONFIRMED,
    CouldNotRun,
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    exception_lines,
    masked,
    not_reproduced,
    short_message,
    stack_lines,
)
from jaxlint.runtime.side import Side
from jaxlint.runtime.toolbox.inputs import describe_value

LABELS = (
    ("TracerBoolConversionError", "boolean conversion of a traced value"),
    ("TracerIntegerConversionError", "integer conversion (__index__) of a traced value"),
    ("TracerArrayConversionError", "NumPy conversion of a traced value"),
    ("NonConcreteBooleanIndexError", "boolean-mask indexing with a traced mask"),
    ("ConcretizationTypeError", "a concrete value was needed but the value is traced"),
    ("KeyReuseError", "PRNG key reuse"),
    ("UnexpectedTracerError", "a leaked tracer was used"),
    ("immutable", "in-place update of an immutable JAX array"),
    ("Shapes must be 1D sequences of concrete values", "a traced value used as a shape"),
    ("Slice entries must be static", "a traced value used as a slice bound"),
    ("slice indices must have static", "a traced value used as a slice bound"),
    ("Non-hashable static arguments", "an unhashable static argument"),
    ("Legacy uint32 key array", "a legacy uint32 PRNG key"),
    ("too large to convert", "integer overflow without x64"),
)


def classify(info: dict[str, Any]) -> str | None:
    text = " ".join([info["exception"], *info.get("mro", []), info["message"]])
    for needle, label in LABELS:
        if needle in text:
            return label
    return None


def matches(side: Side, info: dict[str, Any]) -> bool:
    """Is the exception one the rule describes (`verify.expect`: class names in the MRO or
    message fragments)? Any exception is, for a rule that lists none."""
    expected = side.verify.get("expect")
    if not expected:
        return True
    text = " ".join([info["exception"], *info.get("mro", []), info["message"]])
    return any(needle in text for needle in expected)


# Errors that only say "this array has more than one element": retried with 0-d inputs.
SCALAR_ONLY = (
    "truth value of an array with more than one element is ambiguous",
    "Only scalar arrays can be converted",
    "only length-1 arrays",
    "only integer scalar arrays",
)


@contextlib.contextmanager
def typed_legacy_keys() -> Iterator[None]:
    """`jax.random.PRNGKey(seed)` returns a typed key while active (same random stream)."""
    import jax

    original = jax.random.PRNGKey

    @functools.wraps(original)
    def typed(seed: Any, impl: Any = None) -> Any:
        return jax.random.key(seed, impl=impl)

    jax.random.PRNGKey = typed
    try:
        yield
    finally:
        jax.random.PRNGKey = original


@contextlib.contextmanager
def observing(side: Side) -> Iterator[list[dict[str, Any]]]:
    """Record calls of the rule's observed JAX function made from the user's file (a silent
    sharp bit: no exception, so the wrapped function records what the flagged line did). Raw
    arithmetic on a legacy uint32 key runs silently; with `typed_keys` it raises."""
    seen: list[dict[str, Any]] = []
    target = side.verify.get("observe")
    if side.verify.get("typed_keys"):
        with typed_legacy_keys():
            yield seen
        return
    if target is None:
        yield seen
        return
    import importlib

    import jax

    owner = importlib.import_module(target[0])
    original = getattr(owner, target[1])

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = original(*args, **kwargs)
        lines = stack_lines(side.filename, sys._getframe(1))
        if lines:
            seen.append(
                {
                    "line": lines[0],
                    "traced_input": any(isinstance(a, jax.core.Tracer) for a in args),
                    "returned_input": bool(args) and out is args[0],
                    "result": describe_value(out),
                }
            )
        return out

    setattr(owner, target[1], wrapper)
    try:
        yield seen
    finally:
        setattr(owner, target[1], original)


def _observed(side: Side, seen: list[dict[str, Any]], ran: str) -> Outcome | None:
    """Confirmed when a call recorded at the flagged lines shows what the rule's
    `verify.observe_confirms` names."""
    observed = OBSERVED.get(side.verify.get("observe_confirms") or "")
    if observed is None:
        return None
    shows, says = observed
    hit = next((s for s in seen if s["line"] in side.lines and shows(s)), None)
    if hit is None:
        return None
    what = ".".join(side.verify.get("observe") or ())
    return confirmed(f"{what} at line {hit['line']} {says(hit)}", observed=hit, ran=ran)


# `verify.observe_confirms` -> (what the recorded call shows, what the verdict says it did)
OBSERVED: dict[str, tuple[Callable[[dict[str, Any]], bool], Callable[[dict[str, Any]], str]]] = {
    "traced-input": (
        lambda s: s["traced_input"],
        lambda s: (
            "received a traced value and returned it unchanged: inside jit it is a no-op "
            "(nothing is transferred)"
        ),
    ),
    "uint32-key": (
        lambda s: "u32" in s["result"] or "uint32" in s["result"],
        lambda s: (
            f"made a legacy {s['result']} key (a typed jax.random.key is key<fry>[]: "
            "untracked by the key-reuse checker, allows raw arithmetic)"
        ),
    ),
}


def check(side: Side) -> Outcome:
    observe = bool(side.verify.get("observe") or side.verify.get("typed_keys"))
    with observing(side) as seen:
        if side.mode == "module":
            outcome = _module(side)
            return (
                _observed(side, seen, "module top-level code")
                if outcome.verdict != CONFIRMED
                else None
            ) or outcome
        entry = side.entry(shared=not observe)
        decorator_note = _decorator_failure(side, entry.mod)
        try:
            traced = entry.trace()
        except CouldNotRun:
            raise
        except Exception as exc:
            outcome = judge(side, exc, entry.describe())
            if outcome.verdict != CONFIRMED and _scalar_only(outcome):
                retried = _with_scalars(side, entry)
                if retried is not None:
                    return retried
            return (
                _observed(side, seen, entry.describe()) if outcome.verdict != CONFIRMED else None
            ) or outcome
    found = _observed(side, seen, entry.describe())
    if found is not None:
        return found
    evidence: dict[str, Any] = {"ran": entry.describe()}
    jaxpr = getattr(traced, "jaxpr", None)
    if jaxpr is not None and hasattr(jaxpr, "jaxpr"):
        evidence["jaxpr_eqns"] = len(jaxpr.jaxpr.eqns)
    if decorator_note:
        evidence["decorator_error"] = decorator_note
    return not_reproduced(f"{entry.describe()} traced without an error", **evidence)


def _scalar_only(outcome: Outcome) -> bool:
    message = outcome.evidence.get("message", "")
    return any(text in message for text in SCALAR_ONLY)


def _with_scalars(side: Side, entry: Any) -> Outcome | None:
    """Retry with 0-d versions of the array inputs (the error was about array size, not tracing)."""
    changed = []
    for i, value in enumerate(entry.args):
        if getattr(value, "ndim", 0) and value.size:
            entry.args[i] = _first_element(value)
            changed.append(entry.labels[i].split("=")[0] if i < len(entry.labels) else str(i))
    for name, value in list(entry.kwargs.items()):
        if getattr(value, "ndim", 0) and value.size:
            entry.kwargs[name] = _first_element(value)
            changed.append(name)
    if not changed:
        return None
    try:
        entry.trace()
    except Exception as exc:
        outcome = judge(side, exc, entry.describe() + f" with 0-d {', '.join(changed)}")
        if outcome.verdict == CONFIRMED:
            outcome.evidence["scalar_inputs"] = changed
            outcome.reason += f" (with 0-d inputs for {', '.join(changed)}: the given shapes fail for an unrelated reason)"
            return outcome
    return None


def _first_element(value: Any) -> Any:
    """A 0-d version of an array input; a zero of its dtype when the first run donated it (a
    jitted call with `donate_argnums` deleted it: reading it raises, a new user's repro at
    stop 53, where the retry itself then failed as could-not-run)."""
    deleted = getattr(value, "is_deleted", None)
    if callable(deleted) and deleted():
        import jax.numpy as jnp

        return jnp.zeros((), value.dtype)
    return value.reshape(-1)[0]


def judge(side: Side, exc: BaseException, ran: str, at_line: int | None = None) -> Outcome:
    """`at_line`: the flagged line the error belongs to when the traceback ends elsewhere (a
    jitted method fails where it is called, naming itself: `_naming_the_flagged_def`)."""
    info = describe_exception(exc, side.filename)
    info["ran"] = ran
    if at_line is not None:
        info["raised_at"] = info.get("at_line")
        info["at_line"] = at_line
    where = info.get("at_line")
    label = classify(info)
    if label:
        info["classification"] = label
    if where in side.lines or (where is None and not side.lines):
        if matches(side, info):
            return confirmed(f"line {where} raised {info['exception']}: {info['message']}", **info)
        return could_not_run(
            f"line {where} raised {info['exception']} ({info['message']}), which is not the error "
            f"{side.code} describes; check the inputs",
            **info,
        )
    masked_outcome = masked(side, info, "tracing")
    if masked_outcome is not None:
        return masked_outcome
    place = f"line {where}" if where else "inside JAX (no line of this file on the traceback)"
    return could_not_run(
        f"{ran} failed at {place} before reaching line {side.line}: "
        f"{info['exception']}: {info['message']}",
        **info,
    )


def _module(side: Side) -> Outcome:
    from jaxlint.runtime.side import Probe

    mod = side.module()
    try:
        with Probe(side.filename, lines=side.lines, trace_lines=True) as probe:
            mod.execute()
        record = mod.error_at(side.lines)
        if record is not None:
            return judge(side, record["exc"], "module top-level code")
        for record in mod.errors:
            if record["line"] <= side.line <= record["end_line"]:
                return judge(side, record["exc"], "module top-level code")
        named = _naming_the_flagged_def(side, mod.errors)
        if named is not None:
            return judge(
                side,
                named["exc"],
                f"module top-level code (the call on line {named['at_line']})",
                at_line=side.line,
            )
        earlier = [r for r in mod.errors if r["line"] < side.line]
        evidence: dict[str, Any] = {"ran": "module top-level code"}
        if earlier:
            first = earlier[0]
            evidence["earlier_error"] = {
                "line": first["at_line"],
                "exception": type(first["exc"]).__name__,
                "message": short_message(first["exc"]),
            }
        if not probe.hits_at(side.lines):
            # the line is in a function or branch the top-level code never reached: saying it
            # "ran without an error" would be a claim about code that did not run
            return could_not_run(
                f"the module's top-level code never ran line {side.line} (it is in code that is "
                "not called at import time); give an entry: PATH::FUNCTION with --args, or "
                "--capture-main",
                **evidence,
            )
        return not_reproduced(f"the module ran line {side.line} without an error", **evidence)
    finally:
        mod.close()


def _naming_the_flagged_def(side: Side, errors: list[dict[str, Any]]) -> dict[str, Any] | None:
    """An error of the module's run that names the function defined on the flagged line
    (`Error interpreting argument to <function Model.__call__ at 0x...>`): a jitted method
    fails where it is called, not on its `def`, and JAX names it in the message (a new user's
    report, stop 52: JAX409 said NOT-REPRODUCED beside the predicted TypeError)."""
    import ast

    tree = side.tree
    if tree is None:
        return None
    qualname = None
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            first = min([fn.lineno, *(d.lineno for d in fn.decorator_list)])
            if first <= side.line <= fn.lineno:
                qualname = f"{cls.name}.{fn.name}"
    if qualname is None:
        return None
    for record in errors:
        if f"<function {qualname} at " in str(record["exc"]):
            return record
    return None


def _decorator_failure(side: Side, mod: Any) -> str | None:
    for record in getattr(mod, "errors", []):
        if record.get("defined_undecorated"):
            return f"line {record['at_line']}: {type(record['exc']).__name__}: {short_message(record['exc'])}"
    return None


__all__ = ["check", "classify", "exception_lines", "judge", "matches"]
