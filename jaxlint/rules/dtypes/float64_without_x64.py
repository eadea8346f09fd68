"""float64-without-x64 (JAX701): a 64-bit dtype requested from JAX when nothing says
64-bit mode may be on: JAX silently gives float32/int32 instead, with only a
UserWarning.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.jax_api import DTYPE_QUERIES
from jaxlint.analysis.values import assigned_value
from jaxlint.analysis.x64 import (
    LIBRARY_DTYPE_KEYWORDS,
    initializer_dtype_overridden,
    x64_guarded,
)
from jaxlint.core.suppressions import Suppressions
from jaxlint.core.suppressions import collect as collect_suppressions
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.dtypes._x64 import DTYPE_CALLS, x64_evidence_at

_64_BIT = {
    "float64": "float32",
    "double": "float32",
    "float_": "float32",
    "int64": "int32",
    "longlong": "int32",
    "int_": "int32",
    "uint64": "uint32",
    "ulonglong": "uint32",
    "uint": "uint32",
    "complex128": "complex64",
    "cdouble": "complex64",
    "complex_": "complex64",
}
DTYPE_64 = {f"{m}.{t}": t32 for m in ("jax.numpy", "numpy") for t, t32 in _64_BIT.items()}
DTYPE_STRINGS_64 = {
    "float64": "float32",
    "double": "float32",
    "f8": "float32",
    "<f8": "float32",
    "int64": "int32",
    "i8": "int32",
    "<i8": "int32",
    "uint64": "uint32",
    "u8": "uint32",
    "complex128": "complex64",
    "c16": "complex64",
}
SCALAR_CONSTRUCTORS_64 = {f"jax.numpy.{t}": t32 for t, t32 in _64_BIT.items()}

# public namespaces whose dtype arguments create data (JAX internals handle x64 themselves)
DTYPE_TAKERS = (
    "jax.numpy.",
    "jax.random.",
    "jax.lax.",
    "jax.nn.",
    "jax.scipy.",
    "jax.device_put",
    "jax.experimental.pallas.",
)
ARRAY_PRODUCERS = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
NOT_ARRAYS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.result_type",
        "jax.numpy.issubdtype",
        "jax.random.split",
        "jax.random.key",
        "jax.random.PRNGKey",
    }
)


def dtype_64(ctx: Context, node: ast.AST) -> tuple[str, str] | None:
    """(spelling, 32-bit replacement) when `node` names a 64-bit dtype."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        t32 = DTYPE_STRINGS_64.get(node.value)
        return (repr(node.value), t32) if t32 else None
    if isinstance(node, ast.Call) and ctx.qualname(node.func) in DTYPE_CALLS and node.args:
        return dtype_64(ctx, node.args[0])
    if isinstance(node, (ast.Name, ast.Attribute)):
        q = ctx.qualname(node)
        if q in DTYPE_64:
            return ctx.text(node), DTYPE_64[q]
    return None


# conversions that keep the dtype of the NumPy data they are given (float64 -> float32 without
# x64, silently: no warning, since no dtype was requested of JAX)
CONVERSIONS = frozenset({"jax.numpy.asarray", "jax.numpy.array", "jax.device_put"})
NUMPY_MAKERS = frozenset(
    {
        "numpy.array",
        "numpy.asarray",
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.full",
        "numpy.arange",
        "numpy.linspace",
        "numpy.loadtxt",
        "numpy.genfromtxt",
        "numpy.fromfile",
        "numpy.frombuffer",
    }
)


