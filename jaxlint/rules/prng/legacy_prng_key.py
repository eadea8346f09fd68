"""JAX205 legacy-prng-key: `jax.random.PRNGKey` (a raw uint32 key) where the typed `jax.random.key`
is meant, with its fix when the key only feeds `jax.random`.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.flow.keys import key_argument
from jaxlint.edits.imports import spell
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS


class LegacyPrngKey(Rule):
    """Flags `jax.random.PRNGKey` (legacy raw uint32 keys); prefer typed `jax.random.key`.

    What it does: finds calls to `jax.random.PRNGKey(seed)` (opt-in: select `JAX205`).
    Why is this bad: `PRNGKey` makes a raw `uint32[2]` array that JAX cannot tell from data:
    `key + 1` or `key[0]` silently corrupt it, and `jax.debug_key_reuse` does not track it.
    A typed key (`jax.random.key`, dtype `key<fry>`, shape `()`) rejects arithmetic and is
    checked for reuse. The random streams are identical. `PRNGKey` is legacy, not deprecated.
    Example:
        key = jax.random.PRNGKey(0)
        x = jax.random.normal(key, (3,))
    Use instead:
        key = jax.random.key(0)
        x = jax.random.normal(key, (3,))
    Fix: `PRNGKey(s)` -> `key(s)` (unsafe: the key's shape and dtype change, which breaks
    `key[0]`, `key.shape` checks, arithmetic, NumPy conversion and checkpoints of raw keys).
    Offered only when every use of the key is as the key argument of a `jax.random` function.
    """

    code = "JAX205"
    name = "legacy-prng-key"
    message = (
        "`{call}` creates a legacy raw uint32 key that JAX cannot tell from data (no reuse "
        "checking, arithmetic silently corrupts it); use the typed `jax.random.key({args})`"
    )
    fix_safety = "unsafe"
    verifier = "trace"
    verify = Verify(
        expect=("Legacy uint32 key array",),
        observe=("jax.random", "PRNGKey"),
        observe_confirms="uint32-key",
    )
    default = False
    tier = 2
    templates = ("training-step", "mre")
    examples = Examples(
        invalid=(
            """
            import jax

            key = jax.random.PRNGKey(0)  # error: JAX205
            x = jax.random.normal(key, (3,))
            """,
            """
            from jax.random import PRNGKey, split

            def init(seed):
                rng = PRNGKey(seed)  # error: JAX205
                return split(rng)[0]
            """,
        ),
        valid=(
            """
            import jax

            key = jax.random.key(0)
            x = jax.random.normal(key, (3,))
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def sample(seed):
                    key = jax.random.PRNGKey(seed)
                    k1, k2 = jax.random.split(key)
                    return jax.random.normal(k1), jax.random.normal(jax.random.PRNGKey(1))
                """,
                """
                import jax

                def sample(seed):
                    key = jax.random.key(seed)
                    k1, k2 = jax.random.split(key)
                    return jax.random.normal(k1), jax.random.normal(jax.random.key(1))
                """,
            ),
        ),
    )
    prefilter_words = KEY_FLOW_WORDS

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) != "jax.random.PRNGKey":
            return
        args = ", ".join(ctx.text(a) for a in [*node.args, *node.keywords])
        self.report(node, call=ctx.text(node), args=args, fix=self._fix(node, ctx))

    def _fix(self, node: ast.Call, ctx: Context):  # noqa: ANN202
        parent = syntax.parent(node)
        ok = isinstance(parent, ast.Call) and (
            (ctx.qualname(parent.func) or "").startswith("jax.random.")
            and key_argument(parent) is node
        )
        if (
            not ok
            and isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            name = parent.targets[0].id
            scope = ctx.index.scope_of(parent)
            bindings = scope.bindings.get(name, [])
            ok = len(bindings) == 1 and ctx.keys.only_key_uses(name, scope.node)
        if not ok:
            return None
        if isinstance(node.func, ast.Attribute):
            return self.fix(
                ctx.replace(node.func, ctx.text(node.func.value) + ".key"),
                message="Use the typed `jax.random.key`",
            )
        try:
            key_fn, edits = spell(ctx, "jax.random.key")
        except LookupError:
            return None
        return self.fix(ctx.replace(node.func, key_fn), *edits, message="Use `jax.random.key`")
