"""Verifier kind `draws`: record every `jax.random` call the user's code makes, compare the keys.

While the code runs (eagerly: the Python function without jit, so keys are concrete; or the
module's top-level statements), each public `jax.random` function that takes a key is wrapped:
a call made directly from the user's file records its line, the key's data (`key_data`), and for
samplers the first values drawn; `split` and `fold_in` record the keys they derive. Then:

- two samplers fed the same key data -> the draws are identical (same sampler and shape) or
  strongly correlated (`uniform` vs `normal`: ~0.98): JAX201, JAX202 (same line, every iteration);
- one key data derived twice (`split(k)[i] == fold_in(k, i)`, or `fold_in(k, c)` twice): JAX203;
- a function that runs repeatedly (JAX208 fixed seed, JAX209 module-level key) is called twice,
  with `jax.disable_jit()` so that `scan` bodies run eagerly too: the same key feeding the same
  line in both runs is the reuse;
- a sampler called with a concrete (unbatched) key inside `vmap`: every batch element gets
  the same draw (JAX207).

Confirmed when a collision involves the flagged line.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
from collections.abc import Iterator
from typing import Any

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    not_reproduced,
    short_message,
    stopped,
)
from jaxlint.runtime.side import Side

DERIVERS = {"split", "fold_in", "clone"}
CREATORS = {"key", "PRNGKey", "wrap_key_data"}
NOT_SAMPLERS = {"key_data", "key_impl", "default_prng_impl"}
SHOWN = 4


class Recorder:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.calls: list[dict[str, Any]] = []
        self.traced = 0


def _key_bytes(key: Any) -> bytes | None:
    import jax
    import numpy as np

    try:
        if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
            key = jax.random.key_data(key)
        return np.asarray(key).tobytes() + str(np.shape(key)).encode()
    except Exception:
        return None


def _first_values(out: Any) -> list[float] | None:
    import numpy as np

    try:
        arr = np.asarray(out, dtype=np.float64).ravel()
    except Exception:
        return None
    return [round(float(v), 6) for v in arr[:SHOWN]]


@contextlib.contextmanager
def recording(filename: str) -> Iterator[Recorder]:
    import jax
    import jax.random as jr

    rec = Recorder(filename)
    originals: dict[str, Any] = {}
    for name in dir(jr):
        if name.startswith("_") or name in NOT_SAMPLERS:
            continue
        fn = getattr(jr, name)
        if not inspect.isfunction(fn) and not callable(fn):
            continue
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            continue
        if not params or (params[0] != "key" and name not in CREATORS):
            continue
        originals[name] = fn

        def wrapper(key: Any, *args: Any, __fn: Any = fn, __name: str = name, **kwargs: Any) -> Any:
            out = __fn(key, *args, **kwargs)
            caller = sys._getframe(1)
            if caller.f_code.co_filename != filename:
                return out
            if isinstance(key, jax.core.Tracer):
                rec.traced += 1
                return out
            item: dict[str, Any] = {"fn": __name, "line": caller.f_lineno, "key": _key_bytes(key)}
            if _batching():
                item["unbatched"] = True
            if __name in CREATORS:
                item = {"fn": __name, "line": caller.f_lineno, "created": _key_bytes(out)}
            elif __name in DERIVERS:
                derived = []
                try:
                    if __name == "split":
                        derived = [_key_bytes(k) for k in out]
                    else:
                        derived = [_key_bytes(out)]
                except Exception:
                    pass
                item["derived"] = derived
                item["data"] = args[0] if __name == "fold_in" and args else None
                item["parent"] = key
            else:
                item["values"] = _first_values(out)
                item["shape"] = list(getattr(out, "shape", ()))
                item["sample"] = out
            rec.calls.append(item)
            return out

        functools.update_wrapper(wrapper, fn)
        setattr(jr, name, wrapper)
    try:
        yield rec
    finally:
        for name, fn in originals.items():
            setattr(jr, name, fn)


def _batching() -> bool:
    """Inside `vmap` (a batching trace is the current trace)."""
    try:
        from jax._src import core

        return type(core.trace_ctx.trace).__name__ == "BatchTrace"
    except Exception:  # a JAX without this internal: no JAX207 evidence
        return False


def _flat_common(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Both samples flattened to their common length: one key drawn at two shapes gives the same
    leading values (the counter is the flat index), which is the reuse, shapes apart."""
    import numpy as np

    try:
        x = np.asarray(a, dtype=np.float64).ravel()
        y = np.asarray(b, dtype=np.float64).ravel()
    except Exception:
        return None
    n = min(x.size, y.size)
    return x[:n], y[:n]


