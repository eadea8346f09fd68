"""Verifier kind `numeric`: compare what two versions of the code compute (`np.allclose`).

- With a fix: the original runs as written, or eagerly (no jit) when the sharp bit stops it, and
  the fixed code runs as written; the outputs must match (`bench.outputs_match`: allclose with
  dtype-aware tolerances). Used as evidence that a rewrite (`x[m].sum()` -> `jnp.sum(x, where=m)`,
  `x[i] = v` -> `x.at[i].set(v)`) keeps the results, and by `--fix` checks of every kind.
- A rule's `verify.compare` names another reference than the fix (`COMPARES`): "pmap" (JAX301,
  `jax.pmap`: the pmapped function runs on simulated devices and is compared with its
  `jax.jit(jax.shard_map(..., check_vma=False))` migration, rank-reducing like pmap),
  "stale-globals" (JAX503: the jitted function after its globals changed vs the un-jitted one),
  "check-vma-off" (JAX303: the shard_mapped program vs itself with pmap semantics).
- Rules whose bug is a wrong number (`verify.changes_result`): confirmed when the original's
  result differs from the reference.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from jaxlint.runtime.kit import (
    CouldNotRun,
    Outcome,
    compare_sides,
    confirmed,
    could_not_run,
    describe_exception,
    masked,
    module_values,
    not_reproduced,
    short_message,
)
from jaxlint.runtime.side import Side
from jaxlint.runtime.toolbox.bench import outputs_match


def _run_pmapped(side: Side, entry: Any) -> Any:
    """The pmapped function's result, or the could-not-run outcome of its failure (masked by
    another finding when it stopped at that finding's line: its fix is applied and the check
    repeated)."""
    import jax

    try:
        return jax.block_until_ready(entry.obj(*entry.args))
    except Exception as exc:
        info = describe_exception(exc, side.filename)
        stop = masked(side, info, "the pmapped function")
        if stop is not None:
            return stop
        return could_not_run(
            f"the pmapped function failed: {info['exception']}: {info['message']}", **info
        )


def _pmap(side: Side) -> Outcome:
    import jax
    import numpy as np
    from jax.sharding import Mesh
    from jax.sharding import PartitionSpec as P

    spec = side.job.get("pmap_entry")
    if not spec:
        raise CouldNotRun(
            side.job.get("entry_error") or "could not find the pmapped function or its inputs"
        )
    calls: list[int] = []
    original_pmap = jax.pmap

    @functools.wraps(original_pmap)
    def counting_pmap(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original_pmap(*args, **kwargs)

    jax.pmap = counting_pmap
    try:
        mod = side.module().execute()
    finally:
        jax.pmap = original_pmap
    side_entry = side.entry_spec
    side.entry_spec = spec
    try:
        entry = side.entry(mod)
    finally:
        side.entry_spec = side_entry
    if side.fixed:
        if calls:
            return confirmed("the fixed module still calls jax.pmap", pmap_calls=len(calls))
        try:
            jax.block_until_ready(entry.call())
        except Exception as exc:
            info = describe_exception(exc, side.filename)
            return could_not_run(
                f"the fixed code fails: {info['exception']}: {info['message']}", **info
            )
        return not_reproduced(f"the fixed code runs {entry.describe()} without jax.pmap")
    axis = side.job.get("axis_name") or "i"
    arrays = [a for a in entry.args if hasattr(a, "shape")]
    if not arrays or len(arrays) != len(entry.args) or entry.kwargs:
        raise CouldNotRun("the migration check needs array positional inputs only")
    n = arrays[0].shape[0] if arrays[0].shape else 0
    if n < 1 or n > jax.device_count():
        raise CouldNotRun(
            f"the mapped axis has size {n} but {jax.device_count()} device(s) are available"
        )
    expected = _run_pmapped(side, entry)
    if isinstance(expected, Outcome):
        return expected
    mesh = Mesh(np.array(jax.devices()[:n]), (axis,))

    def body(*blocks: Any) -> Any:
        out = entry.fn(*[b[0] for b in blocks])
        return jax.tree.map(lambda y: jax.numpy.asarray(y)[None], out)

    migrated = jax.jit(
        jax.shard_map(
            body,
            mesh=mesh,
            in_specs=tuple(P(axis) for _ in arrays),
            out_specs=P(axis),
            check_vma=False,
        )
    )
    try:
        got = jax.block_until_ready(migrated(*entry.args))
    except Exception as exc:
        return could_not_run(
            f"the shard_map migration failed: {type(exc).__name__}: {short_message(exc)}"
        )
    same, diff = outputs_match(expected, got)
    evidence = {
        "pmap_calls": len(calls),
        "ran": f"{side.job.get('pmap_target')} on {n} device(s) ({jax.default_backend()})",
        "devices": n,
        "pmap_is_shard_map": True,
        "outputs_match": same,
        "max_abs_diff": diff,
        "migration": f"jax.jit(jax.shard_map(f, mesh=Mesh(devices[:{n}], ('{axis}',)), in_specs=P('{axis}'), out_specs=P('{axis}'), check_vma=False))",
    }
    if same:
        return confirmed(
            f"jax.pmap runs (maintenance mode; implemented on shard_map) and the shard_map migration "
            f"gives the same results on {n} devices",
            **evidence,
        )
    return confirmed(
        "jax.pmap runs, but a direct shard_map port differs (rank-reducing bodies need care)",
        **evidence,
    )


def _stale_globals(side: Side) -> Outcome:
    import numpy as np

    names = list(side.job.get("globals") or [])
    if not names or side.mode != "jit":
        raise CouldNotRun("needs a jitted function that reads module globals")
    entry = side.entry()
    jitted = entry.jitted()
    first = jitted(*entry.args, **entry.kwargs)
    changed = []
    for name in names:
        value = entry.mod.namespace.get(name)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            entry.mod.namespace[name] = value * 2 + 1
            changed.append(name)
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    value[k] = v * 2 + 1
                    changed.append(f"{name}[{k!r}]")
        elif isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
            value += 1
            changed.append(name)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    value[i] = v * 2 + 1
                    changed.append(f"{name}[{i}]")
    if not changed:
        raise CouldNotRun(f"could not change {names} (not numbers, dicts, lists or NumPy arrays)")
    stale = jitted(*entry.args, **entry.kwargs)
    fresh = entry.eager()
    same_as_before, _ = outputs_match(first, stale)
    same_as_fresh, diff = outputs_match(stale, fresh)
    evidence = {
        "changed": changed,
        "stale_equals_first": same_as_before,
        "outputs_match": same_as_fresh,
        "max_abs_diff": diff,
    }
    if same_as_before and not same_as_fresh:
        return confirmed(
            f"after changing {', '.join(changed)} the jitted function still returns the old result; "
            "the un-jitted function sees the new value",
            **evidence,
        )
    return not_reproduced("the jitted function follows the global's new value", **evidence)


def without_vma(source: str) -> tuple[str, int]:
    """The source with every `shard_map` (and `partial(shard_map, ...)`) call given
    `check_vma=False` (`check_rep=False` for `jax.experimental.shard_map`): pmap semantics."""
    import ast

    from jaxlint.analysis.imports import ModuleIndex

    tree = ast.parse(source)
    index = ModuleIndex(tree)
    changed = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = index.qualname(node.func) or ""
        target = node
        if name in ("functools.partial", "partial") and node.args:
            name = index.qualname(node.args[0]) or ""
        if not name.endswith("shard_map"):
            continue
        keyword = "check_rep" if name.startswith("jax.experimental") else "check_vma"
        target.keywords = [k for k in target.keywords if k.arg not in ("check_vma", "check_rep")]
        target.keywords.append(ast.keyword(arg=keyword, value=ast.Constant(False)))
        changed += 1
    return ast.unparse(ast.fix_missing_locations(tree)), changed


@contextlib.contextmanager
def auto_meshes() -> Iterator[None]:
    """`jax.make_mesh` without `axis_types` makes Auto axes while active (it defaults to Explicit,
    where shard_map insists the inputs are already sharded): inputs are resharded for us."""
    import jax
    from jax.sharding import AxisType

    original = jax.make_mesh

    @functools.wraps(original)
    def make_mesh(axis_shapes: Any, axis_names: Any, *args: Any, **kwargs: Any) -> Any:
        if "axis_types" not in kwargs and not args:
            kwargs["axis_types"] = (AxisType.Auto,) * len(tuple(axis_shapes))
        return original(axis_shapes, axis_names, *args, **kwargs)

    jax.make_mesh = make_mesh
    try:
        yield
    finally:
        jax.make_mesh = original


def _double_reduction(side: Side) -> Outcome:
    """JAX303: the flagged program vs the same program with pmap semantics (check_vma=False)."""
    import jax
    import numpy as np

    from jaxlint.runtime.entry import Entry, UserModule

    spec = side.job.get("sharded_entry")
    if not spec:
        raise CouldNotRun(
            side.job.get("entry_error") or "could not find the shard_mapped function or its inputs"
        )
    variant, changed = without_vma(side.source)
    if not changed:
        raise CouldNotRun("no shard_map call found to compare against check_vma=False")
    outs = []
    for text, name in ((side.source, side.filename), (variant, f"{side.path} (check_vma=False)")):
        with auto_meshes():
            mod = UserModule(side.path, text, name).execute()
        try:
            entry = Entry(mod, spec, side.seed)
            outs.append(entry.call())
        except CouldNotRun:
            raise
        except Exception as exc:
            info = describe_exception(exc, name)
            return could_not_run(
                f"{'the program' if not outs else 'the check_vma=False variant'} failed: "
                f"{info['exception']}: {info['message']}",
                **info,
            )
        finally:
            mod.close()
    same, diff = outputs_match(outs[0], outs[1])
    ratios = []
    for a, b in zip(jax.tree.leaves(outs[0]), jax.tree.leaves(outs[1])):
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        mask = np.abs(b) > 1e-12
        if a.shape == b.shape and mask.any() and not np.allclose(a, b):
            ratios.append(float(np.median(a[mask] / b[mask])))
    evidence = {
        "devices": jax.device_count(),
        "outputs_match": same,
        "max_abs_diff": diff,
        "ratio_vs_pmap_semantics": round(ratios[0], 4) if ratios else None,
    }
    if not same:
        return confirmed(
            "with the default check_vma=True the result differs from the same code under pmap "
            f"semantics (check_vma=False), max abs diff {diff:.4g}: the gradient of the "
            "replicated input is already reduced, and the explicit reduction scales it again",
            **evidence,
        )
    return not_reproduced(
        "the result equals the check_vma=False (pmap semantics) result", **evidence
    )


# `verify.compare` -> the check that compares the original with that reference instead of its fix
COMPARES: dict[str, Callable[[Side], Outcome]] = {
    "pmap": _pmap,
    "stale-globals": _stale_globals,
    "check-vma-off": _double_reduction,
}


def check(side: Side) -> Outcome:
    compare = COMPARES.get(side.verify.get("compare") or "")
    if compare is not None:
        return compare(side)
    if not side.job.get("fix"):
        raise CouldNotRun("no rewrite to compare with (the finding has no fix)")
    if side.fixed:  # the fixed code is the reference: it only has to run
        try:
            if side.mode == "module":
                module_values(side)
            else:
                side.entry().run()
        except CouldNotRun:
            raise
        except Exception as exc:
            info = describe_exception(exc, side.filename)
            return could_not_run(f"the fixed code fails: {info['exception']}: {info['message']}")
        return not_reproduced(
            "the fixed code runs (it is the reference the original is compared with)"
        )
    result = compare_sides(side, Side(side.job, fixed=True))
    evidence = {k: v for k, v in result.items() if k != "fixed_error"}
    if not result.get("compared"):
        return could_not_run(result.get("reason", "not compared"), **evidence)
    differ = bool(side.verify.get("changes_result"))
    if result["outputs_match"] != differ:
        what = "differs from" if differ else "matches"
        return confirmed(
            f"the original (run {result['original_ran']}) {what} the fixed code", **evidence
        )
    what = "matches" if differ else "differs from"
    return not_reproduced(
        f"the original (run {result['original_ran']}) {what} the fixed code", **evidence
    )