def explicit_numpy_64(ctx: Context, node: ast.AST, depth: int = 0) -> tuple[str, str] | None:
    """(spelling, 32-bit type) when `node` is NumPy data made with an explicit 64-bit dtype
    (`np.array(data, dtype=np.float64)`, `np.zeros(n, np.float64)`, `arr.astype(np.float64)`
    on such data, `np.float64(x)`), directly or through a name assigned once. Only explicit
    requests: NumPy's float64 default is JAX702's, opt-in."""
    if depth > 3:
        return None
    if isinstance(node, ast.Name):
        value = assigned_value(ctx.index, node)
        return explicit_numpy_64(ctx, value, depth + 1) if value is not None else None
    if not isinstance(node, ast.Call):
        return None
    q = ctx.qualname(node.func)
    if q and q.startswith("numpy.") and q in DTYPE_64:
        return f"`{ctx.text(node.func)}(...)`", DTYPE_64[q]
    if q in NUMPY_MAKERS:
        for kw in node.keywords:
            if kw.arg == "dtype":
                d = dtype_64(ctx, kw.value)
                return (f"`{ctx.text(node.func)}(..., dtype={d[0]})`", d[1]) if d else None
        for arg in node.args[1:]:
            d = dtype_64(ctx, arg)
            if d is not None:
                return f"`{ctx.text(node.func)}(..., {d[0]})`", d[1]
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "astype" and node.args:
        d = dtype_64(ctx, node.args[0])
        inner = func.value
        if d is not None and not is_jax_array(ctx, inner):
            made = inner
            if isinstance(made, ast.Name):
                made = assigned_value(ctx.index, made) or made
            mq = ctx.qualname(made.func) if isinstance(made, ast.Call) else None
            if mq in NUMPY_MAKERS:
                return f"`.astype({d[0]})` NumPy data", d[1]
    return None


def _warning(what: str) -> str:
    """JAX warns when a 64-bit dtype is asked of it; NumPy data converted without a dtype is
    truncated without a word."""
    return "" if " handed to `" in what else " (with a UserWarning)"


def _exempt(q: str) -> bool:
    return q.startswith(DTYPE_QUERIES) or q in DTYPE_QUERIES


def is_jax_array(ctx: Context, node: ast.AST, depth: int = 0) -> bool:
    """`node` certainly evaluates to a `jax.Array` (JAX op result, or traced in a jit)."""
    if depth > 3:
        return False
    if ctx.in_jit and ctx.taint.is_array(node):
        return True
    if isinstance(node, ast.Call):
        q = ctx.qualname(node.func)
        if q and q.startswith(ARRAY_PRODUCERS) and q not in NOT_ARRAYS:
            return True
        if q == "jax.device_put":
            return True
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("astype", "reshape", "sum", "mean"):
            return is_jax_array(ctx, func.value, depth + 1)
        return False
    if isinstance(node, ast.Name):
        found = ctx.index.lookup(node.id, ctx.index.scope_of(node))
        if not found:
            return False
        values = [b.value for b in found if b.kind == "assign" and b.value is not None]
        if len(values) != len(found):
            return False
        return all(is_jax_array(ctx, v, depth + 1) for v in values if v is not node)
    return False


