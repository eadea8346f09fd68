"""equinox/internal/_loop/checkpointed.py:1095 (JAX103): `print` of a pytree of Python bools
made by `tree_map` with a function returning `x is None`, inside a `jax.eval_shape`d function.
The mapped function's result is static, so the tree is too."""

import jax
import jax.tree_util as jtu


def _is_none(x):
    return x is None


def resolve(grad_val):
    symbolic_zero_gradient = jtu.tree_map(_is_none, grad_val, is_leaf=_is_none)
    print("symbolic_zero_gradient", symbolic_zero_gradient)
    return symbolic_zero_gradient


def run(grad_val):
    return jax.eval_shape(resolve, grad_val)
