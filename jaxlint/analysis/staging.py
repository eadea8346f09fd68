"""Staged calls: a jax.numpy or lax call inside a staged function gives a tracer.

Under jit (and in the bodies of `lax.scan`, `cond`, `while_loop`, in `shard_map`,
`checkpoint`, `eval_shape`: `jax_api.STAGING`) every JAX operation is staged into the
program, whatever its arguments are: `jnp.arange(x.shape[0]) < k` is a tracer even when `k`
is static, so `x[mask]` raises NonConcreteBooleanIndexError (jax#4471) and `if
jnp.any(...)` a concretization error. Run with JAX 0.6.2 and 0.12.0.1 (recall v3's
`mask_from_static_args`, `split_index_array`, `linspace_traced_num`). The taint analysis asks
`staged_call` for a call whose arguments are all Python values, in a function
`TracedFunctions.staged` says is staged, outside `with jax.ensure_compile_time_eval():`
(which runs such operations eagerly on concrete values).
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import (
    STAGED_MODULES,
    STAGED_NOT_ARRAY_PREFIXES,
    STAGED_NOT_ARRAYS,
    STATIC_CALLS,
)

__all__ = ["compile_time_eval", "staged_call"]

_EAGER_BLOCKS = frozenset({"jax.ensure_compile_time_eval", "jax.core.ensure_compile_time_eval"})


def staged_call(qualname: str | None) -> bool:
    """A call of `qualname` returns an array built by a JAX operation (so, staged, a tracer)."""
    return (
        qualname is not None
        and qualname.startswith(STAGED_MODULES)
        and qualname not in STATIC_CALLS
        and qualname not in STAGED_NOT_ARRAYS
        and not qualname.startswith(STAGED_NOT_ARRAY_PREFIXES)
    )


def compile_time_eval(node: ast.AST, index: ModuleIndex) -> bool:
    """`node` runs inside `with jax.ensure_compile_time_eval():` (operations on concrete
    values run eagerly there)."""
    for anc in syntax.ancestors(node):
        if isinstance(anc, (ast.With, ast.AsyncWith)) and any(
            isinstance(item.context_expr, ast.Call)
            and index.qualname(item.context_expr.func) in _EAGER_BLOCKS
            for item in anc.items
        ):
            return True
    return False