class Float64WithoutX64(Rule):
    """Flags 64-bit dtypes requested from JAX when 64-bit mode is off.

    What it does: finds `dtype=jnp.float64` / `'float64'` / `np.int64` / `complex128` /
    `jnp.double` (keyword or positional) in `jnp`/`jax.random`/`lax` calls,
    `.astype(<64-bit>)` on a JAX array and scalar constructors such as `jnp.float64(1.0)`,
    `dtype=`/`param_dtype=` of flax and equinox layers (`nn.Dense(3, param_dtype=jnp.float64)`),
    and NumPy data made with an explicit 64-bit dtype handed to `jnp.asarray`/`jnp.array`/
    `jax.device_put` without a dtype (NumPy's float64 default alone is JAX702's, opt-in),
    when nothing says 64-bit mode may be on: not the module (`jax.config.update(
    "jax_enable_x64", True)`, `JAX_ENABLE_X64`, `with jax.enable_x64(True):`,
    `jax_explicit_x64_dtypes="allow"`, flags read from the environment with
    `jax.config.parse_flags_with_absl()`), not its project (a `conftest.py` over it or
    over the tests that import it; a project file that enables it when it is imported or run,
    `if __name__ == "__main__":` included, and imports this module or is imported by it
    (a sibling script in its own process does not count); `JAX_ENABLE_X64` set in
    `.github/workflows`, `tox.ini`, `pytest.ini`, `pyproject.toml` or `setup.cfg`), and not
    `x64 = true` in the jaxlint configuration. Code that runs only when x64 is on (`if not
    jax.config.x64_enabled: return`, `@pytest.mark.skipif(not jax.config.x64_enabled, ...)`)
    is left alone. One finding per module: the first request, with the count of the others.
    Why is this bad: without x64 JAX silently gives float32/int32 instead (only a
    `UserWarning: Explicitly requested dtype float64 ... will be truncated to dtype float32`),
    so the precision or range the code asks for is not there.
    Example:
        a = jnp.zeros(3, dtype=jnp.float64)
    Use instead:
        jax.config.update("jax_enable_x64", True)   # at program start
        a = jnp.zeros(3, dtype=jnp.float64)
        # or say what you get: jnp.zeros(3, dtype=jnp.float32)
    Fix: none (enabling x64 changes every default dtype; changing the dtype changes intent).
    """

    code = "JAX701"
    name = "float64-without-x64"
    message = '{what} requests a 64-bit dtype but `jax_enable_x64` is not enabled: JAX silently uses {t32}{warning}; enable x64 at startup (`jax.config.update("jax_enable_x64", True)`) or ask for {t32}{more}'
    verifier = "dtype"
    tier = 2
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            a = jnp.zeros(3, dtype=jnp.float64)  # error: JAX701
            b = jnp.arange(10, dtype="int64")
            c = jnp.array([1.0, 2.0], np.float64)
            """,
            """
            import jax
            import jax.numpy as jnp

            d = jax.random.normal(jax.random.key(0), (3,), dtype=jnp.complex128)  # error: JAX701
            """,
            """
            import jax.numpy as jnp

            e = jnp.float64(1.0)  # error: JAX701
            """,
            """
            import numpy as np
            import jax.numpy as jnp

            a = jnp.zeros(3)
            f = a.astype(np.float64)  # error: JAX701
            """,
            """
            import jax.numpy as jnp

            def as_int64(x):
                return jnp.asarray(x, dtype="int64")  # error: JAX701
            """,
            """
            from functools import partial
            import jax
            import jax.numpy as jnp
            from numpy import float64

            @jax.jit
            def accumulate(x):
                total = jnp.cumsum(x, dtype=float64)  # error: JAX701
                return total.astype(jnp.double)
            """,
            """
            import flax.linen as nn
            import jax.numpy as jnp
            layer = nn.Dense(3, param_dtype=jnp.float64)  # error: JAX701
            """,
            """
            import numpy as np
            import jax.numpy as jnp
            data = np.array([1e8, 1e8 + 1.0], dtype=np.float64)
            x = jnp.asarray(data)  # error: JAX701
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            a = jnp.zeros(3, dtype=jnp.float64)
            """,
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            host = np.zeros(3, dtype=np.float64)  # NumPy keeps float64
            h2 = host.astype(np.float64)
            info = jnp.finfo(jnp.float64)
            spec = jax.ShapeDtypeStruct((3,), jnp.float32)
            x = jnp.zeros(3, dtype=float)  # the default float: no request for 64 bits
            """,
            """
            import jax
            import jax.numpy as jnp

            def precise(x):
                with jax.enable_x64(True):
                    return jnp.asarray(x, dtype=jnp.float64)
            """,
            """
            import jax
            import jax.numpy as jnp
            import pytest

            def check_int64():
                if not jax.config.x64_enabled:
                    return "skipped: needs x64"
                return jnp.array(3, dtype=jnp.int64).dtype

            @pytest.mark.skipif(not jax.config.x64_enabled, reason="needs x64")
            def test_float64():
                assert jnp.zeros(3, jnp.float64).dtype == jnp.float64
            """,
            """
            import jax
            import jax.numpy as jnp

            jax.config.parse_flags_with_absl()  # JAX_ENABLE_X64 may come from the environment

            REFERENCE = jnp.array([8.42517168e-02, 7.65140344e-02], jnp.float64)
            """,
            """
            import flax.linen as nn
            import numpy as np
            import jax.numpy as jnp
            layer = nn.Dense(3, param_dtype=jnp.float32, dtype=jnp.bfloat16)
            ids = jnp.asarray(np.array([1, 2], dtype=np.int32))
            same = jnp.asarray(np.array([1.0], dtype=np.float64), dtype=jnp.float32)
            """,
        ),
    )

    def __init__(self, ctx: Context, sink) -> None:  # noqa: ANN001
        super().__init__(ctx, sink)
        self._found: list[tuple[ast.AST, str, str]] = []
        self._noqa: Suppressions | None = None

    def _acknowledged(self, node: ast.AST) -> bool:
        """A request on a line with `# noqa: JAX701` is known to the author: it is neither the
        finding nor counted in it (the one finding stands for the others)."""
        if self._noqa is None:
            self._noqa = collect_suppressions(
                self.ctx.source.text.splitlines(), self.ctx.index.tree
            )
        return self._noqa.covers(node.lineno, self.code)  # type: ignore[attr-defined]

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if initializer_dtype_overridden(node, ctx.qualname):
            return  # `nn.Dense(kernel_init=init(dtype=...))`: made in the layer's param_dtype
        q = ctx.qualname(node.func)
        found: tuple[ast.AST, str, str] | None = None
        if q in SCALAR_CONSTRUCTORS_64:
            found = (node, f"`{ctx.text(node.func)}(...)`", SCALAR_CONSTRUCTORS_64[q])
        elif q and q.startswith(DTYPE_TAKERS) and not _exempt(q):
            for kw in node.keywords:
                if kw.arg == "dtype":
                    d = dtype_64(ctx, kw.value)
                    if d is not None:
                        found = (kw.value, f"`dtype={d[0]}`", d[1])
            for i, arg in enumerate(node.args):
                if i == 0 and isinstance(arg, ast.Constant):
                    continue  # a string first argument is data or a spec, not a dtype
                d = dtype_64(ctx, arg)
                if d is not None:
                    found = (arg, f"`{d[0]}`", d[1])
        elif q and any(q.startswith(p) for p in LIBRARY_DTYPE_KEYWORDS):
            keywords = next(v for p, v in LIBRARY_DTYPE_KEYWORDS.items() if q.startswith(p))
            for kw in node.keywords:
                if kw.arg in keywords:
                    d = dtype_64(ctx, kw.value)
                    if d is not None:
                        found = (kw.value, f"`{kw.arg}={d[0]}`", d[1])
                        break
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "astype" and node.args:
            d = dtype_64(ctx, node.args[0])
            if d is not None and is_jax_array(ctx, node.func.value):
                found = (node.args[0], f"`.astype({d[0]})`", d[1])
        if found is None and q in CONVERSIONS and node.args:
            given = any(kw.arg in ("dtype", None) for kw in node.keywords) or (
                q != "jax.device_put" and len(node.args) > 1
            )
            d = None if given else explicit_numpy_64(ctx, node.args[0])
            if d is not None:
                found = (node.args[0], f"{d[0]} handed to `{ctx.text(node.func)}`", d[1])
        if found is None or x64_guarded(found[0]) or x64_evidence_at(ctx, found[0]):
            return
        self._found.append(found)

    def finish(self) -> None:
        """One finding per module for one cause (x64 off): the first request, with a count."""
        found = [f for f in self._found if not self._acknowledged(f[0])]
        for node, what, t32 in self._found:
            if self._acknowledged(node):
                # reported so that the comment suppresses it (and JAX001 sees it is used)
                self.report(node, what=what, t32=t32, more="", warning=_warning(what))
        if not found:
            return
        target, what, t32 = found[0]
        rest = len(found) - 1
        more = (
            f" ({rest} more 64-bit request{'s' if rest > 1 else ''} in this module)" if rest else ""
        )
        self.report(target, what=what, t32=t32, more=more, warning=_warning(what))