def _same_values(a: Any, b: Any) -> bool:
    """The draws agree on every value both have (identical when the shapes are the same)."""
    import numpy as np

    common = _flat_common(a, b)
    return common is not None and common[0].size > 0 and bool(np.array_equal(*common))


def _correlation(a: Any, b: Any) -> float | None:
    import numpy as np

    common = _flat_common(a, b)
    if common is None:
        return None
    x, y = common
    if x.size < 3 or x.std() == 0 or y.std() == 0:
        return None
    return round(float(np.corrcoef(x, y)[0, 1]), 4)


def analyse(rec: Recorder, lines: list[int]) -> dict[str, Any]:
    """Key collisions among the recorded calls; which of them touch `lines`."""
    samplers = [
        c
        for c in rec.calls
        if c["fn"] not in DERIVERS and c["fn"] not in CREATORS and c["key"] is not None
    ]
    created_at: dict[bytes, list[int]] = {}
    for c in rec.calls:
        if c["fn"] in CREATORS and c.get("created") is not None:
            created_at.setdefault(c["created"], []).append(c["line"])
        for kb in c.get("derived") or []:
            if kb is not None:
                created_at.setdefault(kb, []).append(c["line"])
    by_key: dict[bytes, list[dict[str, Any]]] = {}
    for call in samplers:
        by_key.setdefault(call["key"], []).append(call)
    reuse = []
    for calls in by_key.values():
        if len(calls) < 2:
            continue
        first, second = calls[0], calls[1]
        same = first["fn"] == second["fn"] and _same_values(first["sample"], second["sample"])
        reuse.append(
            {
                "lines": sorted({c["line"] for c in calls} | set(created_at.get(first["key"], []))),
                "uses": [
                    {"fn": c["fn"], "line": c["line"], "values": c["values"]} for c in calls[:SHOWN]
                ],
                "count": len(calls),
                "identical": same,
                "same_shape": first["shape"] == second["shape"],
                "correlation": None if same else _correlation(first["sample"], second["sample"]),
            }
        )
    derived: dict[bytes, list[dict[str, Any]]] = {}
    for call in rec.calls:
        for i, kb in enumerate(call.get("derived") or []):
            if kb is not None:
                derived.setdefault(kb, []).append(
                    {
                        "fn": call["fn"],
                        "line": call["line"],
                        "index": i,
                        "data": _plain(call.get("data")),
                    }
                )
    collisions = [
        {"lines": sorted({d["line"] for d in ds}), "derivations": ds[:SHOWN]}
        for ds in derived.values()
        if len(ds) >= 2 and len({(d["fn"], d["line"], d["index"]) for d in ds}) >= 2
    ]
    collisions += _split_fold_in_probe(rec)
    wanted = set(lines)
    return {
        "reuse": [r for r in reuse if wanted & set(r["lines"])] or reuse,
        "reuse_here": any(wanted & set(r["lines"]) for r in reuse),
        "collisions": collisions,
        "collision_here": any(wanted & set(c["lines"]) for c in collisions),
        "calls": len(rec.calls),
        "traced_calls": rec.traced,
    }


