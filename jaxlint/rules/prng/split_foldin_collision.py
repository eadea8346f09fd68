"""JAX203 split-foldin-collision: one parent key both `split` and `fold_in` (or `fold_in` twice
with one constant), which can derive the same key twice (fact: `KeyFlow.collisions`).
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS, callee_name


class SplitFoldinCollision(Rule):
    """Flags one parent key used by both `split` and `fold_in` (or by two equal `fold_in`).

    What it does: follows each key variable through the function and finds a parent key
    from which children are derived both with `jax.random.split(k, ...)` and with
    `jax.random.fold_in(k, i)` (on one path, without rebinding `k` in between), or with two
    `fold_in(k, c)` of the same constant `c`.
    Why is this bad: with the default `jax_threefry_partitionable=True`, `split(k, n)[i]` is
    bit-identical to `fold_in(k, i)`, so the "independent" keys collide and draw the same
    numbers. Neither `jax.debug_key_reuse` nor any warning catches it.
    Example:
        dropout_key = jax.random.fold_in(key, step)
        key, init_key = jax.random.split(key)
    Use instead:
        key, init_key, dropout_key = jax.random.split(key, 3)
    Or derive every child with `fold_in` and distinct data. No automatic fix.
    """

    code = "JAX203"
    key_reuses = True
    name = "split-foldin-collision"
    message = (
        "key `{name}` is {how}: with `jax_threefry_partitionable=True` (the default) "
        "`split(k, n)[i]` equals `fold_in(k, i)`, so these child keys can be identical; derive "
        "all children of `{name}` one way (one `split(k, n)`, or `fold_in` with distinct data)"
    )
    verifier = "draws"
    prefilter_words = KEY_FLOW_WORDS
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            def init_and_dropout(key, step):
                dropout_key = jax.random.fold_in(key, step)
                k1, k2 = jax.random.split(key)  # error: JAX203
                return dropout_key, k1, k2
            """,
            """
            from jax import random

            def keys_for(rng):
                a = random.fold_in(rng, 0)
                b = random.fold_in(rng, 0)  # error: JAX203
                return a, b
            """,
            """
            import jax

            def train(key, n):
                for i in range(n):
                    step_key = jax.random.fold_in(key, i)
                    print(jax.random.normal(step_key))
                eval_keys = jax.random.split(key, 4)  # error: JAX203
                return eval_keys
            """,
        ),
        valid=(
            """
            import jax

            def f(key, step):
                key = jax.random.fold_in(key, step)
                key, sub = jax.random.split(key)
                a = jax.random.fold_in(sub, 1)
                b = jax.random.fold_in(sub, 2)
                return key, a, b
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    return jax.random.split(key)
                return jax.random.fold_in(key, 0)
            """,
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for c in ctx.keys.collisions:
            later, first = callee_name(ctx, c.node), callee_name(ctx, c.first)
            if later == first:
                how = f"folded in twice with the same data (lines {c.first.lineno} and {c.node.lineno})"
            else:
                how = (
                    f"the parent of both `{first}` (line {c.first.lineno}) and `{later}` "
                    f"(line {c.node.lineno})"
                )
            self.report(c.node, name=c.name, how=how)
