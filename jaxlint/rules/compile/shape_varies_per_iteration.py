"""shape-varies-per-iteration (JAX404): a jitted call in a loop whose argument shape
follows the loop variable (a growing slice, `zeros(i)`, a list that grows): jit
specializes on shapes, so every new shape compiles again.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.graph import DefKind
from jaxlint.analysis.hoisting import few_steps
from jaxlint.analysis.jit_sites import jitted_callee
from jaxlint.analysis.loops import list_grows_per_step, loop_varying_names
from jaxlint.analysis.syntax import contains
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.compile._text import shorten

SHAPE_CONSTRUCTORS = frozenset(
    {
        "jax.numpy.zeros",
        "jax.numpy.ones",
        "jax.numpy.empty",
        "jax.numpy.full",
        "jax.numpy.arange",
        "jax.numpy.eye",
        "numpy.zeros",
        "numpy.ones",
        "numpy.empty",
        "numpy.full",
        "numpy.arange",
        "numpy.eye",
    }
)

NUM_CONSTRUCTORS = frozenset(
    f"{m}.{f}" for m in ("jax.numpy", "numpy") for f in ("linspace", "logspace", "geomspace")
)


def keyword_value(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _varying_shape(
    ctx: Context, arg: ast.expr, varying: frozenset[str], loop: ast.AST, call: ast.Call
) -> str | None:
    """Why `arg`'s shape changes with the step, or None."""
    if isinstance(arg, ast.Subscript):
        slices = arg.slice.elts if isinstance(arg.slice, ast.Tuple) else [arg.slice]
        for s in slices:
            if not isinstance(s, ast.Slice) or s.step is not None:
                continue
            lo = s.lower is not None and _mentions_any(s.lower, varying)
            hi = s.upper is not None and _mentions_any(s.upper, varying)
            if lo != hi:  # one end moves, the other stays: the length changes
                return f"`{shorten(ctx, arg)}` is sliced by the loop variable"
        return None
    if isinstance(arg, ast.Call):
        q = ctx.qualname(arg.func)
        if q in SHAPE_CONSTRUCTORS and q.endswith(".arange") and len(arg.args) >= 2:
            # arange(start, stop): a window when both ends move (`arange(i, min(n, i + 128))`,
            # the same length but at the tail), a new length when only one does
            lo, hi = (_mentions_any(a, varying) for a in arg.args[:2])
            if lo != hi:
                return f"`{shorten(ctx, arg)}` has a length that follows the loop variable"
            return None
        if q in SHAPE_CONSTRUCTORS and arg.args and _mentions_any(arg.args[0], varying):
            return f"`{shorten(ctx, arg)}` has a shape that follows the loop variable"
        if q in NUM_CONSTRUCTORS:  # linspace(start, stop, num): the length is `num`
            num = arg.args[2] if len(arg.args) > 2 else keyword_value(arg, "num")
            if num is not None and _mentions_any(num, varying):
                return f"`{shorten(ctx, arg)}` has a length that follows the loop variable"
        return None
    if isinstance(arg, ast.Name):
        values = _assignments_in(ctx, loop, arg)
        if len(values) == 1 and values[0] is not None:
            inner = _varying_shape(ctx, values[0], varying, loop, call)
            if inner is not None:
                return f"`{arg.id}` = {inner}"
        if not values and list_grows_per_step(loop, arg.id):
            return f"the Python list `{arg.id}` grows every step (one input per element)"
    return None


def _shape_part(ctx: Context, arg: ast.expr, loop: ast.AST, call: ast.Call) -> ast.AST:
    """The part of `arg` its shape follows: the slice of `x[:n]` (not `x`, whose values may
    change too), the arguments of `zeros(n)`; through a name's one assignment in the loop."""
    if isinstance(arg, ast.Name):
        values = _assignments_in(ctx, loop, arg)
        if len(values) == 1 and values[0] is not None:
            return _shape_part(ctx, values[0], loop, call)
    if isinstance(arg, ast.Subscript):
        return arg.slice
    if isinstance(arg, ast.Call):
        return ast.Tuple(elts=[*arg.args, *(k.value for k in arg.keywords)], ctx=ast.Load())
    return arg


