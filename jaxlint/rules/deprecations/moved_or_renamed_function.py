"""JAX810 moved-or-renamed-function: functions that moved, were renamed, or lost their old
spelling, with the call rewritten where the new signature differs.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.values import Kind
from jaxlint.core.diagnostic import Position
from jaxlint.edits.rename import argument_of, has_star, parenthesized
from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Context, Examples
from jaxlint.rules.deprecations._calls import call_of


def end_of_arguments(ctx: Context, call: ast.Call) -> Position | None:
    """Where `, extra=...` goes: after the last argument."""
    last = [*call.args, *call.keywords]
    if not last:
        return None
    return max((ctx.end(n) for n in last), default=None)


_KEY_IMPLS = {"threefry2x32_key": "threefry2x32", "rbg_key": "rbg", "unsafe_rbg_key": "unsafe_rbg"}
_XLA_TRANSLATIONS = "register an MLIR lowering (`jax.interpreters.mlir.register_lowering`)"


# `jax.ops.index_*(x, jax.ops.index[idx], y)` -> `x.at[idx].<op>(y)` (removed in JAX 0.3.2)
_OPS_INDEX_UPDATES = {
    "index_update": "set",
    "index_add": "add",
    "index_mul": "multiply",
    "index_min": "min",
    "index_max": "max",
}


class MovedOrRenamedFunction(RenameRule):
    """Flags functions that moved, were renamed, or lost their old spelling.

    What it does: finds `jax.experimental.enable_x64/disable_x64`,
    `jax.ad_checkpoint.checkpoint/remat`, `jax.lax.pvary`, `jax.lax.zeros_like_array`,
    `jax.lax.tie_in`, `jax.host_count/host_id`, `jax.ops.index_update/index_add/...` and
    `jax.ops.index`, `jax.random.shuffle`, `jax.experimental.pjit.with_sharding_constraint`,
    `jax.interpreters.xla.canonicalize_dtype`, `jax.random.threefry2x32_key/rbg_key/
    unsafe_rbg_key`, `jax.scipy.special.sph_harm`, and the ones without a drop-in
    (`jax.clear_backends`, `jax.xla_computation`, `jax.dlpack.to_dlpack`,
    `jax.interpreters.xla.translations`, `jax.scipy.special.lpmn`, ...), `jax.custom_remat`
    (only in 0.11), `jax.lax.psend` / `precv` (deprecated in 0.12) and `jax.lax.dce_sink_p`.
    Why is this bad: all but `host_count`/`host_id` (which warn) and `lpmn` (deprecated)
    raise `AttributeError` in JAX 0.10.2.
    Example:
        with jax.experimental.enable_x64():
            y = jax.ad_checkpoint.checkpoint(f)(x)
    Use instead:
        with jax.enable_x64(True):
            y = jax.checkpoint(f)(x)
    Fix: rename (safe), with the argument changes where the new function differs:
    `enable_x64()` -> `jax.enable_x64(True)`, `disable_x64()` -> `jax.enable_x64(False)`,
    `pvary(x, a)` -> `pcast(x, a, to="varying")`, `tie_in(a, b)` -> `b`,
    `jax.ops.index_update(x, jax.ops.index[i], y)` -> `x.at[i].set(y)` (`add`, `multiply`,
    `min`, `max`; unsafe when `x` may not be a JAX array, none for a NumPy array: no `.at`),
    `threefry2x32_key(s)` -> `jax.random.key(s, impl="threefry2x32")` (safe; `jax.enable_x64`
    needs JAX 0.8 and `pcast` 0.8.2: for older targets no fix, the old spelling is right);
    `sph_harm(m, n, theta, phi)` -> `sph_harm_y(n, m, phi, theta)` (unsafe: degree/order and
    the two angles swap places, following SciPy; check your angle convention). The rest:
    none (the message names the replacement).
    """

    code = "JAX810"
    name = "moved-or-renamed-function"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    templates = ("export",)
    RENAMES = {
        "jax.experimental.enable_x64": Move(
            "jax.enable_x64", call="_x64_call", expr="{new}(True)", removed="0.10?", since="0.8"
        ),
        "jax.experimental.disable_x64": Move(
            "jax.enable_x64", call="_x64_call", expr="{new}(False)", removed="0.10?", since="0.8"
        ),
        "jax.ad_checkpoint.checkpoint": Move("jax.checkpoint", removed="0.10"),
        "jax.ad_checkpoint.remat": Move("jax.remat", removed="0.10"),
        "jax.lax.pvary": Move(
            "jax.lax.pcast",
            call="_pvary_call",
            expr='{new}(x, axis_name, to="varying")',
            removed="0.10",
            since="0.8.2",
        ),
        "jax.lax.zeros_like_array": Move("jax.numpy.zeros_like", removed="0.10"),
        "jax.lax.tie_in": Move(
            "b", call="_tie_in_call", expr="{new}", note="`tie_in(a, b)` is `b`"
        ),
        "jax.host_count": Move("jax.process_count", status="is a deprecated alias"),
        "jax.host_id": Move("jax.process_index", status="is a deprecated alias"),
        "jax.experimental.pjit.with_sharding_constraint": Move("jax.lax.with_sharding_constraint"),
        "jax.interpreters.xla.canonicalize_dtype": Move(
            "jax.dtypes.canonicalize_dtype", removed="0.10?"
        ),
        **{
            f"jax.random.{old}": Move(
                "jax.random.key", call="_impl_key_call", expr=f'{{new}}(seed, impl="{impl}")'
            )
            for old, impl in _KEY_IMPLS.items()
        },
        "jax.scipy.special.sph_harm": Move(
            "jax.scipy.special.sph_harm_y",
            "unsafe",
            "degree/order and the angles swap places",
            call="_sph_harm_call",
            expr="{new}(n, m, phi, theta)",
            removed="0.10",
        ),
        "jax.scipy.special.lpmn": Move(None, None, "no replacement is planned", deprecated="0.6"),
        "jax.scipy.special.lpmn_values": Move(
            None, None, "no replacement is planned", deprecated="0.6"
        ),
        "jax.clear_backends": Move(
            None,
            None,
            "use `jax.clear_caches()` (caches only) or `jax.extend.backend.clear_backends()`",
        ),
        "jax.xla_computation": Move(None, None, "use `jax.jit(f).lower(*args).compiler_ir('hlo')`"),
        "jax.dlpack.to_dlpack": Move(
            None,
            None,
            "pass the array itself: it implements `__dlpack__`",
            deprecated="0.6",
            removed="0.10?",
        ),
        "jax.random.default_prng_impl": Move(None, None, "read `jax.config.jax_default_prng_impl`"),
        **{
            f"jax.interpreters.xla.{n}": Move(
                None, None, "use `jax.typeof`", deprecated="0.6", removed="0.10?"
            )
            for n in ("abstractify", "pytype_aval_mappings")
        },
        "jax.interpreters.xla.xla_call_p": Move(None, None, "use `jax.jit`"),
        "jax.interpreters.xla.translations": Move(None, None, _XLA_TRANSLATIONS),
        "jax.interpreters.xla.backend_specific_translations": Move(None, None, _XLA_TRANSLATIONS),
        "jax.interpreters.ad.reducing_transposes": Move(
            None, None, "unused since JAX 0.4.38", removed="0.10"
        ),
        "jax.interpreters.batching.NotMapped": Move(
            None, None, "no public replacement", removed="0.10?"
        ),
        "jax.custom_remat": Move(
            None,
            None,
            "it existed only in JAX 0.11.x; use `jax.checkpoint` (or `jax.custom_vjp`)",
            removed="0.12",
            introduced="0.11",
        ),
        "jax.lax.dce_sink_p": Move(
            None,
            None,
            "an internal primitive; no public replacement",
            removed="0.11",
            introduced="0.10",
        ),
        **{
            f"jax.lax.{n}": Move(
                None,
                None,
                "JAX 0.12 names no replacement; pin JAX or restructure",
                deprecated="0.12",
                introduced="0.10",
            )
            for n in ("psend", "precv")
        },
        # removed before every JAX jaxlint supports, still met in old research code
        **{
            f"jax.ops.{n}": Move(
                f"x.at[idx].{op}(y)",
                note="the `.at` property",
                call="_ops_index_call",
                removed="0.3.2",
            )
            for n, op in _OPS_INDEX_UPDATES.items()
        },
        "jax.ops.index": Move(None, None, "index inside `x.at[...]` directly", removed="0.3.2"),
        "jax.random.shuffle": Move(
            None, None, "use `jax.random.permutation(key, x, axis, independent=True)`"
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            x = jax.ops.index_update(jnp.zeros(3), jax.ops.index[0], 1.0)  # error: JAX810
            y = jax.random.shuffle(jax.random.key(0), x)  # error: JAX810
            """,
            """
            import jax
            from jax.experimental import enable_x64  # error: JAX810

            with enable_x64():  # error: JAX810
                y = jax.ad_checkpoint.checkpoint(jax.numpy.sin)(1.0)  # error: JAX810
            n = jax.host_count()  # error: JAX810
            """,
            """
            from jax import lax
            from jax.scipy.special import sph_harm  # error: JAX810


            def body(x):
                return lax.pvary(x, "i") * 2  # error: JAX810


            y = sph_harm(0, 1, 0.3, 0.7)  # error: JAX810
            """,
        ),
        valid=(
            """
            import jax

            with jax.enable_x64(True):
                y = jax.checkpoint(jax.numpy.sin)(1.0)
            n = jax.process_count()
            z = jax.lax.pcast(1.0, "i", to="varying") if False else 0
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax import lax

                with jax.experimental.enable_x64():
                    y = jax.ad_checkpoint.remat(jax.numpy.sin)(1.0)
                with jax.experimental.disable_x64():
                    k = jax.random.threefry2x32_key(0)


                def body(x, t):
                    return lax.pvary(x, "i") + lax.tie_in(t, x + 1)
                """,
                """
                import jax
                from jax import lax

                with jax.enable_x64(True):
                    y = jax.remat(jax.numpy.sin)(1.0)
                with jax.enable_x64(False):
                    k = jax.random.key(0, impl="threefry2x32")


                def body(x, t):
                    return lax.pcast(x, "i", to="varying") + (x + 1)
                """,
            ),
            (
                """
                from jax.ad_checkpoint import checkpoint
                from jax.experimental import enable_x64

                with enable_x64():
                    f = checkpoint(abs)
                """,
                """
                from jax import checkpoint
                import jax

                with jax.enable_x64(True):
                    f = checkpoint(abs)
                """,
            ),
            (
                """
                import jax
                import jax.numpy as jnp
                from jax.ops import index, index_add

                x = jnp.zeros(3)
                y = jax.ops.index_update(x, jax.ops.index[0], 1.0)
                z = index_add(x + 1, index[1:], 2.0)
                """,
                """
                import jax
                import jax.numpy as jnp

                x = jnp.zeros(3)
                y = x.at[0].set(1.0)
                z = (x + 1).at[1:].add(2.0)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax


                def bump(a):
                    return jax.ops.index_add(a, 0, 1.0)
                """,
                """
                import jax


                def bump(a):
                    return a.at[0].add(1.0)
                """,
            ),
            (
                """
                import jax.numpy as jnp
                import jax.scipy.special as jss

                m, n = jnp.array([1]), jnp.array([2])
                azimuth, polar = jnp.array([0.3]), jnp.array([0.7])
                y = jss.sph_harm(m, n, azimuth, polar, n_max=4)
                """,
                """
                import jax.numpy as jnp
                import jax.scipy.special as jss

                m, n = jnp.array([1]), jnp.array([2])
                azimuth, polar = jnp.array([0.3]), jnp.array([0.7])
                y = jss.sph_harm_y(n, m, polar, azimuth, n_max=4)
                """,
            ),
        ),
    )

    def _x64_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call) or len(call.args) + len(call.keywords) > 1:
            return None
        enable = ctx.qualname(ref) == "jax.experimental.enable_x64"
        if call.keywords and call.keywords[0].arg != "new_val":
            return None
        given = call.args[0] if call.args else (call.keywords[0].value if call.keywords else None)
        if given is None:
            value = "True" if enable else "False"
        elif enable:  # `enable_x64(new_val=True)`
            value = ctx.text(given)
        else:
            return None  # `disable_x64()` took no arguments
        return [ctx.replace(call, f"{target}({value})")], "safe"

    def _pvary_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call) or len(call.args) + len(call.keywords) != 2:
            return None
        end = end_of_arguments(ctx, call)
        return [ctx.replace(ref, target), ctx.insert(end, ', to="varying"')], "safe"  # type: ignore[arg-type]

    def _ops_index_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        """`jax.ops.index_update(x, idx, y)` -> `x.at[idx].set(y)` (`add`, `multiply`, `min`,
        `max` for the others), with `jax.ops.index[i]` unwrapped to `i`: the three operands
        are evaluated in the same order as before, and `.at[...]` takes the same indices.
        Unsafe unless `x` is proven a JAX array (`index_update(np.zeros(3), ...)` worked)."""
        call = call_of(ref)
        if call is None or len(call.args) != 3 or call.keywords or has_star(call):
            return None
        x, idx, y = call.args
        op = _OPS_INDEX_UPDATES[(ctx.qualname(ref) or "").rpartition(".")[2]]
        if isinstance(idx, ast.Subscript) and ctx.qualname(idx.value) == "jax.ops.index":
            where = ctx.text(idx.slice)
        else:
            where = ctx.text(idx)
        text = f"{parenthesized(ctx, x)}.at[{where}].{op}({ctx.text(y)})"
        # `index_update` took any array-like; `.at` is a JAX array's own (a NumPy array, a
        # list or a number has none): safe for an operand the value kinds prove a JAX array,
        # none for one they prove something else, unsafe when they do not know
        kind = ctx.facts.values.of(x)
        if kind in (Kind.ARRAY, Kind.KEY):
            return [ctx.replace(call, text)], "safe"
        if kind is not Kind.UNKNOWN:
            return None
        return [ctx.replace(call, text)], "unsafe"

    def _tie_in_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or len(call.args) != 2 or call.keywords or has_star(call):
            return None
        if not isinstance(call.args[0], (ast.Name, ast.Attribute, ast.Constant)):
            return None  # evaluating `a` could have effects
        return [ctx.replace(call, parenthesized(ctx, call.args[1]))], "safe"

    def _impl_key_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or len(call.args) != 1 or call.keywords or has_star(call):
            return None
        impl = _KEY_IMPLS[(ctx.qualname(ref) or "").rpartition(".")[2]]
        return [
            ctx.replace(ref, target),
            ctx.insert(ctx.end(call.args[0]), f', impl="{impl}"'),
        ], "safe"

    def _sph_harm_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call) or len(call.args) > 4:
            return None
        names = ("m", "n", "theta", "phi")
        got = {name: argument_of(call, i, name) for i, name in enumerate(names)}
        if any(v is None for v in got.values()):
            return None
        rest = [kw for kw in call.keywords if kw.arg not in names]
        if any(kw.arg != "n_max" for kw in rest):
            return None
        order = ("n", "m", "phi", "theta")
        args = [ctx.text(got[k]) for k in order] + [ctx.text(kw) for kw in rest]  # type: ignore[arg-type]
        return [ctx.replace(call, f"{target}({', '.join(args)})")], "unsafe"
