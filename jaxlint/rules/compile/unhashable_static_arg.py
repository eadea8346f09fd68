"""unhashable-static-arg (JAX402): a list, dict, set, array or mutable dataclass
passed at a static position of a jitted function. Static arguments are cache keys
and must hash; the call raises before tracing. The fix turns lists into tuples and
sets into frozensets.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.jit_sites import has_method, jitted_callee, local_class
from jaxlint.analysis.values import assigned_value
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.compile._values import NOT_ARRAY_CALLS

ARRAY_MODULE_PREFIXES = ("numpy.", "jax.numpy.", "jax.random.")


def _unhashable(ctx: Context, arg: ast.expr) -> tuple[str, str | None] | None:
    """(what, replacement text) when `arg` certainly builds an unhashable value."""
    if isinstance(arg, ast.List):
        return "a list", _list_to_tuple(ctx, arg)
    if isinstance(arg, ast.ListComp):
        text = ctx.text(arg)
        return "a list", f"tuple({text[1:-1]})"
    if isinstance(arg, ast.Set):
        return "a set", f"frozenset({ctx.text(arg)})"
    if isinstance(arg, (ast.Dict, ast.DictComp)):
        return "a dict", None
    if isinstance(arg, ast.SetComp):
        return "a set", f"frozenset({ctx.text(arg)})"
    if isinstance(arg, ast.Call):
        q = ctx.qualname(arg.func)
        if q and q.startswith(ARRAY_MODULE_PREFIXES) and q not in NOT_ARRAY_CALLS:
            if q.startswith("numpy.") and q.count(".") == 1 and q.split(".")[1][:1].isupper():
                return None
            return f"an array (`{q.rsplit('.', 1)[-1]}(...)`)", None
        if q in ("list", "dict", "set", "bytearray"):
            return f"a {q}", None
        cls = local_class(ctx.index, arg.func)
        if cls is not None and _mutable_dataclass(ctx, cls):
            return f"a non-frozen dataclass (`{cls.name}`)", None
    if isinstance(arg, ast.Name):
        value = assigned_value(ctx.index, arg)
        if isinstance(
            value, (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)
        ):
            what = _unhashable(ctx, value)
            if what is not None:
                return f"{what[0]} (`{arg.id}`)", None
    return None


def _list_to_tuple(ctx: Context, node: ast.List) -> str:
    text = ctx.text(node)
    inner = text[1:-1]
    if len(node.elts) == 1 and not inner.rstrip().endswith(","):
        stripped = inner.rstrip()
        inner = stripped + "," + inner[len(stripped) :]
    return f"({inner})"


def _mutable_dataclass(ctx: Context, cls: ast.ClassDef) -> bool:
    """`@dataclass` without `frozen=True`/`unsafe_hash=True`/`eq=False`: `__hash__` is None."""
    for dec in cls.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if ctx.qualname(target) not in ("dataclasses.dataclass", "dataclass"):
            continue
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                if kw.arg in ("frozen", "unsafe_hash") and not (
                    isinstance(kw.value, ast.Constant) and kw.value.value is False
                ):
                    return False
                if (
                    kw.arg == "eq"
                    and isinstance(kw.value, ast.Constant)
                    and kw.value.value is False
                ):
                    return False
                if kw.arg is None:
                    return False
        return not has_method(cls, "__hash__")
    return False


class UnhashableStaticArg(Rule):
    """Flags an unhashable value passed at a static position of a jitted function.

    What it does: for calls of a function jitted in this module with `static_argnums` /
    `static_argnames` (decorator, `partial(jax.jit, ...)`, or `f = jax.jit(g, ...)`), flags a
    list, dict or set (literal, comprehension, or a name bound to one), a NumPy/JAX array or a
    non-frozen dataclass instance at a static position.
    Why is this bad: static arguments are part of the compilation cache key and must be
    hashable; the call raises `ValueError: Non-hashable static arguments are not supported`
    before anything is traced.
    Example:
        @partial(jax.jit, static_argnums=1)
        def f(x, shape):
            return jnp.broadcast_to(x, shape)
        f(x, [2, 3])
    Use instead:
        f(x, (2, 3))        # or a frozen dataclass / NamedTuple for configurations
    Fix: a list literal or comprehension becomes a tuple, a set a `frozenset` (safe: the
    original call always raises, and both compare and hash by value); dicts and arrays have
    no fix.
    """

    code = "JAX402"
    tier = 2
    name = "unhashable-static-arg"
    message = "static argument `{param}` of `{fn}` gets {what}, which is not hashable: the call raises `ValueError: Non-hashable static arguments are not supported`; pass a tuple (or a frozen dataclass)"
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(expect=("Non-hashable static arguments", "unhashable type"))
    examples = Examples(
        invalid=(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=1)
            def broadcast(x, shape):
                return jnp.broadcast_to(x, shape)

            y = broadcast(jnp.ones(3), [2, 3])  # error: JAX402
            """,
            """
            import numpy as np
            import jax

            def pad(x, widths):
                return x

            pad_jit = jax.jit(pad, static_argnames="widths")

            def run(x):
                a = pad_jit(x, widths={"left": 1})  # error: JAX402
                return pad_jit(x, np.array([1, 2]))  # error: JAX402
            """,
            """
            from jax import jit

            @jit(static_argnames=("axes",))
            def total(x, axes):
                return x.sum(axes)

            AXES = [0, 1]
            s = total(1.0, AXES)  # error: JAX402
            """,
        ),
        valid=(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=1)
            def broadcast(x, shape):
                return jnp.broadcast_to(x, shape)

            y = broadcast(jnp.ones(3), (2, 3))
            z = broadcast([1.0, 2.0], (2, 2))  # position 0 is traced: a list is a pytree
            """,
            """
            import dataclasses
            import jax

            @dataclasses.dataclass(frozen=True)
            class Config:
                depth: int

            @jax.jit
            def f(x, cfg):
                return x

            g = jax.jit(f, static_argnums=1)
            g(1.0, Config(2))
            f(1.0, [1, 2])  # no static arguments here
            """,
        ),
        fixes=(
            (
                """
                from functools import partial
                import jax
                import jax.numpy as jnp

                @partial(jax.jit, static_argnames=("shape", "axes"))
                def f(x, shape, axes):
                    return jnp.broadcast_to(x, shape).sum(axes)

                y = f(jnp.ones(3), shape=[2, 3], axes=[0])
                z = f(jnp.ones(3), [2, 3], {0, 1})
                """,
                """
                from functools import partial
                import jax
                import jax.numpy as jnp

                @partial(jax.jit, static_argnames=("shape", "axes"))
                def f(x, shape, axes):
                    return jnp.broadcast_to(x, shape).sum(axes)

                y = f(jnp.ones(3), shape=(2, 3), axes=(0,))
                z = f(jnp.ones(3), (2, 3), frozenset({0, 1}))
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        spec = jitted_callee(ctx.facts, node)
        if spec is None or spec.unknown_static:
            return
        for param, arg in spec.static_arguments(node):
            found = _unhashable(ctx, arg)
            if found is None:
                continue
            what, replacement = found
            fix = self.fix(ctx.replace(arg, replacement)) if replacement else None
            self.report(arg, param=param, fn=spec.name, what=what, fix=fix)
