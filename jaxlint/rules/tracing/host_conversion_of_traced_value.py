"""JAX101: NumPy calls, `float()`/`int()`/`bool()` and `.item()`/`.tolist()` on a traced value.

Inside `jit` the value is an abstract tracer with no data, so pulling it to the host raises
`TracerArrayConversionError` or `ConcretizationTypeError`; the table of NumPy names with a
same-named `jax.numpy` function is what makes the `np.X(t)` -> `jnp.X(t)` fix possible.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import Level
from jaxlint.analysis.jax_api import NUMPY_DISPATCHING
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule, Verify

# NumPy names with a same-named jax.numpy function: `np.X(t)` -> `jnp.X(t)` is safe
JNP_EQUIVALENT = frozenset(
    """abs absolute add arccos arccosh arcsin arcsinh arctan arctan2 arctanh argsort array
    asarray atleast_1d atleast_2d atleast_3d broadcast_to ceil clip concatenate conj conjugate
    cos cosh cross deg2rad degrees diag diagonal diff divide dot einsum equal exp exp2 expm1
    expand_dims flip floor floor_divide fmax fmin fmod full_like greater greater_equal heaviside
    hypot inner isclose isfinite isinf isnan kron ldexp less less_equal log log10 log1p log2
    logaddexp logical_and logical_not logical_or logical_xor matmul maximum median minimum mod
    moveaxis multiply nan_to_num nanmax nanmean nanmin nansum negative not_equal ones_like outer
    pad percentile power quantile rad2deg radians ravel reciprocal remainder repeat rint roll
    sign sin sinh sort split sqrt square stack subtract swapaxes take tan tanh tensordot tile
    trace tril triu true_divide trunc unique vstack hstack dstack column_stack where zeros_like
    empty_like linalg.norm linalg.inv linalg.det linalg.solve linalg.eigh linalg.svd
    linalg.cholesky linalg.qr cumsum histogram interp searchsorted count_nonzero argwhere nonzero
    flatnonzero bincount""".split()
)
CONVERTING_BUILTINS = {"float": "jit+grad", "complex": "jit+grad", "int": "jit", "bool": "jit"}
CONCRETE_METHODS = {"item", "tolist", "__array__", "tobytes"}


def _numpy_name(q: str | None) -> str | None:
    if q and q.startswith("numpy.") and not q.startswith(("numpy.random", "numpy.testing")):
        return q[len("numpy.") :]
    return None


def _traced_arg(ctx: Context, call: ast.Call) -> ast.AST | None:
    for a in [*call.args, *(kw.value for kw in call.keywords)]:
        if ctx.taint.is_traced(a):
            return a
        if ctx.taint.level(a) == Level.CONTAINER:
            return a
    return None


class HostConversionOfTracedValue(Rule):
    """Flags NumPy, `float()`, `int()`, `.item()` and `.tolist()` on traced values.

    What it does: finds conversions of a traced value to a host (NumPy or Python) value inside
    a function that JAX traces: `np.asarray(x)`, `np.sin(x)`, `float(x)`, `int(x)`, `x.item()`.
    Under bare `jax.grad` only `float()`, `complex()` and NumPy conversions are reported
    (the JVP tracer there is concrete, so `int()`/`.item()` work).
    Why is this bad: inside `jit` the value is an abstract tracer with no data yet. NumPy raises
    `TracerArrayConversionError`; `float()`/`int()`/`.item()` raise `ConcretizationTypeError`.
    NumPy functions that dispatch to the array's own method (`np.sum`, `np.mean`, ...) work and
    are not reported.
    Example:
        @jax.jit
        def f(x):
            return np.sin(x) * float(x.sum())
    Use instead:
        @jax.jit
        def f(x):
            return jnp.sin(x) * x.sum()
    Fix: `np.<ufunc/constructor>(x)` -> `jnp.<same>(x)` (safe when the result is only used as
    an array; unsafe when it may reach a shape, a Python conversion or unknown code);
    `float(x)` -> `x.astype(float)` is a display-only suggestion (the result stays an array,
    which changes what the code returns); `.item()`, `.tolist()`, `int()`, `bool()` have no fix.
    If a host value is truly needed, use `jax.pure_callback` or mark the argument static.
    """

    code = "JAX101"
    traced_evidence = True
    name = "host-conversion-of-traced-value"
    message = "{what} on a traced value fails under {transform} ({error}): {why}; {advice}"
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(
        expect=(
            "TracerArrayConversionError",
            "ConcretizationTypeError",
            "TracerIntegerConversionError",
            "TracerBoolConversionError",
            "NotImplementedError",
        )
    )
    templates = ("checkify", "mre")
    examples = Examples(
        invalid=(
            """
            import jax
            import numpy as np

            @jax.jit
            def f(x):
                y = np.asarray(x)  # error: JAX101
                return y
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def loss(params, batch):
                pred = batch @ params
                err = jnp.mean((pred - 1.0) ** 2)
                print_value = float(err)  # error: JAX101
                return err, err.item()  # error: JAX101
            """,
            """
            import jax
            import numpy as onp
            from functools import partial

            @partial(jax.jit, static_argnums=(1,))
            def f(x, n):
                h = x * n
                return onp.exp(h)  # error: JAX101
            """,
            """
            from jax import grad
            import numpy as np

            def loss(w):
                return float(w ** 2)  # error: JAX101

            g = grad(loss)
            """,
            """
            import jax
            from jax import lax

            def body(carry, x):
                return carry + int(x), None  # error: JAX101

            def run(xs):
                return lax.scan(body, 0, xs)
            """,
            """
            import jax
            import numpy as np

            def normalize(v):
                return v / np.linalg.norm(v)  # error: JAX101

            @jax.jit
            def step(x):
                return normalize(x)
            """,
        ),
        valid=(
            """
            import jax
            import numpy as np

            @jax.jit
            def f(x):
                return np.sum(x) + np.mean(x)
            """,
            """
            import jax.numpy as jnp

            def f(x):
                return float(x.sum())
            """,
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            TABLE = np.arange(4.0)

            @jax.jit
            def f(x):
                return x + np.sin(TABLE) + float(jnp.finfo(x.dtype).eps) + int(x.shape[0])
            """,
            """
            import jax

            def host_fn(a):
                return float(a.sum())

            @jax.jit
            def f(x):
                return jax.pure_callback(host_fn, jax.ShapeDtypeStruct((), x.dtype), x)
            """,
            """
            import jax

            def loss(w):
                return int(w) + w.item()

            g = jax.grad(loss)
            """,
        ),
        fixes=(
            (
                """
                import jax
                import numpy as np

                @jax.jit
                def f(x):
                    return np.sin(x)
                """,
                """
                import jax
                import jax.numpy as jnp
                import numpy as np

                @jax.jit
                def f(x):
                    return jnp.sin(x)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                import numpy as np

                @jax.jit
                def f(x):
                    window = tuple(np.asarray(x) // 2)  # a tuple: maybe a shape on purpose
                    return window
                """,
                """
                import jax
                import jax.numpy as jnp
                import numpy as np

                @jax.jit
                def f(x):
                    window = tuple(jnp.asarray(x) // 2)  # a tuple: maybe a shape on purpose
                    return window
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        fn = ctx.function
        if fn is None or not (fn.is_jit or fn.is_grad):
            return
        transform = ctx.transform_name() if fn.is_jit else "grad"
        q = ctx.qualname(node.func)
        np_name = _numpy_name(q)
        if np_name is not None:
            if np_name in NUMPY_DISPATCHING or np_name.split(".")[0] in ("dtypes", "ma"):
                return
            arg = _traced_arg(ctx, node)
            if arg is None:
                return
            fix = None
            if np_name in JNP_EQUIVALENT:
                try:
                    jnp, edits = ensure_module(ctx, "jax.numpy")
                    # safe only when the result is proven to be used as an array: where a
                    # concrete value is needed (a shape, a tuple, a Python branch) the NumPy
                    # value may be the point (`tuple(np.array(shape) // 2)`)
                    fix = self.fix(
                        ctx.replace(node.func, f"{jnp}.{np_name}"),
                        *edits,
                        safety="unsafe" if ctx.taint.may_need_concrete(node) else "safe",
                        message=f"Use `jnp.{np_name}`",
                    )
                except LookupError:
                    fix = None
            self.report(
                node,
                what=f"`{ctx.text(node.func)}`",
                transform=transform,
                error="TracerArrayConversionError",
                why=ctx.why_traced(arg),
                advice=f"use `jnp.{np_name}`"
                if np_name in JNP_EQUIVALENT
                else "use the `jax.numpy` equivalent",
                fix=fix,
            )
            return
        if q in CONVERTING_BUILTINS and len(node.args) == 1 and not node.keywords:
            if fn.is_grad and CONVERTING_BUILTINS[q] == "jit":
                return
            arg = node.args[0]
            if not ctx.taint.is_traced(arg):
                return
            fix = None
            if q == "float":
                inner = ctx.text(arg)
                if not isinstance(arg, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
                    inner = f"({inner})"
                # a suggestion only: the value stays an array, so what the function returns
                # (and any Python code that used the float) changes
                fix = self.suggest(
                    ctx.replace(node, f"{inner}.astype(float)"),
                    message="keep it an array: `.astype(float)`",
                )
            self.report(
                node,
                what=f"`{q}()`",
                transform=transform,
                error="ConcretizationTypeError",
                why=ctx.why_traced(arg),
                advice="keep it an array (`x.astype(...)`)" + ctx.static_advice(),
                fix=fix,
            )
            return
        func = node.func
        if (
            fn.is_jit
            and isinstance(func, ast.Attribute)
            and func.attr in CONCRETE_METHODS
            and not node.args
            and ctx.taint.is_traced(func.value)
        ):
            self.report(
                node,
                what=f"`.{func.attr}()`",
                transform=transform,
                error="ConcretizationTypeError",
                why=ctx.why_traced(func.value),
                advice="return the array and convert outside the traced function",
            )
