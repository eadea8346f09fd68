"""JAX502: a method that stores on `self` leaks nothing when every traced call runs it on an
object the calling traced function built itself and drops (`block = Block(...)`, then only
`block(x)` and `block.params()`): the object, and the tracers it keeps, end with the trace
(analysis/traced.py `_fresh_receiver`, the row's `fresh_self`).

Reduced from Information-Fusion-Lab-Umass/NuX nux/nn/resnet.py:24-69 (v29 check set, FP x5 with
lipschitz.py and mlp.py, tuning material): a `ResBlock` made inside the `lax.scan` body sets
`self.gc_params` and the body returns `res_block.get_params()`. The near misses: the same
method run on an object that outlives the trace (an attribute of the caller's `self`, or a
local the body returns) keeps a tracer.
"""

import jax.numpy as jnp
from jax import lax


class Block:
    def __init__(self, width):
        self.width = width

    def get_params(self):
        return self.w

    def __call__(self, x, params):
        self.w = params
        return x * self.w


class Kept:
    def __call__(self, x, params):
        self.w = params  # error: JAX502
        return x * self.w


class Returned:
    def __call__(self, x, params):
        self.w = params  # error: JAX502
        return x * self.w


class Net:
    def __init__(self):
        self.kept = Kept()

    def __call__(self, x, params):
        def body(carry, p):
            block = Block(4)
            y = block(carry, p)
            return y, block.get_params()

        def body_kept(carry, p):
            return self.kept(carry, p), p

        def body_returned(carry, p):
            r = Returned()
            return r(carry, p), r

        y, ps = lax.scan(body, x, params)
        y2, _ = lax.scan(body_kept, x, params)
        y3, _ = lax.scan(body_returned, x, params)
        return y + y2 + y3, ps


out = Net()(jnp.ones(3), jnp.ones((2, 3)))
