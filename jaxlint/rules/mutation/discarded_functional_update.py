"""JAX504: a functional update whose result is thrown away (`x.at[i].set(v)` as a statement).

JAX arrays and optax/dataclass updates return a new value instead of changing their input, so a
discarded result is a lost update; calls run for their error (`pytest.raises`) or inside a timed
benchmark are left alone.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.cells import displayed
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors
from jaxlint.analysis.values import Kind, assigned_value
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.mutation._updates import _at_base, _short

# methods of a JAX array with an effect (everything else returns a new value)
ARRAY_EFFECT_METHODS = frozenset(
    {"block_until_ready", "copy_to_host_async", "delete", "item", "tolist", "__array__"}
)
PURE_UPDATES = frozenset({"optax.apply_updates", "optax.incremental_update", "dataclasses.replace"})
ERROR_PROBES = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})
CLOCK_WORDS = ("time.", "timeit.")


def _probing_errors(stmt: ast.stmt) -> bool:
    """Inside `with pytest.raises(...)` / `assertRaises` or a `try` with handlers: the call
    is run for the error it raises, not for its value."""
    child: ast.AST = stmt
    for anc in ancestors(stmt):
        if isinstance(anc, (ast.With, ast.AsyncWith)):
            for item in anc.items:
                expr = item.context_expr
                func = expr.func if isinstance(expr, ast.Call) else expr
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ERROR_PROBES:
                    return True
        if isinstance(anc, ast.Try) and anc.handlers and child in anc.body:
            return True
        if isinstance(anc, FUNCTION_NODES):
            return False
        child = anc
    return False


def _in_test(ctx: Context, stmt: ast.stmt) -> bool:
    """A test module (`test_*.py`, `*_test.py`, `conftest.py`) or a `test*` function."""
    base = ctx.path.replace("\\", "/").rsplit("/", 1)[-1]
    if base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py":
        return True
    return any(
        isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)) and a.name.startswith("test")
        for a in ancestors(stmt)
    )


def _benchmark_context(ctx: Context, stmt: ast.stmt) -> bool:
    """The function (or module) reads a clock: a discarded result there is a warm-up or a
    timed call, which JAX601/JAX602 look after."""
    owner = ctx.index.enclosing_function(stmt) or ctx.index.tree
    for call in ctx.index.calls:
        if ctx.index.enclosing_function(call) is (None if owner is ctx.index.tree else owner):
            q = ctx.qualname(call.func) or ""
            if q.startswith(CLOCK_WORDS):
                return True
    return False


class DiscardedFunctionalUpdate(Rule):
    """Flags a functional update whose result is thrown away.

    What it does: finds expression statements that compute a new value and drop it:
    `x.at[i].set(v)` (any `.at[...]` update), a method of a JAX array (`x.sort()`,
    `x.clip(0, 1)`), a `jnp.*` function applied to a variable (`jnp.append(x, v)`),
    `optax.apply_updates(params, updates)`, `state.replace(step=...)` /
    `dataclasses.replace(...)` on a pytree dataclass, and `optimizer.update(...)` of an
    optax transformation. Calls run for the error they raise (`with pytest.raises(...)`, a
    `try` body), calls in tests (test modules and `test*` functions call things to see that
    they run) and warm-up calls in timing code are left alone.
    Why is this bad: JAX arrays and pytree dataclasses are immutable; these calls return a
    new value and leave `x` unchanged, so the update is silently lost (NumPy habits such as
    `x.sort()` or `x[i] = v` rewritten as `x.at[i].set(v)` without the assignment).
    Example:
        x = jnp.zeros(3)
        x.at[0].set(1.0)
    Use instead:
        x = jnp.zeros(3)
        x = x.at[0].set(1.0)
    Fix: assign the result back (`x = x.at[i].set(v)`, `state = state.replace(...)`,
    `params = optax.apply_updates(params, u)`, `x = x.sort()`) when the updated value is a
    plain name: safe for `.at[...]` updates, `optax`/`dataclasses` functions and methods of a
    proven JAX array; unsafe for `.replace(...)` on a receiver of unknown type (its `replace`
    may work in place and return None); none for other `jnp` functions and array methods
    (which name receives the result is the author's choice).
    """

    code = "JAX504"
    name = "discarded-functional-update"
    message = (
        "`{call}` returns a new value and leaves {target} unchanged ({why}); the result is "
        "thrown away: {advice}"
    )
    fix_safety = "safe"
    verifier = "numeric"
    verify = Verify(changes_result=True)
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            x.at[0].set(1.0)  # error: JAX504
            """,
            """
            import jax
            import optax

            @jax.jit
            def step(params, updates):
                optax.apply_updates(params, updates)  # error: JAX504
                return params
            """,
            """
            from flax import struct

            @struct.dataclass
            class State:
                step: int

            def advance(state):
                state.replace(step=state.step + 1)  # error: JAX504
                return state

            s = advance(State(step=0))
            """,
            """
            import jax.numpy as jnp

            def normalize(scores):
                s = jnp.asarray(scores)
                s.sort()  # error: JAX504
                return s
            """,
        ),
        valid=(
            """
            import jax.numpy as jnp
            import numpy as np
            import pytest

            x = jnp.zeros(3)
            x = x.at[0].set(1.0)
            h = np.zeros(3)
            h.sort()
            "a-b".replace("-", "+")

            def test_out_of_bounds():
                with pytest.raises(TypeError):
                    x.at[0].set("a")
            """,
            """
            import time
            import jax.numpy as jnp

            def bench(a, b):
                jnp.dot(a, b).block_until_ready()  # warm-up
                t0 = time.perf_counter()
                jnp.dot(a, b).block_until_ready()
                return time.perf_counter() - t0
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp

                x = jnp.zeros(3)
                x.at[0].set(1.0)
                """,
                """
                import jax.numpy as jnp

                x = jnp.zeros(3)
                x = x.at[0].set(1.0)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax.numpy as jnp
                from flax import struct

                @struct.dataclass
                class State:
                    step: jnp.ndarray

                s = State(step=jnp.zeros(()))
                s.replace(step=s.step + 1)
                step = s.step
                """,
                """
                import jax.numpy as jnp
                from flax import struct

                @struct.dataclass
                class State:
                    step: jnp.ndarray

                s = State(step=jnp.zeros(()))
                s = s.replace(step=s.step + 1)
                step = s.step
                """,
            ),
        ),
    )

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        call = node.value
        if not isinstance(call, ast.Call):
            return
        found = self._update(call, ctx)
        if found is None:
            return
        target, why = found
        if displayed(ctx.index.tree, ctx.source, ctx.path, node):
            return  # a cell's last expression is displayed, not thrown away (analysis/cells.py)
        if _probing_errors(node) or _in_test(ctx, node):
            return  # tests call things for the error they raise (or to see that none is)
        if why in ("array method", "jnp") and _benchmark_context(ctx, node):
            return
        fix = None
        # assigning back is what the statement meant only for updates of their receiver (or
        # first argument); `jnp.dot(a, b)` assigned to `a` would change what `a` is
        if (
            isinstance(target, ast.Name)
            and (
                why in ("at", "pure", "replace")
                or (why == "array method" and _method(call) == "sort")
            )
            and not _loop_variable(node, target.id)  # the new value would be lost (JAX505)
        ):
            fix = self.fix(
                ctx.replace(node, f"{target.id} = {ctx.text(call)}"),
                safety=_assign_back_safety(why, target, ctx),
                message="Assign the result back",
            )
        if target is None:  # an optax transformation's update
            name, advice = "the optimizer state", "keep it (`updates, opt_state = ...`)"
        else:
            name = f"`{ctx.text(target)}`"
            advice = f"assign it (`{_short(ctx.text(target))} = ...`)"
        self.report(
            node, call=_short(ctx.text(call)), target=name, why=WHY_504[why], advice=advice, fix=fix
        )

    def _update(self, call: ast.Call, ctx: Context) -> tuple[ast.AST | None, str] | None:
        base = _at_base(call)
        if base is not None:
            return base, "at"
        q = ctx.qualname(call.func)
        if q in PURE_UPDATES and call.args:
            return call.args[0], "pure"
        func = call.func
        values = ctx.facts.values
        if q and q.startswith("jax.numpy.") and call.args and isinstance(call.args[0], ast.Name):
            if values.of(call) == Kind.ARRAY and values.of(call.args[0]) in (
                Kind.ARRAY,
                Kind.UNKNOWN,
            ):
                return call.args[0], "jnp"
            return None
        if not isinstance(func, ast.Attribute):
            return None
        receiver = func.value
        if func.attr in ("replace", "_replace") and call.keywords and not call.args:
            if all(k.arg is not None for k in call.keywords):
                if ctx.facts.calls.in_place_method(call):
                    return None  # the class's own `replace` changes the object and returns None
                return receiver, "replace"
        if (
            func.attr not in ARRAY_EFFECT_METHODS
            and isinstance(receiver, (ast.Name, ast.Attribute, ast.Subscript))
            and values.of(receiver) == Kind.ARRAY
        ):
            # a value someone could have meant to update: `jnp.sqrt(x).mean()` thrown away
            # is an unused result, not a lost update of a temporary
            return receiver, "array method"
        if func.attr == "update" and isinstance(receiver, ast.Name):
            value = assigned_value(ctx.index, receiver)
            if isinstance(value, ast.Call) and (ctx.qualname(value.func) or "").startswith(
                "optax."
            ):
                return None, "optax"
        return None


