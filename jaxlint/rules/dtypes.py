"""JAX7xx: dtypes and precision (64-bit types without `jax_enable_x64`)."""

from __future__ import annotations

import ast
import weakref

from jaxlint.analysis.jit_sites import jitted_callee
from jaxlint.analysis.x64 import module_enables_x64, project_enables_x64, x64_guarded
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.suppressions import Suppressions
from jaxlint.suppressions import collect as collect_suppressions

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
DTYPE_CALLS = {"numpy.dtype", "jax.numpy.dtype"}
# calls that take a dtype without creating data in it
DTYPE_EXEMPT = (
    "jax.ShapeDtypeStruct",
    "jax.numpy.finfo",
    "jax.numpy.iinfo",
    "jax.numpy.dtype",
    "jax.numpy.issubdtype",
    "jax.numpy.result_type",
    "jax.numpy.promote_types",
    "jax.numpy.can_cast",
    "jax.numpy.isdtype",
    "jax.dtypes.",
    "jax.config.",
)
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
_X64_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def x64_evidence(ctx: Context) -> bool:
    """64-bit mode may be on where this module runs (analysis/x64.py: the module, its project
    -- conftest, package `__init__`, CI/tox/pytest configuration -- or `x64 = true`)."""
    if ctx.options.get("x64"):
        return True
    cached = _X64_CACHE.get(ctx.facts)
    if cached is not None:
        return cached
    found = module_enables_x64(ctx.index) or project_enables_x64(ctx.path)
    _X64_CACHE[ctx.facts] = found
    return found


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