def _split_fold_in_probe(rec: Recorder) -> list[dict[str, Any]]:
    """A parent key both split and folded in: do `split(k, n)[i]` and `fold_in(k, i)` coincide?

    With the default `jax_threefry_partitionable=True` they do for every i < n, so a `fold_in`
    whose data happens to be in 0..n-1 silently reuses a split key. Checked on the real parent key.
    """
    import jax

    by_parent: dict[bytes, dict[str, list[dict[str, Any]]]] = {}
    for c in rec.calls:
        if c["fn"] in ("split", "fold_in") and c.get("key") is not None:
            by_parent.setdefault(c["key"], {}).setdefault(c["fn"], []).append(c)
    out = []
    for uses in by_parent.values():
        if "split" not in uses or "fold_in" not in uses:
            continue
        split_call, fold_call = uses["split"][0], uses["fold_in"][0]
        parent = fold_call["parent"]
        n = len(split_call.get("derived") or [])
        same = []
        for i in range(n):
            folded = _key_bytes(jax.random.fold_in(parent, i))
            if folded is not None and folded == (split_call["derived"] or [None] * n)[i]:
                same.append(i)
        if same:
            out.append(
                {
                    "lines": sorted({split_call["line"], fold_call["line"]}),
                    "derivations": [
                        {"fn": "split", "line": split_call["line"], "index": same[0], "data": None},
                        {"fn": "fold_in", "line": fold_call["line"], "index": 0, "data": same[0]},
                    ],
                    "split_equals_fold_in": same,
                    "split_n": n,
                    "fold_in_data_used": _plain(fold_call.get("data")),
                    "threefry_partitionable": bool(jax.config.jax_threefry_partitionable),
                }
            )
    return out


def _plain(value: Any) -> Any:
    try:
        import numpy as np

        return np.asarray(value).tolist()
    except Exception:
        return str(value)


def _as_written_twice(side: Side) -> Outcome | None:
    """A function JAX jits, called twice as written (one jitted wrapper, as a training loop
    calls it): a key the traced code consumed at the flagged line while it was a concrete
    value (a module-level key, a seed made inside) is a constant of the compiled program, so
    every call draws the same numbers; the two calls' outputs show it. `disable_jit` would
    hide exactly this (a `global KEY; KEY, sub = split(KEY)` then advances per call)."""
    from jaxlint.runtime.toolbox.bench import outputs_match

    entry = side.entry()
    with recording(side.filename) as rec:
        try:
            first = entry.run()
            second = entry.run()
        except Exception:
            return None  # the eager comparison below still has its say
    # the recorder skips calls whose key is a tracer: what it holds from inside the trace had
    # a concrete key (or made one from a constant seed)
    baked = [c for c in rec.calls if c["line"] in side.lines]
    same, _ = outputs_match(first, second)
    if not baked or not same:
        return None
    call = baked[0]
    return confirmed(
        f"`{call['fn']}` at line {call['line']} consumed a concrete key while {entry.describe()} "
        "was traced: the key is a constant of the compiled program, and two calls returned the "
        "same outputs (the same draws every call)",
        ran=f"{entry.describe()} twice, as written",
        outputs_equal=True,
        baked_key_calls=[{"fn": c["fn"], "line": c["line"]} for c in baked[:SHOWN]],
        random_calls=len(rec.calls),
    )


