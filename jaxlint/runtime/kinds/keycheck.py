"""Verifier kind `keycheck`: run the code under `jax.debug_key_reuse(True)`.

JAX's key-reuse checker raises `KeyReuseError` when a consumed typed key is used again (eagerly,
inside jit, or across the iterations of a scan body). Legacy `uint32` keys are invisible to it, so
key inputs are passed as typed keys (`jax.random.wrap_key_data`), which every `jax.random`
function accepts. The code runs the way the program runs it (the entry's `run`, or the module's
top-level statements). Confirmed on a `KeyReuseError`, wherever it is raised (under jit it
surfaces at the call of the jitted function); keys the code makes itself with `PRNGKey` stay
untracked, and `draws` covers them.
"""

from __future__ import annotations

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    describe_exception,
    not_reproduced,
    stopped,
)
from jaxlint.runtime.side import Side


def _is_reuse(exc: BaseException) -> bool:
    return any(c.__name__ == "KeyReuseError" for c in type(exc).__mro__)


def check(side: Side) -> Outcome:
    import jax

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
                entry.run()
            except Exception as exc:
                errors.append(exc)
    for exc in errors:
        if _is_reuse(exc):
            info = describe_exception(exc, side.filename)
            return confirmed(
                f"jax.debug_key_reuse: {info['message']}",
                key_reuse_error=info["message"],
                at_line=info.get("at_line"),
                ran=ran,
            )
    if errors:
        return stopped(side, errors[0], ran, " before any key reuse was seen")
    return not_reproduced(
        "no KeyReuseError under jax.debug_key_reuse(True)", key_reuse_error=None, ran=ran
    )
