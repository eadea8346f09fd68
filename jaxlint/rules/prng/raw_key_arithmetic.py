"""JAX206 raw-key-arithmetic: arithmetic or indexing on a key made in this module as if it were
data (key provenance: `KeyFlow.key_kind`).
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS


class RawKeyArithmetic(Rule):
    """Flags indexing, arithmetic and raw-array operations on PRNG keys.

    What it does: finds `key[0]`, `key.shape[-1]`, `key + 1`, `key.astype(...)` and
    `np.asarray(key)` where `key` is made in this module by `jax.random.key` (typed), and
    arithmetic on legacy `jax.random.PRNGKey` keys.
    Why is this bad: a typed key is a scalar of dtype `key<fry>`: indexing it raises
    `IndexError` (its shape is `()`), arithmetic raises `TypeError: add does not accept dtypes
    key<fry>`, `astype` raises `NotImplementedError` and NumPy conversion `TypeError`. On a
    legacy uint32 key, arithmetic silently produces a different, correlated key.
    Example:
        key = jax.random.key(0)
        seed = key[0]
        next_key = key + 1
    Use instead:
        key = jax.random.key(0)
        seed = jax.random.key_data(key)[0]
        key, next_key = jax.random.split(key)
    No automatic fix: derive keys with `split`/`fold_in`; read raw bits with `key_data`.
    """

    code = "JAX206"
    name = "raw-key-arithmetic"
    message = (
        "{what} on the PRNG key `{name}` {consequence}; derive new keys with "
        "`jax.random.split`/`fold_in` and read raw bits with `jax.random.key_data({name})`"
    )
    verifier = "trace"
    verify = Verify(expect=("TypeError", "IndexError", "NotImplementedError"), typed_keys=True)
    tier = 2
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            key = jax.random.key(0)
            seed = key[0]  # error: JAX206
            """,
            """
            import jax

            def make_keys(seed):
                key = jax.random.key(seed)
                k1, k2 = jax.random.split(key)
                return k1 + 1, k2  # error: JAX206
            """,
            """
            from jax import random

            def check(seed):
                rng = random.fold_in(random.key(seed), 3)
                assert rng.shape[-1] == 2  # error: JAX206
                return rng.astype("uint32")  # error: JAX206
            """,
            """
            import jax

            def legacy(seed):
                key = jax.random.PRNGKey(seed)
                return key * 2  # error: JAX206
            """,
        ),
        valid=(
            """
            import jax

            key = jax.random.key(0)
            keys = jax.random.split(key, 4)
            first = keys[0]
            raw = jax.random.key_data(key)[0]
            old = jax.random.PRNGKey(0)
            seed_word = old[0]
            """,
            """
            def f(key):
                return key[0] + 1
            """,
        ),
    )
    prefilter_words = KEY_FLOW_WORDS

    def _kind(self, node: ast.AST, ctx: Context):  # noqa: ANN202
        if isinstance(node, (ast.Name, ast.Subscript, ast.Call)):
            return ctx.keys.key_kind(node)
        return None

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            kind = self._kind(value.value, ctx)
            if kind == ("typed", True):
                self.report(
                    node,
                    what="`.shape[...]`",
                    name=ctx.text(value.value),
                    consequence="raises IndexError: a typed key has shape `()`, not `(2,)`",
                )
            return
        kind = self._kind(value, ctx)
        if kind == ("typed", True):
            self.report(
                node,
                what="indexing",
                name=ctx.text(value),
                consequence="raises IndexError: a typed key is a scalar (shape `()`)",
            )

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        for operand in (node.left, node.right):
            kind = self._kind(operand, ctx)
            if kind is not None:
                self._arith(node, operand, kind, ctx)
                return

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        kind = self._kind(node.target, ctx) if isinstance(node.target, ast.Name) else None
        if kind is not None:
            self._arith(node, node.target, kind, ctx)

    def _arith(self, node: ast.AST, operand: ast.AST, kind, ctx: Context) -> None:  # noqa: ANN001
        consequence = (
            "raises TypeError (arithmetic is not defined for `key<fry>` arrays)"
            if kind[0] == "typed"
            else "silently turns it into a different key that may collide with other seeds"
        )
        self.report(node, what="arithmetic", name=ctx.text(operand), consequence=consequence)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        target = None
        what = ""
        if isinstance(func, ast.Attribute) and func.attr in ("astype", "view"):
            target, what = func.value, f"`.{func.attr}()`"
            consequence = "raises NotImplementedError for a typed key"
        elif ctx.qualname(func) in ("numpy.asarray", "numpy.array") and node.args:
            target, what = node.args[0], f"`{ctx.text(func)}`"
            consequence = "raises TypeError: a typed key cannot be converted to a NumPy array"
        if target is None:
            return
        kind = self._kind(target, ctx)
        if kind is not None and kind[0] == "typed":
            self.report(node, what=what, name=ctx.text(target), consequence=consequence)
