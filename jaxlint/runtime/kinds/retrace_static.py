"""Verifier kind `retrace-static`: trace again with the suspect parameters static.

The suspects are the parameters named in the flagged expression (from the planner). Each one whose
example input is a Python scalar (or a 0-d array, passed as its Python value) is added to
`static_argnames`; if the function then traces, the value is configuration and `static_argnames`
is the fix (one compile per distinct value); if not, it needs `jnp.where` / `lax.cond` /
`lax.while_loop` / `lax.fori_loop`. Evidence only: it never confirms a finding on its own.
"""

from __future__ import annotations

from typing import Any

from jaxlint.runtime.kit import (
    CouldNotRun,
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
)
from jaxlint.runtime.side import Side


def check(side: Side) -> Outcome:
    if side.mode != "jit":
        raise CouldNotRun("only a jitted function can be re-traced with static parameters")
    suspects = list(side.job.get("suspects") or [])
    if not suspects:
        return could_not_run(
            "the flagged expression uses no parameter directly",
            static_fix={"params": [], "works": None},
        )
    entry = side.entry(shared=True)
    made_static: list[str] = []
    arrays: list[str] = []
    for name in suspects:
        if name in entry.static:
            continue
        value, where = _value(entry, name)
        if where is None:
            continue
        concrete = _python_scalar(value)
        if concrete is None:
            arrays.append(name)
            continue
        _set(entry, name, where, concrete)
        made_static.append(name)
    if not made_static:
        detail = (
            f" ({', '.join(arrays)} {'is an array' if len(arrays) == 1 else 'are arrays'})"
            if arrays
            else ""
        )
        return could_not_run(
            f"no suspect parameter can be static{detail}: the value is data, so the fix is "
            "jnp.where / lax.cond / lax.while_loop rather than static_argnames",
            static_fix={"params": suspects, "works": False, "arrays": arrays},
        )
    try:
        entry.jitted(made_static).trace(*entry.args, **entry.kwargs)
    except Exception as exc:
        info = describe_exception(exc, side.filename)
        return not_reproduced(
            f"still fails with {made_static} static ({info['exception']}: {info['message']}): "
            "the value is data, not configuration",
            static_fix={
                "params": made_static,
                "works": False,
                "exception": info["exception"],
                "at_line": info.get("at_line"),
            },
        )
    names = ", ".join(repr(n) for n in made_static)
    return confirmed(
        f"traces with static_argnames=({names},): static_argnames is the fix when it is configuration "
        "(one compile per distinct value)",
        static_fix={"params": made_static, "works": True},
    )


def _value(entry: Any, name: str) -> tuple[Any, Any]:
    params = list(entry.spec.get("params") or [])
    if name in entry.kwargs:
        return entry.kwargs[name], ("kw", name)
    if name in params:
        index = params.index(name)
        if index < len(entry.args):
            return entry.args[index], ("pos", index)
    return None, None


def _set(entry: Any, name: str, where: Any, value: Any) -> None:
    if where[0] == "kw":
        entry.kwargs[name] = value
    else:
        entry.args[where[1]] = value


def _python_scalar(value: Any) -> Any:
    if isinstance(value, (bool, int, float, complex, str)) or value is None:
        return value
    shape = getattr(value, "shape", None)
    if shape == () and hasattr(value, "item"):
        try:
            import jax

            if jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key):
                return None
            return value.item()
        except Exception:
            return None
    return None
