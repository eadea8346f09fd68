"""Verifier kind `gradnan`: the gradient of the flagged function is NaN where its value is not.

For JAX704 (`jnp.where(x > 0, jnp.sqrt(x), 0.)` under `jax.grad`): the forward value is right,
so `trace` and `numeric` see nothing; the sharp bit is in the backward pass, where the untaken
branch's infinite derivative times a zero cotangent is NaN. The check sums the function's
floating outputs into a scalar and takes `jax.value_and_grad` of it with respect to every
floating input, first at the job's inputs, then at probes that put the inputs on the points a
guard excludes (a tiled pattern of -2, -1, -0.5, 0, 0.5, 1 and 2; all zeros; all ones; all minus
ones). Confirmed when some probe gives a finite value and a NaN gradient; with the fix applied
(`check_fix`) the same probes must give finite gradients, which ties the NaN to the flagged
where rather than to anything else in the function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxlint.runtime.kit import CouldNotRun, Outcome, confirmed, not_reproduced, stopped
from jaxlint.runtime.side import Side

PATTERN = (-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0)


def _is_float(leaf: Any) -> bool:
    import numpy as np

    if isinstance(leaf, float):
        return True
    dtype = getattr(leaf, "dtype", None)
    return dtype is not None and np.issubdtype(dtype, np.floating)


def _float_positions(args: tuple[Any, ...]) -> list[int]:
    import jax

    return [
        i
        for i, a in enumerate(args)
        if (leaves := jax.tree.leaves(a)) and all(_is_float(x) for x in leaves)
    ]


def _probe(args: tuple[Any, ...], positions: list[int], fill: Callable[[Any], Any]) -> tuple:
    import jax

    return tuple(jax.tree.map(fill, a) if i in positions else a for i, a in enumerate(args))


def _fills() -> list[tuple[str, Callable[[Any], Any]]]:
    import numpy as np

    def tiled(leaf: Any) -> Any:
        arr = np.asarray(leaf)
        if arr.ndim == 0:
            return np.asarray(0.0, dtype=arr.dtype)
        return np.resize(np.asarray(PATTERN, dtype=arr.dtype), arr.shape)

    def const(value: float) -> Callable[[Any], Any]:
        def fill(leaf: Any) -> Any:
            arr = np.asarray(leaf)
            return np.full(arr.shape, value, dtype=arr.dtype)

        return fill

    return [
        ("inputs holding -2, -1, -0.5, 0, 0.5, 1 and 2", tiled),
        ("all-zero inputs", const(0.0)),
        ("all-one inputs", const(1.0)),
        ("all-minus-one inputs", const(-1.0)),
    ]


def check(side: Side) -> Outcome:
    import jax
    import jax.numpy as jnp
    import numpy as np

    entry = side.entry(shared=True)
    if entry.mode == "module":
        raise CouldNotRun("needs a function to differentiate (the flagged line is module code)")
    args = tuple(entry.args)
    positions = _float_positions(args)
    if not positions:
        raise CouldNotRun(f"{entry.describe()} has no floating-point input to differentiate")
    fn = entry.fn
    kwargs = entry.kwargs

    def scalar(*a: Any) -> Any:
        out = fn(*a, **kwargs)
        parts = [
            jnp.sum(x) for x in jax.tree.leaves(out) if _is_float(x) or _is_float(jnp.asarray(x))
        ]
        if not parts:
            raise CouldNotRun(f"{entry.describe()} returns no floating-point value")
        return sum(parts[1:], parts[0])

    grad = jax.value_and_grad(scalar, argnums=tuple(positions))
    tried: list[dict[str, Any]] = []
    for label, probe in [("the example inputs", args)] + [
        (name, _probe(args, positions, fill)) for name, fill in _fills()
    ]:
        try:
            value, grads = grad(*probe)
        except CouldNotRun:
            raise
        except Exception as exc:
            return stopped(side, exc, f"jax.value_and_grad of {entry.describe()}")
        finite = bool(np.all(np.isfinite(np.asarray(value))))
        leaves = [np.asarray(g) for g in jax.tree.leaves(grads)]
        nan = int(sum(int(np.isnan(g).sum()) for g in leaves))
        tried.append({"inputs": label, "value_finite": finite, "nan_gradient_entries": nan})
        if finite and nan:
            return confirmed(
                f"the gradient of {entry.describe().split(' via ')[0]} at {label}: the value "
                "is finite "
                f"({float(np.asarray(value)):.6g}) but {nan} gradient entr"
                f"{'y is' if nan == 1 else 'ies are'} NaN",
                ran=entry.describe(),
                differentiated=positions,
                tried=tried,
            )
    return not_reproduced(
        "the gradient is finite wherever the value is, at every probe",
        ran=entry.describe(),
        tried=tried,
    )
