"""Named-axis metadata (haliax-style `Axis` objects, axis sizes, "has this axis" queries) is
a Python value compared with `==` (issue 23, ~14 false positives; library facts in
analysis/kinds.py). The twin (`# error:`) compares the array data.
"""

import haliax as hax
import jax
from haliax import Axis

Batch = Axis("batch", 8)


def body(x, Embed: Axis, Pos: hax.AxisSelector):
    if Embed.size > 4:
        x = x * 2
    if Embed == Pos:
        x = x + 1
    return x


@jax.jit
def loss(x, y):
    if x.axes[0] == y.axes[0]:
        x = x + 1
    if x.has_axis("pos"):
        x = x - 1
    x = body(x, y, y)
    if x.sum() > y.sum():  # error: JAX110
        x = -x
    return x