def _exempt(q: str) -> bool:
    return q.startswith(DTYPE_EXEMPT) or q in DTYPE_EXEMPT


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
    when nothing says 64-bit mode may be on: not the module (`jax.config.update(
    "jax_enable_x64", True)`, `JAX_ENABLE_X64`, `with jax.enable_x64(True):`,
    `jax_explicit_x64_dtypes="allow"`, flags read from the environment with
    `jax.config.parse_flags_with_absl()`), not its project (a `conftest.py`, the package
    `__init__` or any other file enabling it; `JAX_ENABLE_X64` set in `.github/workflows`,
    `tox.ini`, `pytest.ini`, `pyproject.toml` or `setup.cfg`), and not `x64 = true` in the
    jaxlint configuration. Code that runs only when x64 is on (`if not
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
    message = '{what} requests a 64-bit dtype but `jax_enable_x64` is not enabled: JAX silently uses {t32} (with a UserWarning); enable x64 at startup (`jax.config.update("jax_enable_x64", True)`) or ask for {t32}{more}'
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
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "astype" and node.args:
            d = dtype_64(ctx, node.args[0])
            if d is not None and is_jax_array(ctx, node.func.value):
                found = (node.args[0], f"`.astype({d[0]})`", d[1])
        if found is None or x64_guarded(found[0]) or x64_evidence(ctx):
            return
        self._found.append(found)

    def finish(self) -> None:
        """One finding per module for one cause (x64 off): the first request, with a count."""
        found = [f for f in self._found if not self._acknowledged(f[0])]
        for node, what, t32 in self._found:
            if self._acknowledged(node):
                # reported so that the comment suppresses it (and JAX001 sees it is used)
                self.report(node, what=what, t32=t32, more="")
        if not found:
            return
        target, what, t32 = found[0]
        rest = len(found) - 1
        more = (
            f" ({rest} more 64-bit request{'s' if rest > 1 else ''} in this module)" if rest else ""
        )
        self.report(target, what=what, t32=t32, more=more)


# -- JAX702 -------------------------------------------------------------------------------------

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
        b = ctx.index.binding(node.id, ctx.index.scope_of(node))
        if b is not None and b.kind == "assign" and b.value is not None:
            inner = numpy_float64(ctx, b.value, depth + 1)
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


# -- JAX703 -------------------------------------------------------------------------------------

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
UINT32_MAX = 2**32 - 1
INT_OP_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.random.")
# arguments that are shapes, sizes or axes, not values
SHAPE_POSITIONS = {
    "jax.numpy.zeros": (0,),
    "jax.numpy.ones": (0,),
    "jax.numpy.empty": (0,),
    "jax.numpy.full": (0,),
    "jax.numpy.eye": (0, 1, 2),
    "jax.numpy.identity": (0,),
    "jax.numpy.tri": (0, 1, 2),
    "jax.numpy.reshape": (1,),
    "jax.numpy.broadcast_to": (1,),
    "jax.numpy.tile": (1,),
    "jax.numpy.repeat": (1,),
    "jax.numpy.expand_dims": (1,),
    "jax.numpy.linspace": (2,),
    "jax.lax.full": (0,),
    "jax.lax.iota": (1,),
}
SHAPE_KEYWORDS = frozenset(
    {"shape", "newshape", "axis", "axes", "num", "size", "total_repeat_length", "length"}
)
UNSIGNED = frozenset({"uint32", "uint16", "uint8", "uint64"})
FLOATING = frozenset(
    {
        "float16",
        "float32",
        "float64",
        "bfloat16",
        "complex64",
        "complex128",
        "double",
        "float_",
        "single",
        "half",
    }
)
DTYPE_FOLLOWS_ARRAY = frozenset(
    {"jax.numpy.full_like", "jax.numpy.zeros_like", "jax.numpy.ones_like", "jax.numpy.empty_like"}
)
DTYPE_POSITION = {
    "jax.numpy.array": 1,
    "jax.numpy.asarray": 1,
    "jax.numpy.full": 2,
    "jax.numpy.arange": 3,
}
SEEDS = frozenset({"jax.random.key", "jax.random.PRNGKey"})
UNSIGNED_DATA = frozenset({"jax.random.fold_in"})


def _int_constant(node: ast.AST, depth: int = 0) -> int | None:
    """An int written as a literal or constant arithmetic (`2**40`, `1 << 33`, `-2**31 - 1`)."""
    if depth > 6:
        return None
    if isinstance(node, ast.Constant):
        v = node.value
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _int_constant(node.operand, depth + 1)
        if v is None:
            return None
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a = _int_constant(node.left, depth + 1)
        b = _int_constant(node.right, depth + 1)
        if a is None or b is None:
            return None
        op = node.op
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Pow) and 0 <= b <= 256 and abs(a) <= 2**16:
            return a**b
        if isinstance(op, ast.LShift) and 0 <= b <= 256:
            return a << b
        if isinstance(op, ast.FloorDiv) and b:
            return a // b
    return None


def _dtype_name(ctx: Context, node: ast.AST | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and ctx.qualname(node.func) in DTYPE_CALLS and node.args:
        return _dtype_name(ctx, node.args[0])
    q = ctx.qualname(node)
    if q in ("float", "complex"):
        return "float32"
    if q in ("int", "bool"):
        return q
    if q and q.startswith(("jax.numpy.", "numpy.")):
        return q.rsplit(".", 1)[-1]
    return "?"


def _int_literals(node: ast.AST):
    """Int constants in `node` (through list/tuple literals), with their values."""
    value = _int_constant(node)
    if value is not None:
        yield node, value
        return
    if isinstance(node, (ast.List, ast.Tuple)):
        for elt in node.elts:
            yield from _int_literals(elt)


class IntLiteralOverflow(Rule):
    """Flags Python ints that do not fit in int32 passed to JAX without 64-bit mode.

    What it does: finds an integer literal (or constant arithmetic such as `2**40`) at or
    above 2**31 (or below -2**31) given as a value to a `jnp`/`lax`/`jax.random` call, in a
    module without 64-bit mode. An explicit unsigned or floating dtype that holds the value
    (`jnp.array(2**31, dtype=jnp.uint32)`, `jnp.uint32(0x9E3779B9)`) is fine; shapes are
    not values. Seeds of `jax.random.key` at or above 2**32 are flagged too.
    Why is this bad: Python ints become int32 without x64: most calls raise
    `OverflowError: Python int 2147483648 too large to convert to int32`, and some wrap
    around silently (`jnp.full(3, 2**31)` is `[-2147483648, ...]`, `jnp.arange(2**31, ...)`
    starts negative); `jax.random.key(2**40)` keeps only the low 32 bits (equal to `key(0)`).
    Example:
        big = jnp.array(2**40)
    Use instead:
        jax.config.update("jax_enable_x64", True)     # for 64-bit integers
        big = jnp.array(2**40, dtype=jnp.int64)
        # or a float if approximate is fine: jnp.array(2.0**40)
    Fix: none (needs 64-bit mode, a float, or a different algorithm).
    """

    code = "JAX703"
    name = "int-literal-overflow"
    message = "`{value}` does not fit in {kind} and x64 is off: {effect}; enable `jax_enable_x64`, use a float, or keep the value on the host"
    verifier = "trace"
    tier = 3
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            big = jnp.array(2**40)  # error: JAX703
            ids = jnp.asarray([1, 2, 3_000_000_000])  # error: JAX703
            filled = jnp.full(3, 2**31)  # error: JAX703
            masked = jnp.bitwise_and(jnp.ones(3, jnp.uint32), 0xFFFFFFFF)  # error: JAX703
            key = jax.random.key(2**40)  # error: JAX703
            """,
            """
            import jax
            from jax import numpy as jnp

            @jax.jit
            def hash_step(x):
                return jnp.mod(x * 31, 4_294_967_296)  # error: JAX703
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            golden = jnp.uint32(0x9E3779B9)
            mask = jnp.array(2**31, dtype=jnp.uint32)
            f = jnp.array(2**40, dtype=jnp.float32)
            g = jnp.array(2.0**40)
            h = jnp.zeros(2**31, jnp.int8)  # a shape, not a value
            k = jax.random.fold_in(jax.random.key(0), 2**31 + 5)  # fold_in data is uint32
            m = jnp.array(2**31 - 1)
            """,
            """
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            big = jnp.array(2**40)
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if not q or not q.startswith(INT_OP_PREFIXES) or q in DTYPE_FOLLOWS_ARRAY:
            return
        if q.rsplit(".", 1)[-1] in FLOATING:
            return  # jnp.float32(2**40)
        dtype = None
        for kw in node.keywords:
            if kw.arg == "dtype":
                dtype = _dtype_name(ctx, kw.value)
        pos = DTYPE_POSITION.get(q)
        if dtype is None and pos is not None and len(node.args) > pos:
            dtype = _dtype_name(ctx, node.args[pos])
        name = q.rsplit(".", 1)[-1]
        if dtype is None and (name in UNSIGNED or name.startswith("int")):
            dtype = name  # jnp.uint32(...), jnp.int32(...)
        if dtype == "?" or (dtype is not None and dtype.lstrip("<") in FLOATING):
            return
        if q in SEEDS:
            low, high, kind = INT32_MIN, UINT32_MAX, "32 bits"
            effect = "the seed is silently truncated to its low 32 bits (another seed's key)"
        elif q in UNSIGNED_DATA or (dtype is not None and dtype in UNSIGNED):
            low, high, kind = 0, UINT32_MAX, "uint32"
            effect = "it raises `OverflowError`"
        else:
            low, high, kind = INT32_MIN, INT32_MAX, "int32"
            effect = (
                "it wraps around silently"
                if q in ("jax.numpy.full", "jax.numpy.arange")
                else "it raises `OverflowError: Python int too large to convert to int32`"
            )
        skip = SHAPE_POSITIONS.get(q, ())
        if q.startswith("jax.random.") and q not in SEEDS:
            skip = (1,)  # jax.random.normal(key, shape)
        candidates = [a for i, a in enumerate(node.args) if i not in skip]
        candidates += [
            kw.value for kw in node.keywords if kw.arg not in SHAPE_KEYWORDS and kw.arg != "dtype"
        ]
        for arg in candidates:
            for lit, value in _int_literals(arg):
                if low <= value <= high:
                    continue
                if x64_evidence(ctx):
                    return
                self.report(lit, value=ctx.text(lit), kind=kind, effect=effect)