def check(side: Side) -> Outcome:
    if side.verify.get("runs_twice") and side.mode == "jit":
        written = _as_written_twice(side)
        if written is not None:
            return written
    errors: list[str] = []
    failure: BaseException | None = None
    with recording(side.filename) as rec:
        if side.mode == "module":
            mod = side.run_module()
            errors = [
                f"line {r['at_line']}: {type(r['exc']).__name__}: {short_message(r['exc'])}"
                for r in mod.errors
            ]
            ran = "module top-level code"
        else:
            entry = side.entry()
            runs = 2 if side.verify.get("runs_twice") else 1
            ran = f"{entry.describe()} (eagerly, keys concrete)"
            if runs > 1:
                ran = f"{entry.describe()} twice (eagerly, under jax.disable_jit)"
            try:
                if side.verify.get("unmapped_key"):
                    ran = f"{entry.describe()} (vmap as written)"
                    entry.call()
                else:
                    import jax

                    with jax.disable_jit() if runs > 1 else contextlib.nullcontext():
                        for _ in range(runs):
                            entry.eager()
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {short_message(exc)}")
                failure = exc
    found = analyse(rec, side.lines)
    evidence: dict[str, Any] = {"ran": ran, "random_calls": found["calls"]}
    unbatched = [c for c in rec.calls if c.get("unbatched")]
    if side.verify.get("unmapped_key") and unbatched:
        first = unbatched[0]
        evidence["unbatched_draws"] = [
            {"fn": c["fn"], "line": c["line"], "values": c.get("values")} for c in unbatched[:SHOWN]
        ]
        return confirmed(
            f"inside vmap, `{first['fn']}` at line {first['line']} got one concrete key (not "
            "mapped): it drew once, and every batch element gets that same draw",
            **evidence,
        )
    if found["reuse_here"]:
        first = found["reuse"][0]
        evidence.update(
            identical_draws=first["identical"],
            draws=first["uses"],
            correlation=first["correlation"],
        )
        if not first["same_shape"]:
            evidence["same_shape"] = False
        how = (
            (
                "identical draws"
                if first["same_shape"]
                else "identical draws (the leading values of two shapes)"
            )
            if first["identical"]
            else f"correlated draws (r={first['correlation']})"
            if first["correlation"] is not None
            else "the same randomness"
        )
        where = ", ".join(f"{u['fn']} at line {u['line']}" for u in first["uses"])
        return confirmed(f"one key fed {first['count']} draws ({where}): {how}", **evidence)
    if found["collision_here"]:
        evidence["collisions"] = found["collisions"]
        first = found["collisions"][0]
        if "split_equals_fold_in" in first:
            idx = first["split_equals_fold_in"]
            return confirmed(
                f"split(key, {first['split_n']})[i] == fold_in(key, i) for i in {idx} on this key "
                f"(line {first['lines'][0]} vs {first['lines'][-1]}): a fold_in with data in that range "
                "reuses a split key (this run used data "
                f"{first['fold_in_data_used']})",
                **evidence,
            )
        where = ", ".join(
            f"{d['fn']}(data={d['data']})[{d['index']}] at line {d['line']}"
            if d["fn"] == "split" or d["data"] is None
            else f"{d['fn']}(k, {d['data']}) at line {d['line']}"
            for d in first["derivations"]
        )
        return confirmed(f"the same key was derived twice: {where}", **evidence)
    if failure is not None:  # it stopped: what it did not reach proves nothing
        before = " before drawing" if not found["calls"] else " (no key reuse before that)"
        outcome = stopped(side, failure, ran, before)
        outcome.evidence.update(evidence)
        return outcome
    if errors and not found["calls"]:
        return could_not_run(f"{ran} failed before drawing: {errors[0]}", **evidence)
    if found["traced_calls"] and not found["calls"]:
        return could_not_run("every key was traced (inside jit); nothing to compare", **evidence)
    if not found["calls"]:
        # nothing drew: the flagged code never ran (a function defined but never called at module
        # level, a branch not taken); "not reproduced" would claim a run that did not happen
        what = (
            "the module's top-level code made no jax.random call of this file"
            if side.mode == "module"
            else f"{entry.describe()} made no jax.random call of this file"
        )
        return could_not_run(
            f"{what}: line {side.line} never ran, so there is nothing to compare (give an entry "
            "that calls it: PATH::FUNCTION with --args, or --capture-main)",
            **evidence,
        )
    evidence["identical_draws"] = False
    return not_reproduced(f"{found['calls']} jax.random calls, no key used twice", **evidence)
