"""Verifier kind `leaks`: run the entry under `jax.checking_leaks()`.

A tracer stored outside the traced function (appended to a global list, assigned to a global or
an attribute) outlives its trace; with leak checking on, JAX raises `Exception: Leaked trace ...`
when the trace ends. Confirmed on that error.
"""

from __future__ import annotations

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
    stopped,
)
from jaxlint.runtime.side import Side


def check(side: Side) -> Outcome:
    import jax

    if side.mode == "module":
        return could_not_run("module-level code is not traced; nothing can leak")
    entry = side.entry(shared=True)
    try:
        with jax.checking_leaks():
            entry.run()
    except Exception as exc:
        info = describe_exception(exc, side.filename)
        if "Leaked" in info["message"] or "leaked" in info["message"].lower():
            return confirmed(
                f"jax.checking_leaks: {info['message']}", leak=info["message"], ran=entry.describe()
            )
        return stopped(side, exc, entry.describe())
    return not_reproduced(
        "no tracer leaked under jax.checking_leaks()", leak=None, ran=entry.describe()
    )
