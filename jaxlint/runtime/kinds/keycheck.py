"""Verifier kind `keycheck`: run the code under `jax.debug_key_reuse(True)`.

JAX's key-reuse checker raises `KeyReuseError` when a consumed typed key is used again (eagerly,
inside jit, or across the iterations of a scan body). Legacy `uint32` keys are invisible to it, so
key inputs are passed as typed keys (`jax.random.wrap_key_data`), which every `jax.random`
function accepts. The code runs the way the program runs it (the entry's `run`, or the module's
top-level statements). A function that returns a key (`key, x = step(key, x)`) is called a
second time with the key it returned, as a training loop would: reusing a consumed key across
calls only shows then.

Confirmed only on a `KeyReuseError` raised at the flagged line, or in the call chain through it
(a helper the flagged line calls consumed the key again): the checker stops the run at the
*first* reuse, which may be another finding's, and evidence from another line proves nothing
about this one (that finding is then `masked_by`, so its fix is applied and the check repeated).
Keys the code makes itself with `PRNGKey` stay untracked; `draws` covers them.
"""

from __future__ import annotations

from typing import Any

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
    stopped,
)
from jaxlint.runtime.side import Side


def _is_reuse(exc: BaseException) -> bool:
    return any(c.__name__ == "KeyReuseError" for c in type(exc).__mro__)


def _is_key(value: Any) -> bool:
    import jax

    try:
        return bool(jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key))
    except Exception:
        return False


def returned_keys(out: Any) -> list[Any]:
    """The typed keys in an entry's output (a pytree), in order."""
    import jax

    try:
        leaves = jax.tree.leaves(out)
    except Exception:
        return []
    return [leaf for leaf in leaves if _is_key(leaf)]


def feed_back(entry: Any, out: Any) -> bool:
    """Replace the entry's key inputs (top level or inside a pytree such as a `State`
    NamedTuple) by the keys its last call returned, in order; whether there was any to feed
    back."""
    import jax

    keys = returned_keys(out)
    if not keys:
        return False
    supply = iter(keys)
    fed = False

    def swap(leaf: Any) -> Any:
        nonlocal fed
        if _is_key(leaf):
            new = next(supply, None)
            if new is not None:
                fed = True
                return new
        return leaf

    try:
        entry.args[:] = [jax.tree.map(swap, a) for a in entry.args]
        for name in list(entry.kwargs):
            entry.kwargs[name] = jax.tree.map(swap, entry.kwargs[name])
    except Exception:
        return False
    return fed


def _returns_at(side: Side) -> bool:
    """Is the flagged line a `return` (a finding about returning a consumed key)?"""
    import ast

    tree = side.tree
    if tree is None:
        return False
    return any(
        isinstance(node, ast.Return) and node.lineno <= side.line <= (node.end_lineno or 0)
        for node in ast.walk(tree)
    )


def at_flagged_line(info: dict[str, Any], lines: list[int], source: str = "") -> bool:
    """The reuse was raised at one of the finding's lines, or through a call on them, or at
    the call that runs the function holding them (`lax.scan(body, ...)`: JAX reports a scan
    body's reuse across iterations at the scan, after tracing the body)."""
    wanted = set(lines)
    if info.get("at_line") in wanted:
        return True
    if wanted & set(info.get("user_frames") or []):
        return True
    holder = _function_holding(source, min(lines)) if source and lines else None
    if holder is None or not info.get("at_line"):
        return False
    import re

    text = (
        source.splitlines()[info["at_line"] - 1]
        if info["at_line"] <= len(source.splitlines())
        else ""
    )
    return bool(re.search(rf"\b{re.escape(holder)}\b", text))


def _function_holding(source: str, line: int) -> str | None:
    """The name of the innermost nested def holding `line` (None at top level, or for a def
    that is not nested: its reuse shows at its own lines)."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    best: tuple[int, str] | None = None
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            if (
                isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and child.lineno <= line <= (child.end_lineno or child.lineno)
                and (best is None or child.lineno > best[0])
            ):
                best = (child.lineno, child.name)
    return best[1] if best else None


def check(side: Side) -> Outcome:
    import jax

    calls = 1
    with jax.debug_key_reuse(True):
        if side.mode == "module":
            mod = side.run_module()
            errors = [r["exc"] for r in mod.errors]
            ran = "module top-level code"
        else:
            entry = side.entry(typed_keys=True)
            ran = entry.describe()
            errors = []
            try:
                out = entry.run()
                if feed_back(entry, out):
                    calls = 2
                    ran = f"{ran}, then again with the key it returned"
                    try:
                        entry.run()
                    except Exception as exc:
                        exc.__jaxlint_fed_back__ = True  # type: ignore[attr-defined]
                        raise
            except Exception as exc:
                errors.append(exc)
    reuses = []
    for exc in errors:
        if _is_reuse(exc):
            info = describe_exception(exc, side.filename)
            if getattr(exc, "__jaxlint_fed_back__", False):
                info["fed_back"] = True
            reuses.append((exc, info))
    for _exc, info in reuses:
        if at_flagged_line(info, side.lines, side.source):
            return confirmed(
                f"jax.debug_key_reuse at line {info.get('at_line')}: {info['message']}",
                key_reuse_error=info["message"],
                at_line=info.get("at_line"),
                ran=ran,
                calls=calls,
            )
    for _exc, info in reuses:
        if calls == 2 and info.get("fed_back") and _returns_at(side):
            return confirmed(
                f"the key returned at line {side.line} was already consumed: the next call, fed "
                f"that key, reused it at line {info.get('at_line')} ({info['message']})",
                key_reuse_error=info["message"],
                at_line=info.get("at_line"),
                returned_at=side.line,
                ran=ran,
                calls=calls,
            )
    for exc, info in reuses[:1]:
        outcome = stopped(side, exc, ran, f" (a key reuse there, not at line {side.line})")
        if outcome.evidence.get("masked_by"):
            return outcome
        return could_not_run(
            f"jax.debug_key_reuse stopped the run at line {info.get('at_line')}, not at line "
            f"{side.line}: that reuse is not this finding's ({info['message']})",
            **info,
            ran=ran,
        )
    if errors:
        return stopped(side, errors[0], ran, " before any key reuse was seen")
    return not_reproduced(
        "no KeyReuseError under jax.debug_key_reuse(True)"
        + (" (called twice, the second time with the key it returned)" if calls == 2 else ""),
        key_reuse_error=None,
        ran=ran,
        calls=calls,
    )
