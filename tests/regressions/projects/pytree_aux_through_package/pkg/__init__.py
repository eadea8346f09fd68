"""A package that re-exports its array class (e3nn_jax/__init__.py re-exports IrrepsArray)."""

from pkg._src.arr import IrrepsArray

__all__ = ["IrrepsArray"]
