"""How the PRNG rules name a call in their messages: `normal` for `jax.random.normal(...)`,
`init` for a helper `init(...)`. Five rules cite the call that consumed a key (the first and
the second use, the consumer of a fixed seed), so they share one spelling. `KEY_FLOW_WORDS` is
the prefilter gate of the rules that report the key flow.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import dotted
from jaxlint.rules.base import Context

# the key flow (`analysis.flow.keys`) starts at a `jax.random.*` call or a flax NNX
# `Rngs(...)`: a file without the word `random` or `Rngs` has no key to reuse, collide or
# broadcast (a `jax.random` call also names `jax`)
KEY_FLOW_WORDS = ("random", "Rngs")


def callee_name(ctx: Context, call: ast.Call) -> str:
    """`normal` for `jax.random.normal(...)`, `init` for a helper `init(...)`."""
    q = ctx.qualname(call.func)
    if q:
        return q.replace("jax.random.", "")
    return dotted(call.func) or ctx.text(call.func)
