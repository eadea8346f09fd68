"""What an argument or a class is, as several compile rules need it.

Calls into NumPy/`jax.numpy` that make no array (JAX402 and JAX407 skip them),
plain classes hashed by identity (a new instance is a new static-argument key for
JAX403, a stale cache entry for JAX409), and the names an expression mentions.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.jit_sites import has_method
from jaxlint.rules.base import Context


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


NOT_ARRAY_CALLS = frozenset(
    {
        "numpy.dtype",
        "jax.numpy.dtype",
        "numpy.float32",
        "numpy.int32",
        "numpy.float64",
        "numpy.int64",
        "jax.numpy.float32",
        "jax.numpy.int32",
        "numpy.shape",
        "jax.numpy.shape",
        "numpy.ndim",
        "jax.numpy.ndim",
        "numpy.size",
        "jax.numpy.size",
        "numpy.prod",
        "numpy.finfo",
        "numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "numpy.result_type",
        "jax.numpy.result_type",
    }
)


def identity_hashed_class(ctx: Context, cls: ast.ClassDef) -> bool:
    """A plain class: default `__hash__`/`__eq__` by identity (every instance is a new key)."""
    if cls.decorator_list or cls.keywords:
        return False
    for base in cls.bases:
        if not (isinstance(base, ast.Name) and base.id == "object"):
            return False
    return not (has_method(cls, "__hash__") or has_method(cls, "__eq__"))