def _assign_back_safety(why: str, target: ast.Name, ctx: Context) -> str:
    """Assigning back is safe only when the call certainly returns the updated value: a
    resolved pure function (`optax.apply_updates`, `dataclasses.replace`), a method of a
    proven JAX array, or an `.at[...]` update on a value not known to be something else.
    `obj.replace(k=v)` on a receiver of unknown type may update in place and return None
    (a config object), and `obj = None` breaks the code that follows."""
    kind = ctx.facts.values.of(target)
    if why == "pure" or (why == "array method" and kind == Kind.ARRAY):
        return "safe"
    if why == "at" and kind in (Kind.ARRAY, Kind.UNKNOWN):
        return "safe"
    return "unsafe"


def _loop_variable(stmt: ast.stmt, name: str) -> bool:
    """`name` is the target of a `for` loop around `stmt` (in the same function)."""
    for anc in ancestors(stmt):
        if isinstance(anc, FUNCTION_NODES):
            return False
        if isinstance(anc, (ast.For, ast.AsyncFor)) and any(
            isinstance(n, ast.Name) and n.id == name for n in ast.walk(anc.target)
        ):
            return True
    return False


def _method(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


WHY_504 = {
    "at": "JAX arrays are immutable: `.at[...]` updates return a copy",
    "pure": "it is a pure function",
    "jnp": "`jax.numpy` functions are pure",
    "array method": "JAX arrays are immutable",
    "replace": "`.replace` on a pytree dataclass returns a new instance",
    "optax": "optax transformations are pure: `update` returns `(updates, new_state)`",
}
