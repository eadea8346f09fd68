"""host-data-conversion-in-loop (JAX407): `jnp.array`/`jnp.asarray`/`device_put` of
the same host data (a list, a NumPy array) in every step of a loop: the same
host-to-device copy repeats. The fix converts once, before the loop.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.hoisting import few_steps, literal_numbers, movable_above
from jaxlint.analysis.loops import PerStep, benchmark_loop
from jaxlint.analysis.syntax import parent, statement_of
from jaxlint.edits.hoist import fresh_name, hoist_expression, hoist_statement
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.compile._text import shorten
from jaxlint.rules.compile._values import NOT_ARRAY_CALLS

CONVERSIONS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.device_put"})


def _host_data(ctx: Context, arg: ast.expr) -> str | None:
    """A description when `arg` is certainly host data (a list or a NumPy array)."""
    if ctx.facts.values.holds_arrays(arg):
        return None  # a list of device arrays: stacked on the device
    if isinstance(arg, (ast.List, ast.ListComp)):
        return "a Python list"
    if isinstance(arg, ast.Call):
        q = ctx.qualname(arg.func)
        if q and q.startswith("numpy.") and q not in NOT_ARRAY_CALLS:
            return "a NumPy array"
        if q == "list":
            return "a Python list"
        return None
    if isinstance(arg, ast.Name):
        b = ctx.index.binding(arg.id, ctx.index.scope_of(arg))
        if b is not None and b.kind == "assign" and b.value is not None and b.value is not arg:
            inner = _host_data(ctx, b.value)
            if inner is not None:
                return f"`{arg.id}`, {inner}"
        if b is not None and b.kind == "param" and isinstance(b.node, ast.arg):
            kind = _host_annotation(ctx, b.node.annotation)
            if kind is not None:
                return f"`{arg.id}`, {kind}"
    return None


def _host_annotation(ctx: Context, ann: ast.expr | None) -> str | None:
    if isinstance(ann, ast.Subscript):
        ann = ann.value
    if ann is None:
        return None
    q = ctx.qualname(ann)
    if q in ("list", "typing.List"):
        return "a Python list"
    if q in ("numpy.ndarray", "numpy.typing.NDArray"):
        return "a NumPy array"
    return None


class HostDataConversionInLoop(Rule):
    """Flags converting the same host data to a device array in every step of a loop.

    What it does: finds `jnp.array(...)`, `jnp.asarray(...)` or `jax.device_put(...)` of a
    Python list or a NumPy array inside a `for`/`while` loop (or a function the loop calls
    every step) when the converted value cannot change between steps: nothing it reads is
    rebound or mutated by the loop.
    Why is this bad: every step copies the same data from host to device again, and list
    conversion is slow (50 steps of a 256x64 list: 4.3 s versus 1.7 ms device-resident).
    Example:
        for step in range(n):
            w = train_step(w, jnp.array(batch_list))
    Use instead:
        batch = jnp.array(batch_list)   # once, outside the loop
        for step in range(n):
            w = train_step(w, batch)
    Fix: hoist the conversion before the loop (safe when it runs unconditionally in the loop
    body; unsafe when it sits under a condition, where hoisting may raise an error the loop
    would not have reached). Not offered for functions called per step.
    """

    code = "JAX407"
    tier = 3
    name = "host-data-conversion-in-loop"
    message = "`{call}` converts {what} to a device array {where}, although it is the same every step: convert it once, before the loop"
    fix_safety = "safe"
    verifier = "transfers"
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            @jax.jit
            def train_step(w, batch):
                return w - 0.01 * (batch @ w)

            def train(w, batch_list: list[list[float]], n):
                for step in range(n):
                    w = train_step(w, jnp.array(batch_list))  # error: JAX407
                return w

            TABLE = np.linspace(0.0, 1.0, 64)

            def lookup(i):
                return jnp.asarray(TABLE)[i]  # error: JAX407

            def run(n):
                return [lookup(i) for i in range(n)]
            """,
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            def evaluate(params, xs):
                weights = np.ones(3)
                while params.sum() > 0:
                    w = jax.device_put(weights)  # error: JAX407
                    params = params - w
                return params
            """,
            """
            import jax.numpy as jnp

            def apply(fn):
                return fn  # not a jit wrapper: `paint` runs eagerly

            def paint(videos):
                for key in videos:
                    videos[key] = videos[key] + jnp.array([0, 255, 0])  # error: JAX407
                return videos

            paint_fn = apply(paint)
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            def apply(fn):
                return jax.jit(fn)  # the project's own jit wrapper (dreamerv3 transform.apply)

            def report(videos):
                # unrolled at trace time: the constant is folded into the program
                for key in videos:
                    videos[key] = videos[key] + jnp.array([0, 255, 0])
                return videos

            report_fn = apply(report)
            """,
            """
            import numpy as np
            import jax.numpy as jnp

            def train(w, batches):
                for batch in batches:
                    x = jnp.asarray(batch)  # a new batch every step
                    w = w - x.mean()
                return w

            def stream(w, n):
                buf = np.zeros(3)
                for i in range(n):
                    buf[0] = i  # mutated in the loop
                    w = w + jnp.asarray(buf)
                return w

            SCALE = jnp.asarray([1.0, 2.0, 3.0])  # NM26: once, at setup

            def make_batch():
                return {"x": jnp.array([[1.0, 2.0]]), "y": jnp.array([0.0])}  # a data factory

            def check_all(cases):
                for case in cases:
                    assert case(make_batch())
            """,
            """
            import numpy as np
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                for _ in range(4):
                    x = x + jnp.array([1.0, 2.0])  # traced: a constant, no transfer per call
                return x

            def run(xs, table):
                for x in xs:
                    x = x + jnp.asarray(table)  # unknown type: may already be on device
                return x
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp

                def train(w, batch_list: list, n):
                    for step in range(n):
                        batch = jnp.array(batch_list)  # host -> device
                        w = w - 0.01 * batch.mean()
                    return w
                """,
                """
                import jax.numpy as jnp

                def train(w, batch_list: list, n):
                    batch = jnp.array(batch_list)  # host -> device
                    for step in range(n):
                        w = w - 0.01 * batch.mean()
                    return w
                """,
            ),
            (
                """
                import numpy as np
                import jax.numpy as jnp

                def run(xs):
                    out = []
                    for x in xs:
                        out.append(x * jnp.asarray([1.0, 2.0, 3.0]))
                    return out
                """,
                """
                import numpy as np
                import jax.numpy as jnp

                def run(xs):
                    out = []
                    const_array = jnp.asarray([1.0, 2.0, 3.0])
                    for x in xs:
                        out.append(x * const_array)
                    return out
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import numpy as np
                import jax.numpy as jnp

                def run(xs, table):
                    host = np.asarray(table, np.float32)
                    for x in xs:
                        if x.sum() > 0:
                            x = x + jnp.asarray(host)
                    return x
                """,
                """
                import numpy as np
                import jax.numpy as jnp

                def run(xs, table):
                    host = np.asarray(table, np.float32)
                    host_device = jnp.asarray(host)
                    for x in xs:
                        if x.sum() > 0:
                            x = x + host_device
                    return x
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) not in CONVERSIONS or not node.args:
            return
        what = _host_data(ctx, node.args[0])
        if what is None:
            return
        step = ctx.facts.loops.per_step(node)
        if (
            step is None
            or step.traced
            or few_steps(step, cost="small-transfer" if literal_numbers(node.args[0]) else "costly")
            or not step.invariant(node)
            or not step.every_step(node)  # on some steps only: the cost does not add up
            or benchmark_loop(ctx.index, step.loop)  # the conversion is part of what it times
        ):
            return
        if len(step.calls) > 1 or (not step.direct and _returned(node)):
            return  # a data factory (`return {"w": jnp.array([...])}`), or far from the loop
        self.report(
            node,
            call=shorten(ctx, node),
            what=what,
            where=step.describe(),
            fix=self._fix(ctx, node, step),
        )

    def _fix(self, ctx: Context, node: ast.Call, step: PerStep):  # noqa: ANN202
        loop = step.loop_statement
        if not step.direct or loop is None:
            return None
        stmt = statement_of(node)
        if stmt is None:
            return None
        safety = "safe" if parent(stmt) is loop and any(s is stmt for s in loop.body) else "unsafe"
        if (
            isinstance(stmt, ast.Assign)
            and stmt.value is node
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            name = stmt.targets[0].id
            if safety == "safe" and movable_above(ctx.index, stmt, name, loop):
                edits = hoist_statement(ctx, stmt, loop)
                if edits is not None:
                    return self.fix(*edits, safety=safety, message="Convert once, before the loop")
        arg = node.args[0]
        stem = f"{arg.id}_device" if isinstance(arg, ast.Name) else "const_array"
        edits = hoist_expression(ctx, node, loop, fresh_name(ctx, stem))
        if edits is None:
            return None
        return self.fix(*edits, safety=safety, message="Convert once, before the loop")


def _returned(node: ast.AST) -> bool:
    """`node` is the function's result, or part of a container literal it returns."""
    cur = parent(node)
    while isinstance(cur, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
        cur = parent(cur)
    return isinstance(cur, (ast.Return, ast.Yield))
