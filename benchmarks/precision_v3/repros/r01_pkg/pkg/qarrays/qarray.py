"""An equinox module whose `dims` is a static field, and a helper that reads it."""
import equinox as eqx
import jax


class QArray(eqx.Module):
    dims: tuple[int, ...] = eqx.field(static=True)
    data: jax.Array


def get_dims(x) -> tuple[int, ...] | None:
    return x.dims if isinstance(x, QArray) else None


def init_dims(xdims, dims, shape: tuple[int, ...]) -> tuple[int, ...]:
    if dims is None:
        dims = (shape[-1],) if xdims is None else xdims
    return dims
