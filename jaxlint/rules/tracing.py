"""JAX1xx: host conversions, Python control flow and shapes on traced values."""

from __future__ import annotations

import ast

from jaxlint.analysis import Level
from jaxlint.fixers.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule

# NumPy functions that dispatch to the array's own method and so work on tracers (facts §0.7)
NUMPY_DISPATCHING = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "amax",
        "amin",
        "prod",
        "std",
        "var",
        "argmax",
        "argmin",
        "cumsum",
        "cumprod",
        "reshape",
        "transpose",
        "squeeze",
        "round",
        "around",
        "any",
        "all",
        "shape",
        "ndim",
        "size",
        "dtype",
        "finfo",
        "iinfo",
        "issubdtype",
        "result_type",
        "promote_types",
        "can_cast",
        "isscalar",
        "iscomplexobj",
        "errstate",
        "broadcast_shapes",
    }
)
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
    Fix: `np.<ufunc/constructor>(x)` -> `jnp.<same>(x)` (safe); `float(x)` -> `x.astype(float)`
    (unsafe: the result stays an array); `.item()`, `.tolist()`, `int()`, `bool()` have no fix.
    If a host value is truly needed, use `jax.pure_callback` or mark the argument static.
    """

    code = "JAX101"
    name = "host-conversion-of-traced-value"
    message = "{what} on a traced value fails under {transform} ({error}): {why}; {advice}"
    fix_safety = "safe"
    verifier = "trace"
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
                import numpy as np
                import jax.numpy as jnp

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

                @jax.jit
                def f(x):
                    return float(x) * 2
                """,
                """
                import jax

                @jax.jit
                def f(x):
                    return x.astype(float) * 2
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        fn = ctx.function
        if fn is None or not (fn.is_jit or fn.is_grad):
            return
        transform = "jit" if fn.is_jit else "grad"
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
                    fix = self.fix(
                        ctx.replace(node.func, f"{jnp}.{np_name}"),
                        *edits,
                        safety="safe",
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
                fix = self.fix(
                    ctx.replace(node, f"{inner}.astype(float)"),
                    safety="unsafe",
                    message="Keep it an array: `.astype(float)`",
                )
            self.report(
                node,
                what=f"`{q}()`",
                transform=transform,
                error="ConcretizationTypeError",
                why=ctx.why_traced(arg),
                advice="keep it an array (`x.astype(...)`), or mark the argument static",
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


class PrintTracedValue(Rule):
    """Flags `print` of traced values inside traced functions.

    What it does: finds `print(...)` calls whose arguments (or f-string parts) are traced.
    Why is this bad: `print` runs once, at trace time, and shows `JitTracer(float32[3])` instead
    of the data; later calls of the compiled function print nothing.
    Example:
        @jax.jit
        def f(x):
            print("x =", x)
            return x * 2
    Use instead:
        @jax.jit
        def f(x):
            jax.debug.print("x = {}", x)
            return x * 2
    Fix: -> `jax.debug.print("...", ...)` (unsafe: it then prints on every call, from the
    device, possibly out of order). Printing static values (`x.shape`, `x.dtype`) is fine.
    """

    code = "JAX103"
    name = "print-traced-value"
    message = "`print` runs only at trace time and shows a tracer, not the value: {why}; use `jax.debug.print`"
    fix_safety = "unsafe"
    verifier = "execcount"
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax

            @jax.jit
            def f(x):
                print("x =", x)  # error: JAX103
                return x * 2
            """,
            """
            import jax
            from jax import lax

            def step(carry, x):
                total = carry + x
                print(f"total={total}")  # error: JAX103
                return total, total

            def run(xs):
                return lax.scan(step, 0.0, xs)
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def f(x):
                print("shape:", x.shape, f"{x.dtype}")
                jax.debug.print("x={}", x)
                return x
            """,
            """
            def f(x):
                print(x)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                @jax.jit
                def f(x):
                    print("x =", x, "shape", x.shape)
                    return x
                """,
                """
                import jax

                @jax.jit
                def f(x):
                    jax.debug.print("x = {} shape {}", x, x.shape)
                    return x
                """,
            ),
            (
                """
                import jax

                @jax.jit
                def f(x):
                    print(f"x={x:.3f}!")
                    return x
                """,
                """
                import jax

                @jax.jit
                def f(x):
                    jax.debug.print("x={:.3f}!", x)
                    return x
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit or ctx.qualname(node.func) != "print":
            return
        traced = [a for a in node.args if _contains_traced(ctx, a)]
        if not traced:
            return
        self.report(node, why=ctx.why_traced(traced[0]), fix=self._fix(node, ctx))

    def _fix(self, node: ast.Call, ctx: Context):  # noqa: ANN202
        sep = " "
        for kw in node.keywords:
            if (
                kw.arg == "sep"
                and isinstance(kw.value, ast.Constant)
                and isinstance(kw.value.value, str)
            ):
                sep = kw.value.value
            else:
                return None  # file=, end=, flush=: no faithful equivalent
        parts: list[str] = []
        values: list[str] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                return None
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                parts.append(_escape(a.value))
            elif isinstance(a, ast.JoinedStr):
                piece = ""
                for v in a.values:
                    if isinstance(v, ast.Constant):
                        piece += _escape(str(v.value))
                    elif isinstance(v, ast.FormattedValue):
                        conv = {-1: "", 115: "!s", 114: "!r", 97: "!a"}[v.conversion]
                        spec = ""
                        if v.format_spec is not None:
                            if not all(isinstance(s, ast.Constant) for s in v.format_spec.values):  # type: ignore[attr-defined]
                                return None
                            spec = ":" + "".join(str(s.value) for s in v.format_spec.values)  # type: ignore[attr-defined]
                        piece += "{" + conv + spec + "}"
                        values.append(ctx.text(v.value))
                parts.append(piece)
            else:
                parts.append("{}")
                values.append(ctx.text(a))
        fmt = sep.join(parts)
        try:
            jax_name, edits = ensure_module(ctx, "jax")
        except LookupError:
            return None
        args = ", ".join([repr(fmt).replace("'", '"') if '"' not in fmt else repr(fmt), *values])
        return self.fix(
            ctx.replace(node, f"{jax_name}.debug.print({args})"),
            *edits,
            message="Use `jax.debug.print`",
        )


def _escape(s: str) -> str:
    return s.replace("{", "{{").replace("}", "}}")


def _contains_traced(ctx: Context, node: ast.AST) -> bool:
    if ctx.taint.is_traced(node) or ctx.taint.level(node) == Level.CONTAINER:
        return True
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(v, ast.FormattedValue) and ctx.taint.is_traced(v.value) for v in node.values
        )
    return False


class PythonControlFlowOnTraced(Rule):
    """Flags Python `if`/`while`/`and`/`or`/`not`/ternaries on traced values.

    What it does: finds Python control flow whose condition is a traced array inside a
    jit-like function (jit, vmap, scan/fori_loop/while_loop bodies, cond branches,
    shard_map, ...), and builtin `min`/`max`/`sorted`/`any`/`all` on traced values.
    Why is this bad: the condition needs a concrete boolean while tracing, so JAX raises
    `TracerBoolConversionError` (or `ConcretizationTypeError`). Under bare `jax.grad` this
    works, so grad-only functions are not reported; shape/dtype checks (`x.shape[0] > 1`),
    `is None` and static arguments are fine.
    Example:
        @jax.jit
        def relu(x):
            if x > 0:
                return x
            return 0.0
    Use instead:
        @jax.jit
        def relu(x):
            return jnp.where(x > 0, x, 0.0)
    Or `lax.cond`/`lax.while_loop`, or `static_argnames` when the value is a configuration.
    Fix: value-position `a and b`/`a or b`/`not a` over comparisons -> `jnp.logical_and/or/not`
    (safe); conditions of `if`/`while` need a human.
    """

    code = "JAX110"
    name = "python-control-flow-on-traced"
    message = (
        "Python {construct} on a traced value raises TracerBoolConversionError under jit: {why}; "
        "use {advice}, or mark the argument static (`static_argnames`)"
    )
    fix_safety = "safe"
    verifier = "trace"
    templates = ("scan", "checkify")
    examples = Examples(
        invalid=(
            """
            import jax

            @jax.jit
            def f(x):
                if x > 0:  # error: JAX110
                    return x
                return -x
            """,
            """
            from jax import jit as J

            @J
            def f(x, n):
                while n > 0:  # error: JAX110
                    x = x * 2
                    n = n - 1
                return x
            """,
            """
            import jax
            import jax.numpy as jnp
            from functools import partial

            @partial(jax.jit, static_argnums=(0,))
            def f(mode, x):
                y = jnp.tanh(x)
                return y if y.sum() > 1 else -y  # error: JAX110
            """,
            """
            import jax

            jit = jax.jit

            def loss_fn(params, batch):
                err = (batch - params) ** 2
                if err.mean() > 10.0:  # error: JAX110
                    err = err / 10.0
                return err.mean()

            @jit
            def train_step(params, batch):
                return jax.grad(loss_fn)(params, batch)
            """,
            """
            import jax

            def clip(v):
                return max(v, 0.0)  # error: JAX110

            @jax.vmap
            def apply(x):
                return clip(x * 2)
            """,
            """
            import jax

            @jax.jit
            def f(x, y):
                both = x > 0 and y > 0  # error: JAX110
                return both
            """,
            """
            import jax

            @jax.jit(static_argnames="n")
            def f(x, k):
                if k:
                    pass
                if x.sum() != 0:  # error: JAX110
                    return x
                return x + 1
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def f(x, mask=None):
                if x.shape[0] > 1 and x.ndim == 1 and len(x) == 4 and x.dtype == 'float32':
                    x = x * 2
                if mask is not None:
                    x = x * mask
                if isinstance(x, jax.Array):
                    pass
                return x
            """,
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnames=("training",))
            def f(x, training):
                if training:
                    return x * 0.5
                return x
            """,
            """
            import jax

            def f(v):
                if v > 0:
                    return v
                return -v

            g = jax.grad(f)
            """,
            """
            import jax

            f = jax.vmap(lambda v, n: v * 2 if n > 2 else v, in_axes=(0, None))
            """,
            """
            import jax

            @jax.jit
            def f(params, x):
                if "bias" in params:
                    x = x + params["bias"]
                if params:
                    pass
                if jax.process_index() == 0:
                    pass
                for k, v in params.items():
                    if k == "w":
                        x = x @ v
                return x
            """,
            """
            import jax
            import equinox as eqx

            @eqx.filter_jit
            def f(x, n: int = 3):
                if n > 2:
                    return x * 2
                return x
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, y):
                    return x > 0 and y < 1
                """,
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, y):
                    return jnp.logical_and(x > 0, y < 1)
                """,
            ),
        ),
    )

    def _flag(self, test: ast.AST, ctx: Context, construct: str, advice: str) -> None:
        culprit = truth_culprit(test, ctx)
        if culprit is not None:
            self.report(test, construct=construct, why=ctx.why_traced(culprit), advice=advice)

    def visit_If(self, node: ast.If, ctx: Context) -> None:
        if ctx.in_jit:
            self._flag(node.test, ctx, "`if`", "`jnp.where` or `lax.cond`")

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        if ctx.in_jit:
            self._flag(node.test, ctx, "`while`", "`lax.while_loop` or `lax.fori_loop`")

    def visit_IfExp(self, node: ast.IfExp, ctx: Context) -> None:
        if ctx.in_jit:
            self._flag(node.test, ctx, "conditional expression", "`jnp.where(cond, a, b)`")

    def visit_comprehension(self, node: ast.comprehension, ctx: Context) -> None:
        if ctx.in_jit:
            for cond in node.ifs:
                self._flag(cond, ctx, "comprehension `if`", "`jnp.where` or a mask")

    def visit_BoolOp(self, node: ast.BoolOp, ctx: Context) -> None:
        if not ctx.in_jit or self._in_test(node, ctx):
            return
        # every operand but the last has its truth value taken
        for v in node.values[:-1]:
            culprit = truth_culprit(v, ctx)
            if culprit is not None:
                op = "and" if isinstance(node.op, ast.And) else "or"
                fix = None
                if all(isinstance(x, ast.Compare) for x in node.values):
                    fix = self._logical_fix(node, ctx, f"logical_{op}", node.values)
                self.report(
                    node,
                    construct=f"`{op}`",
                    why=ctx.why_traced(culprit),
                    advice=f"`jnp.logical_{op}` or `&`/`|`",
                    fix=fix,
                )
                return

    def visit_UnaryOp(self, node: ast.UnaryOp, ctx: Context) -> None:
        if not ctx.in_jit or not isinstance(node.op, ast.Not) or self._in_test(node, ctx):
            return
        culprit = truth_culprit(node.operand, ctx)
        if culprit is None:
            return
        fix = None
        if isinstance(node.operand, ast.Compare):
            fix = self._logical_fix(node, ctx, "logical_not", [node.operand])
        self.report(
            node,
            construct="`not`",
            why=ctx.why_traced(culprit),
            advice="`jnp.logical_not` or `~`",
            fix=fix,
        )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        q = ctx.qualname(node.func)
        if q in ("min", "max") and len(node.args) >= 2 and not node.keywords:
            for a in node.args:
                if ctx.taint.is_traced(a):
                    self.report(
                        node, construct=f"`{q}()`", why=ctx.why_traced(a), advice=f"`jnp.{q}imum`"
                    )
                    return
        elif q in ("min", "max", "any", "all", "sorted") and len(node.args) == 1:
            if ctx.taint.is_array(node.args[0]):
                alt = {
                    "min": "jnp.min",
                    "max": "jnp.max",
                    "any": "jnp.any",
                    "all": "jnp.all",
                    "sorted": "jnp.sort",
                }[q]
                self.report(
                    node, construct=f"`{q}()`", why=ctx.why_traced(node.args[0]), advice=f"`{alt}`"
                )

    @staticmethod
    def _in_test(node: ast.AST, ctx: Context) -> bool:
        """Part of an if/while/assert/ternary test: reported there, once."""
        child = node
        for anc in _ancestors(node):
            if isinstance(anc, (ast.If, ast.While, ast.IfExp)) and anc.test is child:
                return True
            if isinstance(anc, ast.Assert) and anc.test is child:
                return True
            if isinstance(anc, ast.comprehension) and child in anc.ifs:
                return True
            if not isinstance(anc, (ast.BoolOp, ast.UnaryOp)):
                return False
            child = anc
        return False

    def _logical_fix(self, node: ast.AST, ctx: Context, func: str, operands):  # noqa: ANN001, ANN202
        try:
            jnp, edits = ensure_module(ctx, "jax.numpy")
        except LookupError:
            return None
        inner = ", ".join(ctx.text(o) for o in operands)
        if func != "logical_not" and len(operands) > 2:
            text = ctx.text(operands[0])
            for o in operands[1:]:
                text = f"{jnp}.{func}({text}, {ctx.text(o)})"
            return self.fix(ctx.replace(node, text), *edits, safety="safe")
        return self.fix(
            ctx.replace(node, f"{jnp}.{func}({inner})"),
            *edits,
            safety="safe",
            message=f"Use `jnp.{func}`",
        )


def truth_culprit(test: ast.AST, ctx: Context) -> ast.AST | None:
    """The part of a condition whose truth value is demanded and is a traced array."""
    if isinstance(test, ast.BoolOp):
        for v in test.values:
            c = truth_culprit(v, ctx)
            if c is not None:
                return c
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return truth_culprit(test.operand, ctx)
    return test if ctx.taint.is_array(test) else None


def _ancestors(node: ast.AST):
    p = getattr(node, "jl_parent", None)
    while p is not None:
        yield p
        p = getattr(p, "jl_parent", None)


class AssertOnTraced(Rule):
    """Flags `assert` on traced values.

    What it does: finds `assert <condition>` where the condition is a traced array inside a
    jit-like function.
    Why is this bad: `assert` needs a concrete boolean while tracing and raises
    `TracerBoolConversionError`; asserting shapes (`x.shape == (3,)`) is fine.
    Example:
        @jax.jit
        def f(x):
            assert (x >= 0).all()
            return jnp.sqrt(x)
    Use instead:
        from jax.experimental import checkify

        def f(x):
            checkify.check((x >= 0).all(), "x must be non-negative")
            return jnp.sqrt(x)
        f = jax.jit(checkify.checkify(f))
    Or `eqx.error_if`. No automatic fix.
    """

    code = "JAX111"
    name = "assert-on-traced"
    message = (
        "`assert` on a traced value raises TracerBoolConversionError under jit: {why}; "
        "use `checkify.check` (with `checkify.checkify`) or `eqx.error_if`"
    )
    verifier = "trace"
    templates = ("checkify",)
    examples = Examples(
        invalid=(
            """
            import jax

            @jax.jit
            def f(x):
                assert (x >= 0).all(), "negative"  # error: JAX111
                return x
            """,
            """
            import jax
            from jax import lax

            def body(i, acc):
                assert acc < 100  # error: JAX111
                return acc + i

            def total(n):
                return lax.fori_loop(0, n, body, 0)
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def f(x):
                assert x.shape == (3,), x.shape
                assert x.ndim == 1
                return x
            """,
        ),
    )

    def visit_Assert(self, node: ast.Assert, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        culprit = truth_culprit(node.test, ctx)
        if culprit is not None:
            self.report(node, why=ctx.why_traced(culprit))


SHAPE_FUNCS = {
    # qualname: positions (ints) and keywords that take a shape or size
    "jax.numpy.zeros": (0, "shape"),
    "jax.numpy.ones": (0, "shape"),
    "jax.numpy.empty": (0, "shape"),
    "jax.numpy.full": (0, "shape"),
    "jax.numpy.eye": (0, 1, "N", "M"),
    "jax.numpy.identity": (0, "n"),
    "jax.numpy.tri": (0, 1, "N", "M"),
    "jax.numpy.arange": (0, 1, 2, "start", "stop", "step"),
    "jax.numpy.linspace": (2, "num"),
    "jax.numpy.logspace": (2, "num"),
    "jax.numpy.tile": (1, "reps"),
    "jax.numpy.reshape": (1, "shape", "newshape"),
    "jax.numpy.broadcast_to": (1, "shape"),
    "jax.numpy.resize": (1, "new_shape"),
    "range": (0, 1, 2),
}
RANDOM_SHAPE_POS = {
    "normal": 1,
    "uniform": 1,
    "randint": 1,
    "gumbel": 1,
    "laplace": 1,
    "logistic": 1,
    "exponential": 1,
    "cauchy": 1,
    "rademacher": 1,
    "bits": 1,
    "truncated_normal": 3,
    "bernoulli": 2,
}


class TracedValueAsShapeOrIndex(Rule):
    """Flags traced values used as shapes, sizes, `range` bounds or slice bounds.

    What it does: finds a traced value passed where JAX needs a concrete integer: `range(n)`,
    `jnp.zeros(n)`, `jnp.arange(n)`, `x.reshape(n, -1)`, `jax.random.normal(key, (n,))`,
    slices `x[i:j]`.
    Why is this bad: array shapes must be known at trace time; a traced size raises
    `ConcretizationTypeError` (or `TypeError: Shapes must be 1D sequences of concrete values`,
    `IndexError: Array slice indices must have static start/stop/step`). Sizes computed from
    `x.shape`, `len(x)` and static arguments are fine.
    Example:
        @jax.jit
        def f(x, n):
            return jnp.zeros(n) + x[:n].sum()
    Use instead:
        @functools.partial(jax.jit, static_argnames="n")
        def f(x, n):
            return jnp.zeros(n) + x[:n].sum()
    Or keep `n` dynamic with `lax.fori_loop`, `lax.dynamic_slice` or masking
    (`jnp.where(jnp.arange(x.shape[0]) < n, x, 0)`). No automatic fix.
    """

    code = "JAX120"
    name = "traced-value-as-shape-or-index"
    message = "{what} needs a concrete value but gets a traced one: {why}; {advice}"
    verifier = "trace"
    templates = ("scan",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, n):
                return jnp.zeros(n) + x  # error: JAX120
            """,
            """
            import jax

            @jax.jit
            def f(x, n):
                total = 0.0
                for i in range(n):  # error: JAX120
                    total = total + x[i]
                return total
            """,
            """
            import jax

            @jax.jit
            def f(x, i):
                return x[i:i + 3]  # error: JAX120
            """,
            """
            import jax
            import jax.numpy as jnp

            def window(x, k):
                return x.reshape(k, -1)  # error: JAX120

            @jax.jit
            def f(x, k):
                return window(x, k)
            """,
            """
            import jax

            @jax.jit
            def sample(key, n):
                return jax.random.normal(key, (n, 3))  # error: JAX120
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            from functools import partial

            @partial(jax.jit, static_argnums=(1,))
            def f(x, n):
                return jnp.zeros(n) + x[:n].sum() + jnp.arange(x.size).sum()
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, i):
                y = jnp.zeros(x.shape[0]) + x[: len(x) // 2].sum()
                return y + x[i] + x.reshape(x.shape[0] // 2, -1).sum()
            """,
            """
            import jax
            from jax import lax

            @jax.jit
            def f(x, n):
                return lax.fori_loop(0, n, lambda i, acc: acc + x[i], 0.0)
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        q = ctx.qualname(node.func)
        spec: tuple = ()
        if q in SHAPE_FUNCS:
            spec = SHAPE_FUNCS[q]
        elif q and q.startswith("jax.random.") and q.rsplit(".", 1)[1] in RANDOM_SHAPE_POS:
            spec = (RANDOM_SHAPE_POS[q.rsplit(".", 1)[1]], "shape")
        elif (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in ("reshape", "broadcast_to")
            and q is None
        ):
            if (
                ctx.taint.is_traced(node.func.value)
                or ctx.taint.level(node.func.value) == Level.NONE
            ):
                spec = tuple(range(len(node.args))) + ("shape",)
        if not spec:
            return
        for i, a in enumerate(node.args):
            if i in spec and self._bad(a, ctx):
                self._report(node, a, q or ctx.text(node.func), ctx)
                return
        for kw in node.keywords:
            if kw.arg in spec and self._bad(kw.value, ctx):
                self._report(node, kw.value, q or ctx.text(node.func), ctx)
                return

    @staticmethod
    def _bad(arg: ast.AST, ctx: Context) -> bool:
        if isinstance(arg, (ast.Tuple, ast.List)):
            return any(ctx.taint.is_traced(e) for e in arg.elts)
        return ctx.taint.is_traced(arg)

    def _report(self, call: ast.Call, arg: ast.AST, name: str, ctx: Context) -> None:
        short = name.replace("jax.numpy.", "jnp.").replace("jax.random.", "jax.random.")
        advice = (
            "use `lax.fori_loop` (bounds may be traced) or mark the argument static"
            if name == "range"
            else "mark the argument static (`static_argnames`) or pad to a fixed size and mask"
        )
        self.report(arg, what=f"`{short}`", why=ctx.why_traced(arg), advice=advice)

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        slices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for s in slices:
            if isinstance(s, ast.Slice):
                for part in (s.lower, s.upper, s.step):
                    if part is not None and ctx.taint.is_traced(part):
                        self.report(
                            part,
                            what="a slice bound",
                            why=ctx.why_traced(part),
                            advice="use `lax.dynamic_slice(x, (start,), (size,))` with a static size, or mark it static",
                        )
                        return
