"""JAX805 removed-array-types: removed array and key types (`jnp.DeviceArray`,
`jax.random.KeyArray`, ...) -> `jax.Array`; annotations and `isinstance` checks are told
apart because the rewrite is safe in the first and unsafe in the second.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Context, Examples


def in_annotation(node: ast.AST) -> bool:
    cur, parent = node, syntax.parent(node)
    while isinstance(parent, (ast.Subscript, ast.Tuple, ast.BinOp, ast.Attribute, ast.List)):
        cur, parent = parent, syntax.parent(parent)
    if isinstance(parent, ast.arg):
        return parent.annotation is cur
    if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return parent.returns is cur
    if isinstance(parent, ast.AnnAssign):
        return parent.annotation is cur
    return False


def in_isinstance(node: ast.AST, ctx: Context) -> bool:
    cur, parent = node, syntax.parent(node)
    if isinstance(parent, ast.Tuple):
        cur, parent = parent, syntax.parent(parent)
    return (
        isinstance(parent, ast.Call)
        and len(parent.args) == 2
        and parent.args[1] is cur
        and ctx.qualname(parent.func) in ("isinstance", "issubclass")
    )


class RemovedArrayTypes(RenameRule):
    """Flags removed array and key types.

    What it does: finds `jnp.DeviceArray`, `jax.interpreters.xla.DeviceArray`,
    `jax.interpreters.pxla.ShardedDeviceArray`, `jax.random.KeyArray`,
    `jax.random.PRNGKeyArray` and `jax.stages.OutInfo`, in annotations and elsewhere.
    Why is this bad: they were removed (0.4.14-0.7.0): the attribute access raises
    `AttributeError` at import or definition time. `jax.Array` is the one array type now.
    Example:
        def f(x: jnp.DeviceArray) -> jnp.DeviceArray: ...
        if isinstance(x, jnp.DeviceArray): ...
    Use instead:
        def f(x: jax.Array) -> jax.Array: ...
        if isinstance(x, jax.Array): ...
    Fix: in annotations -> `jax.Array` (`jax.ShapeDtypeStruct` for `OutInfo`; safe). In
    `isinstance` -> `jax.Array` (unsafe: tracers are `jax.Array` instances, the old
    `DeviceArray` excluded them). Key types in `isinstance`: none (use
    `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`).
    """

    code = "JAX805"
    name = "removed-array-types"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    # `safety` is what `isinstance` gets; annotations are always safe, other uses get none
    RENAMES = {
        "jax.numpy.DeviceArray": Move("jax.Array", "unsafe"),
        "jax.interpreters.xla.DeviceArray": Move("jax.Array", "unsafe"),
        "jax.interpreters.pxla.ShardedDeviceArray": Move("jax.Array", "unsafe"),
        "jax.random.KeyArray": Move(
            "jax.Array",
            None,
            "at run time test `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`",
        ),
        "jax.random.PRNGKeyArray": Move(
            "jax.Array",
            None,
            "at run time test `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`",
        ),
        "jax.stages.OutInfo": Move("jax.ShapeDtypeStruct", None, removed="0.10?"),
    }
    examples = Examples(
        invalid=(
            """
            import jax.numpy as np


            def scale(x: np.DeviceArray, s: float) -> np.DeviceArray:  # error: JAX805, JAX805
                return x * s
            """,
            """
            import jax
            import jax.numpy as jnp


            def is_array(x):
                return isinstance(x, (jnp.DeviceArray, list))  # error: JAX805


            def sample(key: jax.random.KeyArray):  # error: JAX805
                return jax.random.normal(key)
            """,
            """
            from jax.numpy import DeviceArray  # error: JAX805

            Batch = dict[str, DeviceArray]
            """,
        ),
        valid=(
            """
            import jax
            import numpy as np


            def scale(x: jax.Array, y: np.ndarray) -> jax.Array:
                return x * y
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp


                def scale(x: jnp.DeviceArray, s: float) -> jnp.DeviceArray:
                    return x * s
                """,
                """
                import jax.numpy as jnp
                import jax


                def scale(x: jax.Array, s: float) -> jax.Array:
                    return x * s
                """,
            ),
            (
                """
                from jax.numpy import DeviceArray


                def f(x: DeviceArray) -> "DeviceArray":
                    return x
                """,
                """
                from jax import Array as DeviceArray


                def f(x: DeviceArray) -> "DeviceArray":
                    return x
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                import jax.numpy as jnp


                def is_array(x):
                    return isinstance(x, jnp.DeviceArray)
                """,
                """
                import jax
                import jax.numpy as jnp


                def is_array(x):
                    return isinstance(x, jax.Array)
                """,
            ),
        ),
    )

    def use_safety(self, move: Move, node: ast.AST, ctx: Context) -> str | None:
        if in_annotation(node):
            return "safe"
        if in_isinstance(node, ctx):
            return move.safety
        return None
