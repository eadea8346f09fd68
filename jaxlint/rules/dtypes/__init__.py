"""JAX7xx: dtypes and numerics (64-bit types without `jax_enable_x64`, NaN gradients).

One rule per module; whether 64-bit mode may be on is shared in `_x64.py`.
"""

from jaxlint.rules.dtypes.float64_without_x64 import Float64WithoutX64
from jaxlint.rules.dtypes.implicit_float64_downcast import ImplicitFloat64Downcast
from jaxlint.rules.dtypes.int_literal_overflow import IntLiteralOverflow
from jaxlint.rules.dtypes.nan_gradient_through_where import NanGradientThroughWhere

__all__ = [
    "Float64WithoutX64",
    "ImplicitFloat64Downcast",
    "IntLiteralOverflow",
    "NanGradientThroughWhere",
]
