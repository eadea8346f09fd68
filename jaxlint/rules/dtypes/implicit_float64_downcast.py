"""implicit-float64-downcast (JAX702, opt-in): NumPy data that is float64 by default
handed to JAX (a conversion or a jitted call) without 64-bit mode, which becomes
float32 with no warning at all.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.jit_sites import jitted_callee
from jaxlint.analysis.values import assigned_value
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.dtypes._x64 import x64_evidence

FLOAT64_BY_DEFAULT = frozenset(
    {
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.eye",
        "numpy.identity",
        "numpy.linspace",
        "numpy.logspace",
        "numpy.random.rand",
        "numpy.random.randn",
        "numpy.random.random",
        "numpy.random.random_sample",
        "numpy.random.normal",
        "numpy.random.uniform",
        "numpy.random.standard_normal",
    }
)
GENERATOR_FLOAT_METHODS = frozenset({"normal", "uniform", "random", "standard_normal"})
CONVERSIONS = frozenset({"jax.numpy.asarray", "jax.numpy.array", "jax.device_put"})


def _has_float_literal(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(node))


def _dtype_given(call: ast.Call, position: int | None) -> bool:
    if any(kw.arg == "dtype" or kw.arg is None for kw in call.keywords):
        return True
    return position is not None and len(call.args) > position


def numpy_float64(ctx: Context, node: ast.AST, depth: int = 0) -> str | None:
    """A description when `node` is NumPy data whose dtype is float64 by default."""
    if depth > 3:
        return None
    if isinstance(node, ast.Call):
        q = ctx.qualname(node.func)
        if q in FLOAT64_BY_DEFAULT:
            position = {"numpy.zeros": 1, "numpy.ones": 1, "numpy.empty": 1, "numpy.identity": 1}
            if not _dtype_given(node, position.get(q)):  # type: ignore[arg-type]
                return f"`{ctx.text(node.func)}(...)` (float64)"
            return None
        if q in ("numpy.array", "numpy.asarray") and node.args:
            if not _dtype_given(node, 1) and _has_float_literal(node.args[0]):
                return f"`{ctx.text(node.func)}` of Python floats (float64)"
            return None
        if q == "numpy.full" and len(node.args) >= 2:
            if not _dtype_given(node, 2) and _has_float_literal(node.args[1]):
                return f"`{ctx.text(node.func)}(..., <float>)` (float64)"
            return None
        if q == "numpy.arange" and not _dtype_given(node, 3) and _has_float_literal(node):
            return "`np.arange` with float bounds (float64)"
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in GENERATOR_FLOAT_METHODS
            and isinstance(func.value, ast.Call)
            and ctx.qualname(func.value.func) == "numpy.random.default_rng"
            and not _dtype_given(node, None)
        ):
            return f"`default_rng().{func.attr}(...)` (float64)"
        return None
    if isinstance(node, ast.Name):
        value = assigned_value(ctx.index, node)
        if value is not None:
            inner = numpy_float64(ctx, value, depth + 1)
            if inner is not None:
                return f"`{node.id}` = {inner}"
    return None


class ImplicitFloat64Downcast(Rule):
    """Flags NumPy float64 data handed to JAX, which silently becomes float32.

    What it does: finds `jnp.asarray`/`jnp.array`/`jax.device_put` without a `dtype`, and
    calls of functions jitted in this module, whose argument is NumPy data that is float64
    by default (`np.zeros(n)`, `np.array([0.5, 1.5])`, `np.linspace`, `np.random.randn`,
    `default_rng().normal(...)`, directly or through a variable), in a module without
    64-bit mode. Opt-in (informational).
    Why is this bad: without `jax_enable_x64` the conversion to float32 happens with no
    warning at all, so precision is lost silently (`jnp.array(16777217.0) - 16777216.0` is
    `0.0`).
    Example:
        x = np.linspace(0.0, 1.0, 1000)
        y = jnp.asarray(x)            # float32, no warning
    Use instead:
        x = np.linspace(0.0, 1.0, 1000, dtype=np.float32)   # say what you get
        y = jnp.asarray(x)
    Fix: none (whether float32 is acceptable is a modelling decision).
    """

    code = "JAX702"
    name = "implicit-float64-downcast"
    message = "{what} is float64 NumPy data; {how} converts it to float32 without any warning (x64 is off); create it as float32 or enable `jax_enable_x64`"
    verifier = "dtype"
    default = False
    tier = 3
    severity = "info"
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            grid = np.linspace(0.0, 1.0, 1000)
            y = jnp.asarray(grid)  # error: JAX702
            w = jax.device_put(np.random.randn(3, 3))  # error: JAX702

            @jax.jit
            def f(x):
                return x * 2

            out = f(np.array([0.1, 0.2]))  # error: JAX702
            """,
        ),
        valid=(
            """
            import numpy as np
            import jax.numpy as jnp

            grid = np.linspace(0.0, 1.0, 1000, dtype=np.float32)
            y = jnp.asarray(grid)
            z = jnp.asarray(np.zeros(3), dtype=jnp.float32)  # the conversion is explicit
            idx = jnp.asarray(np.array([1, 2, 3]))  # integers
            """,
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            y = jnp.asarray(np.linspace(0.0, 1.0, 10))
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        args: list[ast.expr] = []
        if q in CONVERSIONS:
            if node.args and not _dtype_given(node, None if q == "jax.device_put" else 1):
                args = [node.args[0]]
            how = f"`{ctx.text(node.func)}`"
        else:
            spec = jitted_callee(ctx.facts, node)
            if spec is None:
                return
            static = {id(a) for _, a in spec.static_arguments(node)}
            args = [a for a in node.args if id(a) not in static and not isinstance(a, ast.Starred)]
            how = (
                f"the jitted `{spec.name}`"
                if spec.fn is not None
                else f"the jitted function `{ctx.text(node.func)}`"
            )
        for arg in args:
            what = numpy_float64(ctx, arg)
            if what is not None and not x64_evidence(ctx):
                self.report(arg, what=what, how=how)
