"""Verifier kind `dtype`: what dtype JAX really gives, and the warning it raises on the way.

A traced function is evaluated abstractly with `jax.eval_shape` (nothing runs on the device);
plain Python code (an entry called as is) and module-level code run as written. Every warning is recorded with the lines of the user's file on the stack
when it was raised, so "Explicitly requested dtype float64 requested in zeros is not available,
and will be truncated to dtype float32" is tied to the line that asked for float64. Confirmed on
such a warning at the flagged line (or an output dtype narrower than requested).
"""

from __future__ import annotations

from typing import Any

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
)
from jaxlint.runtime.side import Probe, Side

WORDS = ("dtype", "float64", "int64", "truncated", "x64", "precision")


def _dtypes(value: Any) -> list[str]:
    import jax

    return [str(getattr(leaf, "dtype", type(leaf).__name__)) for leaf in jax.tree.leaves(value)]


def check(side: Side) -> Outcome:
    import jax

    evidence: dict[str, Any] = {"x64_enabled": bool(jax.config.jax_enable_x64)}
    with Probe(side.filename) as probe:
        if side.mode == "module":
            side.run_module()
            evidence["ran"] = "module top-level code"
        else:
            entry = side.entry(shared=True)
            evidence["ran"] = f"jax.eval_shape of {entry.describe()}"
            try:
                if entry.mode in ("call", "attr"):
                    # plain Python code (an init helper called with `n=4`): run as the program
                    # runs it; eval_shape would trace its Python ints into shapes
                    evidence["ran"] = entry.describe()
                    out = entry.call()
                else:
                    fn = entry.jitted() if entry.mode == "jit" else entry.obj
                    out = jax.eval_shape(fn, *entry.args, **entry.kwargs)
                evidence["out_dtype"] = _dtypes(out)
            except Exception as exc:
                info = describe_exception(exc, side.filename)
                if info.get("at_line") in side.lines and any(w in info["message"] for w in WORDS):
                    return confirmed(f"line {info['at_line']}: {info['message']}", **info)
                return could_not_run(
                    f"{entry.describe()} failed: {info['exception']}: {info['message']}", **info
                )
    relevant = [
        w for w in probe.warnings_at(side.lines) if any(word in w["message"] for word in WORDS)
    ]
    evidence["warnings"] = [f"{w['category']}: {w['message']}" for w in relevant[:3]]
    if relevant:
        return confirmed(relevant[0]["message"], **evidence)
    return not_reproduced("no dtype warning at the flagged line", **evidence)
