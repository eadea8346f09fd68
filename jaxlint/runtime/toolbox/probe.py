"""`jaxlint probe`: everything JAX says about one function on example inputs, without running it.

Traces, lowers and compiles once (AOT: `jit(f).trace(...).lower().compile()`), then reports output
shapes, the jaxpr, StableHLO and compiled HLO texts, XLA's cost and memory analyses, which donated
inputs were really aliased, and whether the program calls back into Python on the host.
"""

from __future__ import annotations

import functools
import re
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from jaxlint.runtime.toolbox.inputs import describe_value

BIG_TEXT_KEYS = ("jaxpr", "stablehlo", "hlo")
_ALIAS_RE = re.compile(r"\{([\d,\s]*)\}\s*:\s*\((\d+),\s*\{([\d,\s]*)\}(?:,\s*([\w-]+))?\)")
_CUSTOM_CALL_RE = re.compile(r'custom_call_target="([^"]+)"')


def probe(
    fn: Callable[..., Any],
    args: Sequence[Any],
    *,
    static_argnums: Sequence[int] = (),
    donate_argnums: Sequence[int] = (),
    arg_names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Trace, lower and compile `fn` on `args` and describe what came out (no execution).

    `arg_names` (one per positional argument) only labels the donation report.
    """
    import jax

    names = list(arg_names or [])
    names += [f"arg{i}" for i in range(len(names), len(args))]

    @functools.wraps(fn)
    def fresh(*a: Any, **k: Any) -> Any:  # a new object, so an earlier trace cannot be reused
        return fn(*a, **k)

    jitted = jax.jit(
        fresh, static_argnums=tuple(static_argnums), donate_argnums=tuple(donate_argnums)
    )
    static = set(static_argnums)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        traced = jitted.trace(*args)
        trace_seconds = time.perf_counter() - start
        start = time.perf_counter()
        lowered = traced.lower()
        lower_seconds = time.perf_counter() - start
        start = time.perf_counter()
        compiled = lowered.compile()
        compile_seconds = time.perf_counter() - start
    closed = traced.jaxpr
    jaxpr_text = str(closed)
    stablehlo = lowered.as_text()
    hlo = compiled.as_text() or ""
    primitives = _primitives(closed.jaxpr)
    callback_prims = sorted({p for p in primitives if "callback" in p or p == "debug_print"})
    callback_targets = sorted({t for t in _CUSTOM_CALL_RE.findall(hlo) if "callback" in t.lower()})

    return {
        "eval_shape": _tree_to_json(traced.out_info),  # what jax.eval_shape returns
        "jaxpr": jaxpr_text,
        "jaxpr_eqns": len(closed.jaxpr.eqns),
        "jaxpr_eqns_total": len(primitives),
        "stablehlo": stablehlo,
        "hlo": hlo,
        "cost_analysis": normalize_cost_analysis(_call_quietly(compiled.cost_analysis)),
        "memory_analysis": normalize_memory_analysis(_call_quietly(compiled.memory_analysis)),
        "trace_seconds": trace_seconds,
        "lower_seconds": lower_seconds,
        "compile_seconds": compile_seconds,
        "donation": _donation(args, static, tuple(donate_argnums), names, hlo, caught),
        "host_callbacks": bool(callback_prims or callback_targets),
        "host_callback_primitives": callback_prims,
        "host_callback_targets": callback_targets,
        "warnings": sorted({str(w.message) for w in caught}),
    }


def _call_quietly(method: Callable[[], Any]) -> Any:
    try:
        return method()
    except Exception:  # not implemented on some backends
        return None


def _primitives(jaxpr: Any) -> list[str]:
    """Primitive names of every equation, including those in nested jaxprs (scan, cond, pjit...)."""
    names: list[str] = []
    stack = [jaxpr]
    while stack:
        current = stack.pop()
        for eqn in getattr(current, "eqns", ()):
            names.append(str(eqn.primitive))
            for value in eqn.params.values():
                for item in value if isinstance(value, (list, tuple)) else (value,):
                    inner = getattr(item, "jaxpr", item)
                    if hasattr(inner, "eqns"):
                        stack.append(inner)
    return names


def normalize_cost_analysis(raw: Any) -> dict[str, float | None] | None:
    """XLA's cost analysis as one flat dict (older JAX returned a list with one dict per device).

    XLA reports -1 for costs it cannot know (e.g. around host callbacks): those become None.
    """
    if isinstance(raw, (list, tuple)):
        raw = raw[0] if raw else None
    if not isinstance(raw, dict):
        return None
    out: dict[str, float | None] = {}
    for key, value in raw.items():
        try:
            number = float(value)
        except (TypeError, ValueError):
            continue
        out[str(key)] = None if number < 0 else number
    return out


def normalize_memory_analysis(raw: Any) -> dict[str, int] | None:
    """The `*_in_bytes` fields of `Compiled.memory_analysis()`, short names (`argument_bytes`)."""
    if raw is None:
        return None
    out: dict[str, int] = {}
    for attr in dir(raw):
        if attr.startswith("_") or not attr.endswith("_in_bytes"):
            continue
        try:
            value = getattr(raw, attr)
        except Exception:
            continue
        if isinstance(value, int):
            out[attr.replace("_size_in_bytes", "_bytes").replace("_in_bytes", "_bytes")] = value
    return out or None


def parse_input_output_alias(hlo_text: str) -> list[dict[str, Any]]:
    """Pairs from the HLO module header `input_output_alias={ {0}: (0, {}, may-alias) }`."""
    header = next((line for line in hlo_text.splitlines() if "input_output_alias=" in line), "")
    if not header:
        return []
    body = header.split("input_output_alias=", 1)[1]
    pairs = []
    for output, param, param_index, kind in _ALIAS_RE.findall(body):
        pairs.append(
            {
                "output": "{" + output.strip() + "}",
                "parameter": int(param),
                "parameter_index": "{" + param_index.strip() + "}",
                "kind": kind or "must-alias",
            }
        )
    return pairs


def _donation(
    args: Sequence[Any],
    static: set[int],
    donate: tuple[int, ...],
    names: list[str],
    hlo: str,
    caught: list[warnings.WarningMessage],
) -> dict[str, Any]:
    import jax

    owner: list[int] = []  # HLO parameter number -> positional argument
    for i, arg in enumerate(args):
        if i not in static:
            owner += [i] * len(jax.tree.leaves(arg))
    aliases = parse_input_output_alias(hlo)
    for pair in aliases:
        index = pair["parameter"]
        pair["argument"] = names[owner[index]] if index < len(owner) else None
    aliased = {pair["argument"] for pair in aliases}
    requested = [names[i] for i in donate if i < len(names)]
    return {
        "requested": requested,
        "aliased": sorted(a for a in aliased if a),
        "not_aliased": [n for n in requested if n not in aliased],
        "aliases": aliases,
        "warnings": sorted({str(w.message) for w in caught if "donat" in str(w.message).lower()}),
    }


def _tree_to_json(tree: Any) -> Any:
    """Output structure with leaves as `f32[8,128]`: dicts, lists and None kept, other nodes by path."""
    import jax

    if tree is None:
        return None
    if isinstance(tree, dict):
        return {str(k): _tree_to_json(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)) and not hasattr(tree, "_fields"):
        return [_tree_to_json(v) for v in tree]
    if hasattr(tree, "shape") and hasattr(tree, "dtype"):
        return describe_value(tree)
    leaves = jax.tree_util.tree_flatten_with_path(tree)[0]
    return {
        "type": type(tree).__name__,
        "leaves": {jax.tree_util.keystr(path): describe_value(leaf) for path, leaf in leaves},
    }


def run(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox worker for `jaxlint probe`: load the function, build inputs, probe."""
    from jaxlint.runtime.toolbox.inputs import materialize
    from jaxlint.runtime.toolbox.loader import load_call, parameter_names

    fn, specs, static, donate = load_call(payload)
    args = materialize(specs, seed=int(payload.get("seed", 0)))
    names = parameter_names(fn)
    result = probe(
        fn, args, static_argnums=static, donate_argnums=donate, arg_names=names[: len(args)] or None
    )
    return {
        "function": payload["function"],
        "args": [str(s) for s in specs],
        "static": [names[i] if i < len(names) else i for i in static],
        **result,
    }
