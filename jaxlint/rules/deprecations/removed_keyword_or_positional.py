"""JAX811 removed-keyword-or-positional: argument spellings JAX no longer accepts (a removed
keyword, a positional argument that became keyword-only, ...).
"""

from __future__ import annotations

import ast

from jaxlint.analysis.syntax import literal_ints
from jaxlint.core.diagnostic import Edit
from jaxlint.edits.imports import spell
from jaxlint.edits.rename import (
    drop_keyword_name,
    has_star,
    keyword_node,
    name_argument,
    parenthesized,
    rename_keyword,
)
from jaxlint.rules.base import Context, Examples, Rule

ARRAY_PRODUCERS = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.device_put")
KEY_PRODUCERS = frozenset(
    {
        "jax.random.key",
        "jax.random.PRNGKey",
        "jax.random.split",
        "jax.random.fold_in",
        "jax.random.wrap_key_data",
    }
)

# the removed array attributes `visit_Attribute` reports
_REMOVED_ATTRIBUTES = frozenset({"device_buffer", "device_buffers"})


class RemovedKeywordOrPositional(Rule):
    """Flags argument spellings that JAX no longer accepts.

    What it does: finds `jnp.clip(a=, a_min=, a_max=)`, `jnp.reshape(x, newshape=)`,
    `jnp.where(condition=, x=, y=)`, `jax.jit(fun=f)`, `jax.jit(f, 0)` (positional
    `static_argnums`), positional `copy`/`order`/`ndmin` in `jnp.array` (JAX >= 0.10.1; an
    error from 0.12), `jax.make_mesh(axis_shapes=)` (renamed `axis_sizes` in 0.11.1),
    `jax.checkpoint(concrete=)`, `jax.pure_callback(vectorized=)`, and on values known
    to be JAX arrays (bound from `jnp.*`/`jax.random.*`/`jax.device_put` calls, or parameters
    annotated `jax.Array`): `x.device()`, `x.device_buffer`, `x.device_buffers`, and
    `key.unsafe_raw_array()` on typed keys.
    Why is this bad: each raises in JAX 0.10.2 (`TypeError: clip() got an unexpected
    keyword argument 'a'`, `jit() takes from 0 to 1 positional arguments`,
    `TypeError: 'Device' object is not callable`, `AttributeError` for `device_buffer`), or
    warns (`jnp.array` positional `copy`, deprecated in 0.10.1).
    Example:
        y = jnp.clip(x, a_min=0.0, a_max=1.0)
        f = jax.jit(step, (1,))
        dev = x.device()
    Use instead:
        y = jnp.clip(x, min=0.0, max=1.0)
        f = jax.jit(step, static_argnums=(1,))
        dev = x.device
    Fix: the keyword rewrite (safe); `make_mesh(axis_shapes=s)` -> `make_mesh(s)` (safe: the
    positional form works on every JAX, either keyword fails on some). `concrete=` and
    `vectorized=`: none (the replacement is a design choice). Receivers that are not provably
    JAX arrays are left alone (`torch_tensor.device()` is fine).
    """

    silent_in_compat_code = True
    code = "JAX811"
    name = "removed-keyword-or-positional"
    message = "{detail}"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as np


            def prep(x):
                y = np.clip(x, a_min=0.0, a_max=1.0)  # error: JAX811
                z = np.reshape(y, newshape=(-1,))  # error: JAX811
                return np.where(condition=z > 0, x=z, y=0.0)  # error: JAX811


            step = jax.jit(prep, (0,))  # error: JAX811
            arr = np.array([1, 2], np.int32)
            dev = arr.device()  # error: JAX811
            buf = arr.device_buffer  # error: JAX811
            copied = np.array([1, 2], np.int32, False)  # error: JAX811
            """,
            """
            import jax


            def place(x: jax.Array):
                return x.device_buffers  # error: JAX811


            f = jax.jit(fun=place)  # error: JAX811
            """,
            """
            import jax

            mesh = jax.make_mesh(axis_shapes=(8,), axis_names=("x",))  # error: JAX811
            f = jax.checkpoint(lambda x: x, concrete=True)  # error: JAX811
            y = jax.pure_callback(abs, jax.ShapeDtypeStruct((), "float32"), 1.0, vectorized=True)  # error: JAX811
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            import torch


            t = torch.zeros(3)
            dev = t.device()
            a = np.clip(np.ones(3), a_min=0, a_max=1)
            b = jnp.clip(jnp.ones(3), min=0, max=1)
            c = jnp.reshape(b, shape=(3,))
            f = jax.jit(lambda x: x, static_argnums=(0,))
            d = jnp.array([1, 2], jnp.int32, copy=False)
            dev2 = d.device
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp


                def prep(x):
                    y = jnp.clip(a=x, a_min=0.0, a_max=1.0)
                    z = jnp.reshape(y, newshape=(-1,))
                    return jnp.where(z > 0, x=z, y=0.0, size=None)


                step = jax.jit(fun=prep)
                step2 = jax.jit(prep, 0)
                arr = jnp.array([1, 2], jnp.int32, False)
                dev = arr.device()
                buf = arr.device_buffer
                bufs = arr.device_buffers
                key = jax.random.key(0)
                raw = key.unsafe_raw_array()
                """,
                """
                import jax
                import jax.numpy as jnp


                def prep(x):
                    y = jnp.clip(x, min=0.0, max=1.0)
                    z = jnp.reshape(y, shape=(-1,))
                    return jnp.where(z > 0, z, 0.0, size=None)


                step = jax.jit(prep)
                step2 = jax.jit(prep, static_argnums=0)
                arr = jnp.array([1, 2], jnp.int32, copy=False)
                dev = arr.device
                buf = arr.addressable_data(0)
                bufs = [s.data for s in arr.addressable_shards]
                key = jax.random.key(0)
                raw = jax.random.key_data(key)
                """,
            ),
            (
                """
                import jax

                mesh = jax.make_mesh(axis_shapes=(1,), axis_names=("x",))
                """,
                """
                import jax

                mesh = jax.make_mesh((1,), axis_names=("x",))
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        func = node.func
        if q not in _CALLEES and not (
            type(func) is ast.Attribute and func.attr in _METHODS and not node.args
        ):
            return  # most calls: none of the callees below, nor `x.device()`
        if q == "jax.numpy.clip":
            self._clip(node, ctx)
        elif q == "jax.numpy.reshape":
            kw = keyword_node(node, "newshape")
            if kw is not None:
                self._emit(
                    node,
                    "`jnp.reshape(newshape=...)` was removed; use `shape=`",
                    [rename_keyword(ctx, kw, "shape")],
                )
        elif q == "jax.numpy.where":
            self._positional_only(node, ctx, ("condition", "x", "y"), "jnp.where")
        elif q == "jax.jit":
            self._jit(node, ctx)
        elif q == "jax.numpy.array":
            if len(node.args) > 2 and not has_star(node) and ctx.target.reaches("0.10.1"):
                names = ("copy", "order", "ndmin")
                edits = [name_argument(ctx, a, names[i]) for i, a in enumerate(node.args[2:5])]
                fixable = len(node.args) <= 5
                status = (
                    "raises `TypeError: array() takes from 1 to 2 positional arguments` from JAX 0.12"
                    if ctx.target.reaches("0.12")
                    else "is deprecated (JAX 0.10.1; an error from 0.12)"
                )
                self._emit(
                    node,
                    f"passing `copy`/`order`/`ndmin` to `jnp.array` positionally {status}; pass them by keyword",
                    edits if fixable else None,
                )
        elif q == "jax.make_mesh":
            self._make_mesh(node, ctx)
        elif q in ("jax.checkpoint", "jax.remat"):
            kw = keyword_node(node, "concrete")
            if kw is not None:
                self._emit(
                    node,
                    "`jax.checkpoint(concrete=...)` was removed (`NotImplementedError`; `TypeError` from JAX 0.11); drop it and mark the Python-value arguments with `static_argnums=`",
                    None,
                )
        elif q == "jax.pure_callback":
            kw = keyword_node(node, "vectorized")
            if kw is not None:
                self._emit(
                    node,
                    "`jax.pure_callback(vectorized=...)` was removed in JAX 0.6 (from 0.10 it is passed on to the callback and fails when the program runs); use `vmap_method=` ('sequential', 'expand_dims', 'broadcast_all')",
                    None,
                )
        elif isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
            attr = node.func.attr
            recv = node.func.value
            if attr == "device" and self._is_array(recv, ctx):
                self._emit(
                    node,
                    "`Array.device` is a property now; `x.device()` raises `TypeError: 'Device' object is not callable`",
                    [ctx.replace(node, ctx.text(node.func))],
                )
            elif attr == "unsafe_raw_array" and self._is_key(recv, ctx):
                try:
                    text, edits = spell(ctx, "jax.random.key_data")
                    fix = [ctx.replace(node, f"{text}({ctx.text(recv)})"), *edits]
                except LookupError:
                    fix = None
                self._emit(
                    node,
                    "`key.unsafe_raw_array()` was removed; use `jax.random.key_data(key)`",
                    fix,
                )

    def attribute_filter(self) -> frozenset[str] | None:
        return _REMOVED_ATTRIBUTES  # `visit_Attribute` returns at once for any other

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        if node.attr not in _REMOVED_ATTRIBUTES or not isinstance(node.ctx, ast.Load):
            return
        if not self._is_array(node.value, ctx):
            return
        recv = parenthesized(ctx, node.value)
        if node.attr == "device_buffer":
            new, msg = (
                f"{recv}.addressable_data(0)",
                "`x.device_buffer` was removed; use `x.addressable_data(0)`",
            )
        else:
            new = f"[s.data for s in {recv}.addressable_shards]"
            msg = "`x.device_buffers` was removed; use `[s.data for s in x.addressable_shards]`"
        self._emit(node, msg, [ctx.replace(node, new)])

    # -- cases ------------------------------------------------------------------------------
    def _make_mesh(self, node: ast.Call, ctx: Context) -> None:
        """`make_mesh(axis_shapes=...)`: the keyword was renamed `axis_sizes` in JAX 0.11.1 (a
        `TypeError` there); passing it positionally works on every JAX."""
        kw = keyword_node(node, "axis_shapes")
        if kw is None or has_star(node) or not ctx.target.reaches("0.11.1"):
            return
        first = not node.args and node.keywords[0] is kw
        self._emit(
            node,
            "`jax.make_mesh(axis_shapes=...)` raises `TypeError` from JAX 0.11.1 (the keyword is now `axis_sizes`); pass the sizes positionally, which every JAX accepts",
            [drop_keyword_name(ctx, kw)] if first else None,
        )

    def _emit(
        self, node: ast.AST, detail: str, edits: list[Edit] | None, safety: str | None = "safe"
    ) -> None:
        fix = (
            self.fix(*edits, safety=safety, message="Rewrite the arguments")  # type: ignore[arg-type]
            if edits and safety
            else None
        )
        self.report(node, detail=detail, fix=fix)

    def _clip(self, node: ast.Call, ctx: Context) -> None:
        old = [kw for kw in node.keywords if kw.arg in ("a", "a_min", "a_max")]
        if not old:
            return
        if not ctx.target.reaches("0.10") and all(kw.arg != "a" for kw in old):
            return  # JAX 0.6 accepts `a_min=`/`a_max=` silently (`a=` warns); 0.10 removed them
        edits: list[Edit] | None = []
        for kw in old:
            if kw.arg == "a":
                if node.args or node.keywords[0] is not kw:
                    edits = None
                    break
                edits.append(drop_keyword_name(ctx, kw))
            else:
                edits.append(rename_keyword(ctx, kw, kw.arg[2:]))  # type: ignore[index]
        # `min=`/`max=` exist from JAX 0.4.27 (0.4.26 raises `TypeError: clip() got an
        # unexpected keyword argument 'max'`): safe only when every target JAX has them
        # (coax targets `jax>=0.3.25`; new-user review 4)
        self._emit(
            node,
            "`jnp.clip(a=..., a_min=..., a_max=...)` keywords were removed in JAX 0.10.0; use `jnp.clip(x, min=..., max=...)`",
            edits,
            ctx.target.availability("0.4.27"),
        )

    def _positional_only(
        self, node: ast.Call, ctx: Context, params: tuple[str, ...], name: str
    ) -> None:
        given = [kw for kw in node.keywords if kw.arg in params]
        if not given or has_star(node):
            return
        k = len(node.args)
        expected = list(params[k : k + len(given)])
        in_order = [kw.arg for kw in node.keywords[: len(given)]] == expected
        edits = [drop_keyword_name(ctx, kw) for kw in given] if in_order else None
        self._emit(
            node,
            f"`{name}` takes {', '.join(f'`{p}`' for p in params)} positionally only; pass them without keywords",
            edits,
        )

    def _jit(self, node: ast.Call, ctx: Context) -> None:
        if has_star(node):
            return
        fun = keyword_node(node, "fun")
        if fun is not None:
            ok = not node.args and node.keywords[0] is fun
            self._emit(
                node,
                "`jax.jit(fun=...)` raises `TypeError`: the function is positional-only; pass it first without `fun=`",
                [drop_keyword_name(ctx, fun)] if ok else None,
            )
        elif len(node.args) > 1:
            ok = (
                len(node.args) == 2
                and literal_ints(node.args[1])
                and keyword_node(node, "static_argnums") is None
            )
            self._emit(
                node,
                "`jax.jit` takes only the function positionally (`TypeError: jit() takes from 0 to 1 positional arguments`); pass `static_argnums=` by keyword",
                [name_argument(ctx, node.args[1], "static_argnums")] if ok else None,
            )

    # -- evidence ------------------------------------------------------------------------------
    def _bound_call(self, node: ast.AST, ctx: Context) -> str | None:
        """Qualified name of the call that produced `node` (directly or via one binding)."""
        if isinstance(node, ast.Call):
            return ctx.qualname(node.func)
        if isinstance(node, ast.Name):
            b = ctx.index.binding(node.id, ctx.index.scope_of(node))
            if b is None:
                return None
            if b.kind == "assign" and isinstance(b.value, ast.Call):
                return ctx.qualname(b.value.func)
            if b.kind == "param" and isinstance(b.node, ast.arg) and b.node.annotation is not None:
                ann = ctx.qualname(b.node.annotation)
                return "jax.Array" if ann == "jax.Array" else None
        return None

    def _is_array(self, node: ast.AST, ctx: Context) -> bool:
        q = self._bound_call(node, ctx)
        return q is not None and (q == "jax.Array" or q.startswith(ARRAY_PRODUCERS))

    def _is_key(self, node: ast.AST, ctx: Context) -> bool:
        return self._bound_call(node, ctx) in KEY_PRODUCERS


# the callees `visit_Call` looks at, and the methods called with no argument
_CALLEES = frozenset(
    {
        "jax.numpy.clip",
        "jax.numpy.reshape",
        "jax.numpy.where",
        "jax.jit",
        "jax.numpy.array",
        "jax.make_mesh",
        "jax.checkpoint",
        "jax.remat",
        "jax.pure_callback",
    }
)
_METHODS = frozenset({"device", "unsafe_raw_array"})
