"""JAX2xx: PRNG key discipline."""

from __future__ import annotations

import ast

from jaxlint.analysis.keys import Reuse, key_argument
from jaxlint.fixers.imports import name_is_free, spell
from jaxlint.rules.base import Context, Examples, Rule


class PrngKeyReuse(Rule):
    """Flags a PRNG key consumed twice.

    What it does: follows each key variable through the function: two consumptions (samplers
    such as `normal`/`uniform`, or `split`) on one path without a rebinding in between, a
    consumption inside a loop of a key that the loop never rebinds, and a `scan`/`fori_loop`
    body that consumes a key it closes over. Mutually exclusive branches are fine, and so is
    `fold_in(key, i)`. Keys passed to helpers of the same module that consume them count.
    Why is this bad: JAX keys are explicit state. Reusing one gives identical (or correlated)
    random numbers, silently: `normal(k)` and `normal(k)` are equal, `bernoulli(k, .5)` equals
    `uniform(k) < .5`. `jax.debug_key_reuse(True)` raises `KeyReuseError` at run time.
    Example:
        noise = jax.random.normal(key, (3,))
        mask = jax.random.bernoulli(key, 0.5, (3,))
    Use instead:
        key, k1, k2 = jax.random.split(key, 3)
        noise = jax.random.normal(k1, (3,))
        mask = jax.random.bernoulli(k2, 0.5, (3,))
    Fix: insert `key, subkey = jax.random.split(key)` before the first use and draw from
    `subkey` (unsafe: the random numbers change).
    """

    code = "JAX201"
    name = "prng-key-reuse"
    message = "{detail}; reusing a key gives identical or correlated random numbers: split it (`{name}, sub = jax.random.split({name})`)"
    fix_safety = "unsafe"
    verifier = "keycheck"
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            def sample(key):
                a = jax.random.normal(key, (3,))
                b = jax.random.uniform(key, (3,))  # error: JAX201
                return a, b
            """,
            """
            import jax

            key = jax.random.key(0)
            xs = []
            for _ in range(10):
                xs.append(jax.random.normal(key))  # error: JAX201
            """,
            """
            from jax import random as jr

            def init(key, shape):
                return jr.normal(key, shape)

            def make(key):
                w = init(key, (3, 3))
                b = jr.normal(key, (3,))  # error: JAX201
                return w, b
            """,
            """
            import jax
            from jax import lax

            def run(key, xs):
                def body(carry, x):
                    noise = jax.random.normal(key)  # error: JAX201
                    return carry + noise * x, None
                return lax.scan(body, 0.0, xs)
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    x = jax.random.normal(key)
                else:
                    x = 0.0
                return x + jax.random.uniform(key)  # error: JAX201
            """,
        ),
        valid=(
            """
            import jax

            def sample(key):
                key, sub = jax.random.split(key)
                a = jax.random.normal(sub, (3,))
                key, sub = jax.random.split(key)
                b = jax.random.uniform(sub, (3,))
                return a, b
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    return jax.random.normal(key)
                return jax.random.uniform(key)
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    x = jax.random.normal(key)
                else:
                    x = jax.random.uniform(key)
                return x
            """,
            """
            import jax

            base = jax.random.key(0)
            for i in range(5):
                k = jax.random.fold_in(base, i)
                x = jax.random.normal(k)
            """,
            """
            import jax

            key = jax.random.key(0)
            for _ in range(3):
                key, sub = jax.random.split(key)
                x = jax.random.normal(sub)
            """,
            """
            import jax

            def f(key):
                k1, k2 = jax.random.split(key)
                return jax.random.normal(k1), jax.random.normal(k2)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def sample(key):
                    a = jax.random.normal(key, (3,))
                    b = jax.random.uniform(key, (3,))
                    return a, b
                """,
                """
                import jax

                def sample(key):
                    key, subkey = jax.random.split(key)
                    a = jax.random.normal(subkey, (3,))
                    b = jax.random.uniform(key, (3,))
                    return a, b
                """,
            ),
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for reuse in ctx.keys.reuses:
            self._report(reuse, ctx)

    def _report(self, reuse: Reuse, ctx: Context) -> None:
        fn = ctx.qualname(reuse.node.func) or "a consumer"
        short = fn.replace("jax.random.", "")
        if reuse.kind == "twice":
            first = reuse.first
            first_fn = (ctx.qualname(first.func) or ctx.text(first.func)).replace("jax.random.", "")  # type: ignore[union-attr]
            detail = (
                f"key `{reuse.name}` is consumed twice (`{first_fn}` on line {first.lineno}, "  # type: ignore[union-attr]
                f"then `{short}`)"
            )
            fix = self._fix(reuse, ctx)
        elif reuse.kind == "loop":
            detail = (
                f"key `{reuse.name}` is consumed by `{short}` in every iteration of the loop on "
                f"line {reuse.loop.lineno} but never rebound there"  # type: ignore[union-attr]
            )
            fix = None
        else:
            detail = (
                f"key `{reuse.name}` is closed over by a loop body (`{getattr(reuse.loop, 'name', 'lambda')}`) "
                f"and consumed by `{short}` on every iteration"
            )
            fix = None
        self.report(reuse.node, detail=detail, name=reuse.name, fix=fix)

    def _fix(self, reuse: Reuse, ctx: Context):  # noqa: ANN202
        first = reuse.first
        if first is None:
            return None
        stmt = _statement_of(first)
        second_stmt = _statement_of(reuse.node)
        if stmt is None or second_stmt is None or _parent(stmt) is not _parent(second_stmt):
            return None
        arg = key_argument(first)
        if not isinstance(arg, ast.Name):
            return None
        sub = "subkey"
        n = 1
        while not name_is_free(ctx, sub):
            sub = f"subkey{n}"
            n += 1
        try:
            split, edits = spell(ctx, "jax.random.split")
        except LookupError:
            return None
        indent = ctx.line_indent(stmt.lineno)
        line_start = ctx.start(stmt).__class__(stmt.lineno, 0)
        name = reuse.name
        insert = ctx.insert(
            line_start, f"{indent}{name}, {sub} = {split}({name}){ctx.source.newline}"
        )
        return self.fix(
            insert, ctx.replace(arg, sub), *edits, message="Split the key before the first use"
        )


def _parent(node: ast.AST) -> ast.AST | None:
    return getattr(node, "jl_parent", None)


def _statement_of(node: ast.AST) -> ast.stmt | None:
    cur: ast.AST | None = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = _parent(cur)
    if cur is None:
        return None
    # only a statement that starts its own line can take an inserted line before it
    return cur if isinstance(cur, ast.stmt) else None


HOST_RNG_PREFIXES = ("numpy.random.", "random.")
GENERATOR_FACTORIES = {
    "numpy.random.default_rng",
    "numpy.random.RandomState",
    "numpy.random.Generator",
}


class HostRngInTraced(Rule):
    """Flags `numpy.random` / Python `random` inside traced functions.

    What it does: finds calls to `np.random.*`, NumPy `Generator` methods and the `random`
    module inside a function that JAX traces.
    Why is this bad: the host RNG runs once, at trace time; its result is baked into the
    compiled program as a constant, so every call returns the same "random" numbers.
    Host-side data loaders and `pure_callback` bodies are fine.
    Example:
        @jax.jit
        def add_noise(x):
            return x + np.random.normal(size=x.shape)
    Use instead:
        @jax.jit
        def add_noise(x, key):
            return x + jax.random.normal(key, x.shape)
    No automatic fix: the function needs a key argument.
    """

    code = "JAX204"
    name = "host-rng-in-traced"
    message = "`{call}` in a traced function runs once at trace time and is baked in as a constant ({why}); use `jax.random` with an explicit key"
    verifier = "retrace-cmp"
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax
            import numpy as np

            @jax.jit
            def add_noise(x):
                return x + np.random.normal(size=x.shape)  # error: JAX204
            """,
            """
            import jax
            import random

            @jax.vmap
            def jitter(x):
                return x * random.random()  # error: JAX204
            """,
            """
            import jax
            import numpy as np

            rng = np.random.default_rng(0)

            @jax.jit
            def f(x):
                return x + rng.normal()  # error: JAX204
            """,
        ),
        valid=(
            """
            import jax
            import numpy as np

            def loader(n):
                rng = np.random.default_rng(0)
                return rng.normal(size=(n, 3))

            @jax.jit
            def f(x, key):
                return x + jax.random.normal(key, x.shape)
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        fn = ctx.function
        if fn is None or not fn.is_jit:
            return
        q = ctx.qualname(node.func)
        call = None
        if q and q.startswith(HOST_RNG_PREFIXES) and q not in GENERATOR_FACTORIES:
            call = q.replace("numpy.", "np.")
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            b = ctx.index.binding(node.func.value.id, ctx.index.scope_of(node.func.value))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                if ctx.qualname(b.value.func) in GENERATOR_FACTORIES:
                    call = ctx.text(node.func)
        if call:
            why = fn.describe()
            self.report(node, call=call, why=why)
