from .utils import scale

__all__ = ["scale"]
