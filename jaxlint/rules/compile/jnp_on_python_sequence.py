"""jnp-on-python-sequence (JAX408): a `jax.numpy` reduction or ufunc called on a
Python list or tuple, which jax.numpy rejects with a TypeError. The fix wraps the
sequence in `jnp.asarray(...)`.
"""

from __future__ import annotations

import ast

from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.compile._text import shorten

_UNARY = (
    "sum mean max min prod std var argmax argmin cumsum cumprod all any median nansum nanmean "
    "nanmax nanmin nanstd nanvar sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh "
    "arctanh exp exp2 expm1 log log2 log10 log1p sqrt cbrt abs absolute fabs round around sort "
    "argsort ravel transpose squeeze flip fliplr flipud unique diff clip nan_to_num isnan isinf "
    "isfinite sign signbit floor ceil trunc rint square negative reciprocal positive real imag "
    "conj conjugate angle logical_not count_nonzero ptp atleast_1d atleast_2d atleast_3d "
    "zeros_like ones_like empty_like full_like trace diag diagonal tril triu nonzero argwhere "
    "flatnonzero matrix_transpose reshape expand_dims pad tile repeat roll broadcast_to split "
    "array_split take sinc i0 deg2rad rad2deg degrees radians invert bitwise_not histogram "
    "bincount trapezoid"
).split()
_BINARY = (
    "add subtract multiply divide true_divide floor_divide power float_power maximum minimum "
    "fmax fmin mod remainder fmod hypot arctan2 copysign heaviside logaddexp logaddexp2 dot "
    "matmul vdot inner outer kron cross tensordot equal not_equal less less_equal greater "
    "greater_equal logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor "
    "left_shift right_shift gcd lcm ldexp allclose isclose convolve correlate searchsorted"
).split()
ARRAY_OPERANDS: dict[str, tuple[int, ...]] = {f"jax.numpy.{n}": (0,) for n in _UNARY}
ARRAY_OPERANDS.update({f"jax.numpy.{n}": (0, 1) for n in _BINARY})
ARRAY_OPERANDS.update(
    {
        "jax.numpy.where": (0, 1, 2),
        "jax.numpy.linalg.norm": (0,),
        "jax.numpy.linalg.inv": (0,),
        "jax.numpy.linalg.det": (0,),
        "jax.numpy.linalg.svd": (0,),
        "jax.numpy.linalg.eigh": (0,),
        "jax.numpy.linalg.solve": (0, 1),
        "jax.numpy.fft.fft": (0,),
        "jax.numpy.fft.ifft": (0,),
        "jax.numpy.fft.rfft": (0,),
    }
)


_CALLEES = frozenset(ARRAY_OPERANDS)


class JnpOnPythonSequence(Rule):
    """Flags `jax.numpy` reductions and ufuncs called on a Python list or tuple.

    What it does: finds `jnp.sum([...])`, `jnp.max((a, b))`, `jnp.mean([f(x) for x in xs])`,
    `jnp.where(c, [..], [..])` and the like: a list/tuple literal or list comprehension as
    an array operand of a `jnp` function that does not accept sequences. Constructors that
    do (`jnp.array`, `asarray`, `stack`, `concatenate`, ...) and shape/axis arguments are fine.
    Why is this bad: jax.numpy deliberately rejects lists (each element of a list passed to a
    traced function becomes a separate input): the call raises `TypeError: sum requires
    ndarray or scalar arguments, got <class 'list'> at position 0.`
    Example:
        total = jnp.sum([a, b, c])
    Use instead:
        total = jnp.sum(jnp.asarray([a, b, c]))      # or jnp.stack for device arrays
    Fix: wrap the sequence in `jnp.asarray(...)` (safe: the original always raises).
    """

    code = "JAX408"
    tier = 2
    name = "jnp-on-python-sequence"
    message = "`{fn}` does not accept a Python {kind}: it raises `TypeError: {short} requires ndarray or scalar arguments`; wrap it in `jnp.asarray(...)` (or use `jnp.stack`)"
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(expect=("requires ndarray or scalar arguments", "TypeError"))
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp

            def total(a, b, c):
                return jnp.sum([a, b, c])  # error: JAX408

            def spread(xs):
                return jnp.max(tuple(x.max() for x in xs)), jnp.std([x.mean() for x in xs])  # error: JAX408
            """,
            """
            import jax
            from jax import numpy as np

            @jax.jit
            def pick(c, x):
                return np.where(c, x, [0.0, 1.0])  # error: JAX408
            """,
        ),
        valid=(
            """
            import jax.numpy as jnp

            def build(a, b, x):
                s = jnp.array([a, b])
                t = jnp.stack([a, b]) + jnp.concatenate([a, b])
                u = jnp.sum(x, axis=(0, 1))
                v = jnp.transpose(x, (1, 0)).reshape(x, (2, -1))
                w = jnp.zeros((2, 3)) + jnp.tile(x, (2, 2))
                return jnp.sum(jnp.asarray([a, b]))
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp

                def total(a, b, c):
                    return jnp.sum([a, b, c]) + jnp.maximum((a, b), 0.0)
                """,
                """
                import jax.numpy as jnp

                def total(a, b, c):
                    return jnp.sum(jnp.asarray([a, b, c])) + jnp.maximum(jnp.asarray((a, b)), 0.0)
                """,
            ),
        ),
    )

    def callee_filter(self) -> frozenset[str]:
        return _CALLEES  # `visit_Call` returns at once for any other callee

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        positions = ARRAY_OPERANDS.get(q or "")
        if positions is None:
            return
        for i in positions:
            if i >= len(node.args):
                break
            arg = node.args[i]
            if isinstance(arg, ast.Starred):
                break
            if not isinstance(arg, (ast.List, ast.Tuple, ast.ListComp)):
                continue
            kind = "tuple" if isinstance(arg, ast.Tuple) else "list"
            fix = None
            try:
                jnp_name, edits = ensure_module(ctx, "jax.numpy")
                fix = self.fix(ctx.replace(arg, f"{jnp_name}.asarray({ctx.text(arg)})"), *edits)
            except LookupError:
                pass
            short = q.rsplit(".", 1)[-1]  # type: ignore[union-attr]
            self.report(arg, fn=shorten(ctx, node.func), kind=kind, short=short, fix=fix)