def _mentions_any(node: ast.AST, names: frozenset[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _assignments_in(ctx: Context, loop: ast.AST, name: ast.Name) -> list[ast.expr | None]:
    """The values a load of `name` in `loop` may hold when bound in the loop, as the flow
    graph says: the right-hand side of each reaching `name = value` of the loop body (None
    for any other binding: a tuple target, `+=`, a `for` target), when only bindings of the
    step reach. Empty when a binding from before the loop reaches too (a list the loop
    appends to, perhaps reset after the call: `list_grows_per_step` decides); [None, None]
    when unknown."""
    defs = ctx.facts.flow.reaching(name)
    if defs is None:
        return [None, None]
    inside = [
        d for d in defs if d.node is not None and d.node is not loop and contains(loop, d.node)
    ]
    if len(inside) != len(defs):
        return []  # the value of before the loop, or of the last step (a reset after the call)
    out: list[ast.expr | None] = []
    for d in inside:
        node = d.node
        if (
            d.kind is DefKind.BIND
            and isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            out.append(node.value)
        else:
            out.append(None)
    return out


class ShapeVariesPerIteration(Rule):
    """Flags a jitted call whose argument shapes change in every step of a loop.

    What it does: in a `for`/`while` loop calling a function jitted in this module, flags an
    argument sliced with one bound following the loop variable (`x[:i]`, `x[i:]`), an array
    built with a shape from the loop variable (`jnp.zeros(i)`, `np.linspace(a, b, i)`), or a
    Python list that the loop keeps appending to. Fixed-width windows (`x[i:i + 32]`) are fine.
    Why is this bad: a jitted function is specialized on input shapes; every new shape (and
    every new list length: a list is one input per element) traces and compiles again
    (8 shapes: 8 compiles).
    Example:
        for i in range(1, len(tokens)):
            logits = model(params, tokens[:i])
    Use instead:
        # pad to a fixed length (or a few bucket sizes) and pass the length / a mask
        padded = jnp.zeros(max_len, tokens.dtype).at[: len(tokens)].set(tokens)
        for i in range(1, len(tokens)):
            logits = model(params, padded, i)
    Fix: none (padding or bucketing changes the function).
    """

    code = "JAX404"
    tier = 3
    name = "shape-varies-per-iteration"
    message = "argument shape changes {where} ({why}): `{fn}` traces and compiles again for every new shape; pad or bucket to a few fixed shapes"
    verifier = "compiles"
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def likelihood(mu, opponent_mus):
                return jnp.sum(jax.nn.log_sigmoid(mu - opponent_mus))

            for n_opponents in range(1, 50):
                opponent_mus = np.linspace(-1.0, 1.0, n_opponents)
                ll = likelihood(0.0, opponent_mus)  # error: JAX404
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def model(params, tokens):
                return (params * tokens.sum()).sum()

            def generate(params, tokens):
                for i in range(1, tokens.shape[0]):
                    logits = model(params, tokens[:i])  # error: JAX404
                return logits
            """,
            """
            from jax import jit
            import jax.numpy as jnp

            def cumulative(x):
                return jnp.cumsum(x)[-1]

            f = jit(cumulative)

            def run(xs, n):
                history = []
                step = 0
                while step < n:
                    chunk = xs[step:]
                    a = f(chunk)  # error: JAX404
                    history.append(a)
                    b = f(history)  # error: JAX404
                    step += 1
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def step(params, batch):
                return (params * batch).sum()

            def train(params, data, batch_size):
                for i in range(0, data.shape[0], batch_size):
                    loss = step(params, data[i : i + batch_size])  # fixed width
                    loss = step(params, data[:batch_size])  # loop-invariant slice
                return loss
            """,
            """
            import jax
            import jax.numpy as jnp

            def pad_to(n):
                def deco(f):
                    def wrapped(x):
                        return f(jnp.pad(x, (0, n - x.shape[0])))[: x.shape[0]]
                    return wrapped
                return deco

            @pad_to(16)  # decides the shapes jit sees (big_vision's pad_shard_unpad)
            @jax.jit
            def add(x):
                return x + 1

            def run():
                for bs in range(1, 9):
                    y = add(jnp.arange(bs))
                return y
            """,
            """
            import jax.numpy as jnp

            def plain(x):
                return x.sum()

            def run(x):
                for i in range(1, 10):
                    y = plain(x[:i])  # not jitted here
                return y
            """,
            """
            import jax

            @jax.jit
            def predict(w, x):
                return x @ w

            def round_trip(w, x):
                for rows in (5, 3):  # two shapes on purpose: two compiles
                    y = predict(w, x[:rows])
                for n in [1, 2, 4, 8, 16]:  # a size sweep, spelled out
                    y = predict(w, x[:n])
                return y
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        spec = jitted_callee(ctx.facts, node)
        if spec is None:
            return
        step = ctx.facts.loops.per_step(node)
        if step is None or step.traced or not step.direct or few_steps(step):
            return
        if step.over_written_values:
            return  # `for n in [1, 2, 4, 8]`: the shapes are spelled out on purpose
        varying = loop_varying_names(step.loop, index=ctx.index)
        static = {id(a) for _, a in spec.static_arguments(node)}
        found: list[tuple[ast.expr, str]] = []
        for arg in [*node.args, *(kw.value for kw in node.keywords)]:
            if id(arg) in static or isinstance(arg, ast.Starred):
                continue
            why = _varying_shape(ctx, arg, varying, step.loop, node)
            if why is not None and not step.values_repeat(_shape_part(ctx, arg, step.loop, node)):
                found.append((arg, why))
        if found:  # one finding per call: one call compiles once per new set of shapes
            whys = "; ".join(dict.fromkeys(why for _, why in found))  # `f(x[:i], x[:i])`: once
            self.report(found[0][0], where=step.describe(), why=whys, fn=spec.name)
