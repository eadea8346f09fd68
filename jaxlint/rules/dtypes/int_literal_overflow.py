"""int-literal-overflow (JAX703): a Python int outside int32 given to a JAX call
without 64-bit mode: most calls raise OverflowError, some wrap around silently.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.dtypes._x64 import DTYPE_CALLS, x64_evidence

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
    verify = Verify(expect=("OverflowError", "too large to convert"))
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

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        """`256 ** jnp.arange(1, 5)`, `jnp.arange(100_000) ** 2`: an integer power whose
        largest element is known from a literal `jnp.arange` and an int literal, and does not
        fit in int32 (the issue's 256**4 = 2**32 becomes 0, so `1 / ...` gives inf)."""
        if not isinstance(node.op, ast.Pow):
            return
        base, exp = _int_value(node.left), _int_value(node.right)
        if base is not None and exp is None:
            span = _arange_span(ctx, node.right)
            if span is None or base < 0 or span[0] < 0:
                return
            top = base ** span[1]
        elif exp is not None and base is None:
            span = _arange_span(ctx, node.left)
            if span is None or exp < 0:
                return
            top = max(abs(span[0]), abs(span[1])) ** exp
        else:
            return
        if top <= INT32_MAX or x64_evidence(ctx):
            return
        self.report(
            node,
            value=ctx.text(node),
            kind="int32",
            effect=f"its largest element ({top}) wraps around silently",
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


def _int_value(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _arange_span(ctx: Context, node: ast.AST) -> tuple[int, int] | None:
    """(first, last) element of `jnp.arange(stop)` / `jnp.arange(start, stop[, step])` with
    int literal arguments and no dtype (an int32 array without x64), else None."""
    if not isinstance(node, ast.Call) or ctx.qualname(node.func) != "jax.numpy.arange":
        return None
    if node.keywords or not 1 <= len(node.args) <= 3:
        return None
    values = [_int_value(a) for a in node.args]
    if any(v is None for v in values):
        return None
    start, stop, step = (0, values[0], 1) if len(values) == 1 else (*values, 1)[:3]  # type: ignore[misc]
    if step == 0 or (stop - start) * step <= 0:  # type: ignore[operator]
        return None
    n = (stop - start + step - (1 if step > 0 else -1)) // step  # type: ignore[operator]
    return start, start + (n - 1) * step  # type: ignore[operator]
