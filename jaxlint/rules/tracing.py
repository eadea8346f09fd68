"""JAX1xx: host conversions, Python control flow and shapes on traced values."""

from __future__ import annotations

import ast

from jaxlint.analysis import Level
from jaxlint.analysis.taint import NUMPY_DISPATCHING
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule

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
                import numpy as np

                @jax.jit
                def f(x):
                    window = tuple(np.asarray(x) // 2)  # a tuple: maybe a shape on purpose
                    return window
                """,
                """
                import jax
                import numpy as np
                import jax.numpy as jnp

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
    traced_evidence = True
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
    traced_evidence = True
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

            @jax.jit(static_argnames="k")
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
    traced_evidence = True
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
    traced_evidence = True
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


def _paren(ctx: Context, node: ast.AST) -> str:
    """The source of `node`, parenthesized unless it is atomic."""
    text = ctx.text(node)
    atomic = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Dict)
    if isinstance(node, atomic) or (isinstance(node, ast.Tuple) and text.startswith("(")):
        return text
    return f"({text})"


class DeviceGetInTraced(Rule):
    """Flags `jax.device_get` on a traced value inside a traced function.

    What it does: finds `jax.device_get(x)` where `x` is traced, inside a function that JAX
    traces (jit, vmap, scan/fori_loop bodies, helpers called from them, ...).
    Why is this bad: under tracing there is no data on any device yet. `jax.device_get`
    returns the tracer unchanged (a silent no-op): nothing is copied to the host, and code that
    expects a NumPy array after it gets a tracer and fails later (or is just misleading).
    Example:
        @jax.jit
        def step(x):
            loss = jnp.mean(x ** 2)
            return jax.device_get(loss)
    Use instead:
        @jax.jit
        def step(x):
            return jnp.mean(x ** 2)

        loss = jax.device_get(step(x))  # outside the traced function
    Fix: delete the call and keep its argument (safe: inside traced code it is the identity).
    """

    code = "JAX102"
    traced_evidence = True
    name = "device-get-in-traced"
    message = (
        "`jax.device_get` inside a traced function is a no-op that returns the tracer: {why}; "
        "delete the call here and call `jax.device_get` on the result outside the traced function"
    )
    fix_safety = "safe"
    verifier = "trace"
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def train_step(params, batch):
                loss = jnp.mean((batch @ params) ** 2)
                return jax.device_get(loss)  # error: JAX102
            """,
            """
            from jax import device_get, lax

            def body(carry, x):
                carry = carry + device_get(x)  # error: JAX102
                return carry, carry

            def run(xs):
                return lax.scan(body, 0.0, xs)
            """,
            """
            import jax

            def to_host(tree):
                return jax.device_get(tree)  # error: JAX102

            @jax.vmap
            def per_example(x):
                return to_host({"y": x * 2})
            """,
            """
            import jax
            from functools import partial

            jit = jax.jit

            class Trainer:
                @partial(jit, static_argnums=(0, 1))  # meant `cfg`, but index 1 is `batch`
                def step(self, batch, cfg, scale):
                    host_scale = jax.device_get(cfg["scale"])  # error: JAX102
                    return batch * host_scale * scale
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def step(x):
                return x * 2

            def train(x):
                return jax.device_get(step(x))
            """,
            """
            import jax
            import numpy as np

            def host_fn(a):
                return np.asarray(jax.device_get(a)) + 1

            @jax.jit
            def f(x):
                return jax.pure_callback(host_fn, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
            """,
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=(1,))
            def f(x, cfg):
                table = jax.device_get(cfg)
                return x * len(table)
            """,
        ),
        fixes=(
            (
                """
                import jax

                @jax.jit
                def f(x, y):
                    z = jax.device_get(x + y) * 2
                    return jax.device_get(z)
                """,
                """
                import jax

                @jax.jit
                def f(x, y):
                    z = (x + y) * 2
                    return z
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit or ctx.qualname(node.func) != "jax.device_get":
            return
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            return
        arg = node.args[0]
        if not (ctx.taint.is_traced(arg) or ctx.taint.level(arg) == Level.CONTAINER):
            return
        parent = getattr(node, "jl_parent", None)
        bare = isinstance(parent, (ast.Assign, ast.Return, ast.Expr, ast.keyword, ast.Call))
        replacement = ctx.text(arg) if bare and not isinstance(arg, ast.Tuple) else _paren(ctx, arg)
        fix = self.fix(ctx.replace(node, replacement), message="Delete the `jax.device_get` call")
        self.report(node, why=ctx.why_traced(arg), fix=fix)


# data-dependent output shapes: function -> the positional index of the array argument
DATA_DEPENDENT_SHAPE = {
    "nonzero": 0,
    "argwhere": 0,
    "flatnonzero": 0,
    "unique": 0,
    "unique_values": 0,
    "unique_counts": 0,
    "unique_inverse": 0,
    "unique_all": 0,
    "extract": 0,
    "compress": 0,
    "setdiff1d": 0,
    "union1d": 0,
    "intersect1d": 0,
    "where": 0,
}
INDEX_RESULTS = {"nonzero", "argwhere", "flatnonzero", "where"}
UNIQUE_RESULTS = {"unique", "unique_values", "unique_counts", "unique_inverse", "unique_all"}
ELEMENTWISE_PREDICATES = {"isnan", "isinf", "isfinite", "logical_not", "abs", "signbit"}


def _size_source(ctx: Context, arg: ast.AST) -> str | None:
    """An expression whose `.size` bounds the number of results (None: no sound choice)."""
    if isinstance(arg, (ast.Name, ast.Attribute)):
        return ctx.text(arg)
    if isinstance(arg, ast.Compare) and len(arg.ops) == 1:
        left, right = arg.left, arg.comparators[0]
        for array, other in ((left, right), (right, left)):
            if isinstance(array, (ast.Name, ast.Attribute)) and _scalar_literal(other):
                return ctx.text(array)
    if isinstance(arg, ast.Call) and len(arg.args) == 1 and not arg.keywords:
        q = ctx.qualname(arg.func) or ""
        if q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in ELEMENTWISE_PREDICATES:
            inner = arg.args[0]
            if isinstance(inner, (ast.Name, ast.Attribute)):
                return ctx.text(inner)
    return None


def _scalar_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


class DataDependentShapeWithoutSize(Rule):
    """Flags `jnp.nonzero`/`argwhere`/`unique`/one-argument `jnp.where` without `size=` in
    traced code.

    What it does: finds calls whose output shape depends on the data (`jnp.nonzero`,
    `jnp.argwhere`, `jnp.flatnonzero`, `jnp.where(cond)` with one argument, `jnp.unique` and
    the `unique_*` family, `jnp.extract`, `jnp.compress`, `jnp.setdiff1d`/`union1d`/
    `intersect1d`, `x.nonzero()`) on a traced value, without a static `size=`.
    Why is this bad: XLA needs every shape at trace time. With a traced input these raise
    `ConcretizationTypeError` ("The size argument of jnp.nonzero must be statically
    specified"). With `size=N` the result has a fixed length, padded with `fill_value`.
    Example:
        @jax.jit
        def positives(x):
            return jnp.nonzero(x > 0)
    Use instead:
        @jax.jit
        def positives(x):
            return jnp.nonzero(x > 0, size=x.size, fill_value=-1)
    Fix: add `size=<input>.size` (the largest possible count) and, for the index functions,
    `fill_value=-1` (unsafe: the result is now padded and code reading it must ignore the
    padding; `unique` pads with its smallest value). No fix when no sound size is visible.
    """

    code = "JAX121"
    traced_evidence = True
    name = "data-dependent-shape-without-size"
    message = (
        "`{func}` has a data-dependent output shape and raises ConcretizationTypeError under "
        "jit: {why}; pass a static `size=` (and `fill_value=`) so the result has a fixed length"
    )
    fix_safety = "unsafe"
    verifier = "trace"
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def positives(x):
                return jnp.nonzero(x > 0)  # error: JAX121
            """,
            """
            import jax
            import jax.numpy as np

            def loss_fn(params, labels):
                classes = np.unique(labels)  # error: JAX121
                return params.sum() / classes.shape[0]

            @jax.jit
            def train_step(params, labels):
                return jax.grad(loss_fn)(params, labels)
            """,
            """
            import jax
            import jax.numpy as jnp
            from jax import lax

            def body(carry, row):
                idx = jnp.where(row > carry)  # error: JAX121
                return carry, idx[0].sum()

            def run(xs):
                return lax.scan(body, 0.0, xs)
            """,
            """
            from jax import jit
            import jax.numpy as jnp

            @jit
            def active(mask):
                hits = mask.nonzero()  # error: JAX121
                return jnp.argwhere(mask)  # error: JAX121
            """,
            """
            import jax
            import jax.numpy as np
            from functools import partial

            class Selector:
                def __init__(self, threshold):
                    self.threshold = threshold

                @partial(jax.jit, static_argnums=0)
                def select(self, scores):
                    keep = scores > self.threshold
                    return np.flatnonzero(keep)  # error: JAX121
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                a = jnp.nonzero(x > 1, size=4, fill_value=-1)
                b = jnp.where(x > 1, x, 0.0)
                c = jnp.unique(x, size=x.size)
                return a, b, c
            """,
            """
            import jax.numpy as jnp
            import numpy as np

            LABELS = np.array([0, 1, 1, 2])

            def eager(x):
                return jnp.nonzero(x)

            def f(x):
                return jnp.unique(LABELS)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, labels):
                    idx = jnp.nonzero(x > 0)
                    return idx, jnp.unique(labels)
                """,
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, labels):
                    idx = jnp.nonzero(x > 0, size=x.size, fill_value=-1)
                    return idx, jnp.unique(labels, size=labels.size)
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit or any(kw.arg == "size" for kw in node.keywords):
            return
        if any(kw.arg is None for kw in node.keywords) or any(
            isinstance(a, ast.Starred) for a in node.args
        ):
            return
        raw = ctx.qualname(node.func)
        q = raw or ""
        func = None
        if q.startswith("jax.numpy."):
            func = q[len("jax.numpy.") :]
            if func not in DATA_DEPENDENT_SHAPE or not node.args:
                return
            if func == "where" and (len(node.args) != 1 or node.keywords):
                return
            if func == "unique" and any(kw.arg == "axis" for kw in node.keywords):
                return
            arg = node.args[0]
            shown = f"jnp.{func}"
        elif (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "nonzero"
            and raw is None
            and not node.args
            and ctx.taint.is_traced(node.func.value)
        ):
            func, arg, shown = "nonzero", node.func.value, ".nonzero()"
        else:
            return
        if not ctx.taint.is_traced(arg):
            return
        self.report(node, func=shown, why=ctx.why_traced(arg), fix=self._fix(node, func, arg, ctx))

    def _fix(self, node: ast.Call, func: str, arg: ast.AST, ctx: Context):  # noqa: ANN202
        if func not in INDEX_RESULTS and func not in UNIQUE_RESULTS:
            return None
        if any(kw.arg == "fill_value" for kw in node.keywords):
            return None
        source = _size_source(ctx, arg)
        if source is None:
            return None
        extra = f"size={source}.size"
        if func in INDEX_RESULTS:
            extra += ", fill_value=-1"
        end = ctx.end(node)
        close = type(end)(end.line, end.col - 1)  # before the closing parenthesis
        sep = ", " if (node.args or node.keywords) else ""
        return self.fix(
            ctx.insert(close, f"{sep}{extra}"),
            message=f"Add `{extra}` (the result is padded)",
        )


# reductions that take `where=` and give the same result as reducing the selected elements
WHERE_REDUCTIONS = {"sum", "mean", "prod", "std", "var", "any", "all", "nansum", "nanmean"}
AT_UPDATES = {"set": "{v}", "add": "{x} + {v}", "multiply": "{x} * {v}", "mul": "{x} * {v}"}


class BooleanMaskIndexingInTraced(Rule):
    """Flags boolean-mask indexing with a traced mask (`x[x > 0]`, `x.at[m].set(v)`).

    What it does: finds subscripts of a traced array whose index is a traced boolean mask: a
    comparison, `jnp.isnan(...)`/`jnp.logical_*(...)`, `&`/`|`/`~` of masks, or a variable
    holding one; also inside `x.at[...]` and index tuples (`x[:, m]`).
    Why is this bad: the result's length is the number of `True` entries, which is data, so
    under jit (and bare vmap) JAX raises `NonConcreteBooleanIndexError: Array boolean indices
    must be concrete`. A constant NumPy mask is fine.
    Example:
        @jax.jit
        def f(x):
            pos_mean = x[x > 0].mean()
            x = x.at[x < 0].set(0.0)
            return pos_mean, x
    Use instead:
        @jax.jit
        def f(x):
            pos_mean = jnp.mean(x, where=x > 0)
            x = jnp.where(x < 0, 0.0, x)
            return pos_mean, x
    Fix (safe): `jnp.sum/mean/prod/std/var/any/all(x[m])` and `x[m].sum()` ... ->
    `jnp.sum(x, where=m)` when the mask is computed elementwise from `x` (same shape);
    `x.at[m].set(c)` / `.add(c)` / `.multiply(c)` with a constant `c` -> `jnp.where(m, ..., x)`.
    No fix for a bare `x[m]`: use `jnp.where(m, x, fill)` or
    `x[jnp.nonzero(m, size=K, fill_value=...)]` (padded), which change the result's shape.
    """

    code = "JAX130"
    traced_evidence = True
    name = "boolean-mask-indexing-in-traced"
    message = (
        "boolean-mask indexing has a data-dependent shape and raises "
        "NonConcreteBooleanIndexError under jit: {why}; {advice}"
    )
    fix_safety = "safe"
    verifier = "trace"
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                pos_mean = jnp.mean(x[x > 0])  # error: JAX130
                return pos_mean
            """,
            """
            import jax
            import jax.numpy as jnp

            def masked_loss(pred, target):
                valid = ~jnp.isnan(target)
                err = (pred - target) ** 2
                return err[valid].mean()  # error: JAX130

            @jax.jit
            def train_step(params, x, target):
                return jax.grad(lambda p: masked_loss(x @ p, target))(params)
            """,
            """
            from jax import jit
            import jax.numpy as jnp

            @jit
            def clip_negative(x):
                return x.at[x < 0].set(0.0)  # error: JAX130
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.vmap
            def select(row, threshold):
                keep = (row > threshold) & (row < 10.0)
                return row[keep]  # error: JAX130
            """,
            """
            import jax
            import jax.numpy as jnp

            jit = jax.jit

            def finite(y):
                return jnp.isfinite(y) & (y != 0)

            @jit
            def mean_valid(y):
                ok = finite(y)
                return y[ok].mean()  # error: JAX130
            """,
            """
            import jax
            import flax.linen as nn

            class Head(nn.Module):
                @nn.compact
                def __call__(self, x, labels):
                    logits = nn.Dense(10)(x)
                    return logits[labels >= 0, :].sum()  # error: JAX130
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            MASK = np.array([True, False, True, False])

            @jax.jit
            def f(x, i):
                a = x[MASK]
                b = jnp.where(x > 0, x, 0.0)
                c = jnp.mean(x, where=x > 0)
                d = x[i] + x[jnp.argmax(x)]
                return a, b, c, d
            """,
            """
            import jax.numpy as jnp

            def eager(x):
                return x[x > 0].sum()

            def grad_only(x):
                return x[x > 0].sum()
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x):
                    a = jnp.sum(x[x > 0])
                    b = x[jnp.isfinite(x)].mean()
                    return a, b, x.at[x < 0].set(0.0)
                """,
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x):
                    a = jnp.sum(x, where=x > 0)
                    b = jnp.mean(x, where=jnp.isfinite(x))
                    return a, b, jnp.where(x < 0, 0.0, x)
                """,
            ),
        ),
    )

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.in_jit or not isinstance(node.ctx, ast.Load):
            return
        base = node.value
        is_at = isinstance(base, ast.Attribute) and base.attr == "at"
        array = base.value if is_at else base  # type: ignore[union-attr]
        if not ctx.taint.is_traced(array):
            return
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        mask = next((p for p in parts if ctx.taint.is_bool_mask(p)), None)
        if mask is None:
            return
        fix, advice = (
            None,
            (
                "use `jnp.where(mask, x, fill)` (same shape) or "
                "`x[jnp.nonzero(mask, size=K, fill_value=...)]` (padded to a static size)"
            ),
        )
        simple = len(parts) == 1 and isinstance(array, (ast.Name, ast.Attribute))
        if is_at:
            advice = "use `jnp.where(mask, new_values, x)`"
            if simple:
                fix = self._at_fix(node, array, mask, ctx)
        else:
            reduction = self._reduction(node, ctx)
            if reduction is not None:
                advice = f"use `jnp.{reduction[1]}(x, where=mask)`"
                if simple and self._elementwise_over(mask, ctx.text(array), ctx):
                    fix = self._reduction_fix(node, array, mask, reduction, ctx)
        self.report(node, why=ctx.why_traced(mask), advice=advice, fix=fix)

    @staticmethod
    def _reduction(node: ast.Subscript, ctx: Context) -> tuple[ast.Call, str, bool] | None:
        """(call, name, method form) when `node` is reduced by a `where=`-capable reduction."""
        parent = getattr(node, "jl_parent", None)
        if (
            isinstance(parent, ast.Call)
            and parent.args == [node]
            and not parent.keywords
            and (ctx.qualname(parent.func) or "").startswith("jax.numpy.")
        ):
            name = (ctx.qualname(parent.func) or "").rsplit(".", 1)[1]
            if name in WHERE_REDUCTIONS:
                return parent, name, False
        if (
            isinstance(parent, ast.Attribute)
            and parent.value is node
            and parent.attr in WHERE_REDUCTIONS
        ):
            call = getattr(parent, "jl_parent", None)
            if isinstance(call, ast.Call) and call.func is parent and not call.args:
                if not call.keywords:
                    return call, parent.attr, True
        return None

    def _elementwise_over(self, mask: ast.AST, base: str, ctx: Context, depth: int = 0) -> bool:
        """The mask has the shape of `base`: built elementwise from it and scalars only."""
        if depth > 6:
            return False
        if isinstance(mask, ast.Compare):
            operands = [mask.left, *mask.comparators]
            return any(ctx.text(o) == base for o in operands) and all(
                ctx.text(o) == base or _scalar_literal(o) for o in operands
            )
        if isinstance(mask, ast.Call):
            q = ctx.qualname(mask.func) or ""
            return (
                q.startswith("jax.numpy.")
                and q.rsplit(".", 1)[1] in ELEMENTWISE_PREDICATES | {"isneginf", "isposinf"}
                and len(mask.args) == 1
                and not mask.keywords
                and ctx.text(mask.args[0]) == base
            )
        if isinstance(mask, ast.BinOp) and isinstance(mask.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._elementwise_over(mask.left, base, ctx, depth + 1) and (
                self._elementwise_over(mask.right, base, ctx, depth + 1)
            )
        if isinstance(mask, ast.UnaryOp) and isinstance(mask.op, ast.Invert):
            return self._elementwise_over(mask.operand, base, ctx, depth + 1)
        return False

    def _reduction_fix(self, node, array, mask, reduction, ctx: Context):  # noqa: ANN001, ANN202
        call, name, method = reduction
        if method:
            try:
                jnp, edits = ensure_module(ctx, "jax.numpy")
            except LookupError:
                return None
            text = f"{jnp}.{name}({ctx.text(array)}, where={ctx.text(mask)})"
            return self.fix(
                ctx.replace(call, text), *edits, message=f"Use `jnp.{name}(x, where=m)`"
            )
        text = f"{ctx.text(array)}, where={ctx.text(mask)}"
        return self.fix(ctx.replace(node, text), message=f"Use `jnp.{name}(x, where=m)`")

    def _at_fix(self, node, array, mask, ctx: Context):  # noqa: ANN001, ANN202
        method = getattr(node, "jl_parent", None)
        call = getattr(method, "jl_parent", None)
        if not (
            isinstance(method, ast.Attribute)
            and method.value is node
            and method.attr in AT_UPDATES
            and isinstance(call, ast.Call)
            and call.func is method
            and len(call.args) == 1
            and not call.keywords
            and (_scalar_literal(call.args[0]) or self._float_constant(call.args[0], ctx))
        ):
            return None
        try:
            jnp, edits = ensure_module(ctx, "jax.numpy")
        except LookupError:
            return None
        x = ctx.text(array)
        new = AT_UPDATES[method.attr].format(x=x, v=ctx.text(call.args[0]))
        text = f"{jnp}.where({ctx.text(mask)}, {new}, {x})"
        return self.fix(ctx.replace(call, text), *edits, message="Use `jnp.where`")

    @staticmethod
    def _float_constant(node: ast.AST, ctx: Context) -> bool:
        if isinstance(node, ast.UnaryOp):
            node = node.operand
        return ctx.qualname(node) in ("jax.numpy.inf", "jax.numpy.nan", "numpy.inf", "numpy.nan")
