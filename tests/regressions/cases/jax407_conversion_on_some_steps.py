"""A host conversion that runs on some steps only does not repeat its cost every step: a
branch of the loop body that tests a per-step value (one ground plane among the geometries:
jaxrenderer notebooks, `elif isinstance(col, Plane):`), or any branch of a function the loop
calls (`if model == PeakCollection:` in a helper called for every model class: JaXRTS
tests/test_models.py:59-70; a lazy class-level cache `if Cls._table is None:`: qml-essentials
coefficients.py:632) (v15 rows, tuning material: JAX407 x8; `PerStep.every_step`). The twins:
a branch on a loop-invariant flag, and an unconditional conversion in the called helper."""

import jax.numpy as jnp


class Plane:
    pass


def build(geoms):
    out = []
    for col in geoms:
        if isinstance(col, Plane):
            half = jnp.array([1000.0, 1000.0, 0.0001, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
            out.append(half)
        else:
            out.append(col)
    return out


def params_for(model):
    if model == "peak":
        return {"w": jnp.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])}
    return {}


class Table:
    _table = None

    @classmethod
    def table(cls):
        if cls._table is None:
            cls._table = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0])
        return cls._table


def run(models, xs):
    total = 0.0
    for m in models:
        total += len(params_for(m))
    for x in xs:
        total += Table.table()[0] * x
    return total


def scaled(geoms, use_scale):
    out = []
    for col in geoms:
        if use_scale:
            scale = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])  # error: JAX407
            out.append(col * scale)
    return out


def weights():
    w = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0])  # error: JAX407
    return w.sum()


def total_weight(xs):
    return sum(weights() * x for x in xs)
