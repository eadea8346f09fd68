"""unrolled-python-loop-in-traced (JAX405): a long Python `for ... in range(N)` with
JAX work inside a jitted function. Tracing unrolls it into N copies of the body, so
trace and compile time grow with N; `lax.fori_loop`/`lax.scan` keep one copy.
"""

from __future__ import annotations

import ast
import re

from jaxlint.analysis.jax_api import JIT_FACTORIES
from jaxlint.analysis.syntax import all_params, bind_arguments, param_defaults
from jaxlint.rules.base import Context, Examples, Rule

DEFAULT_UNROLL_THRESHOLD = 32
STRUCTURAL_COUNT = re.compile(
    r"layer|head|block|stage|depth|level|tower|stack|group", re.IGNORECASE
)
ARRAY_OP_PREFIXES = ("jax.", "equinox.", "flax.", "optax.")


def _int_value(ctx: Context, node: ast.AST | None) -> int | None:
    """An int known statically (analysis/constants.py: literals, simple arithmetic, module
    constants of this module and of the project modules it imports)."""
    return ctx.facts.constants.int_value(node)


def _trip_count(ctx: Context, call: ast.Call) -> int | None:
    args = call.args
    if call.keywords or not 1 <= len(args) <= 3:
        return None
    values = [_int_value(ctx, a) for a in args]
    if any(v is None for v in values):
        return None
    if len(values) == 1:
        return max(values[0], 0)  # type: ignore[type-var]
    start, stop = values[0], values[1]
    step = values[2] if len(values) == 3 else 1
    if not step:
        return None
    return max(len(range(start, stop, step)), 0)  # type: ignore[arg-type]


class UnrolledPythonLoopInTraced(Rule):
    """Flags a long Python `for` loop inside a jitted function.

    What it does: in a traced (jit-like) function, flags `for ... in range(N)` whose body runs
    JAX operations, when `N` is a literal (or module constant) of at least 32 iterations
    (option `unroll-threshold`), or a static argument of the function whose default or a
    call in the module passes such a count (a count known nowhere, or only from values the
    module cannot read, such as a config field, stays silent: it may be 2). Loops over a few
    layers are fine. `range(x.shape[0])` over a traced array is reported at medium confidence:
    the shape is static, so the loop unrolls, but its size is not known here (read in context
    on fresh sets, most such loops ran over 3 or 4 rows: v34 AbaloneMCTS x8, v38 FORESEE x8).
    Why is this bad: tracing runs the Python loop, so the program gets N copies of the body:
    trace and compile time grow linearly (N=1000: 3000 jaxpr equations and ~4 s to compile,
    versus 1 equation and ~25 ms with `fori_loop`).
    Example:
        @jax.jit
        def f(x):
            for i in range(1000):
                x = jnp.sin(x) * 0.99 + 0.01 * i
            return x
    Use instead:
        @jax.jit
        def f(x):
            return jax.lax.fori_loop(0, 1000, lambda i, x: jnp.sin(x) * 0.99 + 0.01 * i, x)
    Fix: none (the body must become a pure function of `(i, carry)` with fixed shapes;
    `break`, side effects and shape-changing carries prevent it). See `jaxlint template scan`.
    """

    code = "JAX405"
    traced_evidence = True
    tier = 2
    name = "unrolled-python-loop-in-traced"
    message = "this Python loop {count} is unrolled when `{fn}` is traced: trace and compile time grow with every iteration; use `jax.lax.fori_loop` or `jax.lax.scan`"
    verifier = "lower"
    templates = ("scan",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                for i in range(1000):  # error: JAX405
                    x = jnp.sin(x) * 0.99 + 0.01 * i
                return x
            """,
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            NUM_STEPS = 64

            def integrate(x, dt):
                for _ in range(NUM_STEPS):  # error: JAX405
                    x = x + dt * jnp.tanh(x)
                return x

            @partial(jax.jit, static_argnames="n")
            def simulate(x, n):
                for t in range(n):  # error: JAX405
                    x = x - 0.1 * jnp.cos(x + t)
                return integrate(x, 0.01)

            simulate(jnp.ones(3), n=100)
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def per_example(x, w):
                out = []
                for i in range(x.shape[0]):  # error: JAX405
                    out.append(jnp.tanh(x[i] @ w))
                return jnp.stack(out)

            def integrate(x, n_steps):
                for _ in range(n_steps):  # error: JAX405
                    x = x + 0.01 * jnp.tanh(x)
                return x

            @jax.jit
            def simulate(x):
                return integrate(x, 1000)
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            def train_network(x):
                for i in range(10_000):  # only vmapped: runs step by step, nothing unrolled
                    x = jnp.sin(x) + 0.01 * i
                return x

            batched = jax.vmap(train_network)(jnp.ones((4, 3)))
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def mlp(params, x):
                for w in params:  # a few layers: a small unroll is fine
                    x = jnp.tanh(x @ w)
                for _ in range(3):
                    x = jnp.sin(x)
                return x

            def host_loop(x):
                for i in range(10_000):  # not traced
                    x = jnp.sin(x)
                return x
            """,
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnames="depth")
            def tower(x, depth=4):
                for _ in range(depth):  # small static depth
                    x = jnp.tanh(x)
                return x

            @partial(jax.jit, static_argnames="num_layers")
            def stack(x, w, num_layers):
                for i in range(num_layers):  # a few layers, unrolled on purpose
                    x = jnp.tanh(x @ w[i])
                return x

            @jax.jit
            def shapes(x):
                names = []
                for i in range(100):  # no JAX work in the body
                    names.append(f"layer{i}")
                return x
            """,
        ),
    )

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        it = node.iter
        if not (isinstance(it, ast.Call) and ctx.qualname(it.func) == "range"):
            return
        fn = ctx.function
        if fn is None or not fn.is_jit or ctx.facts.traced.runs_op_by_op(fn):
            return
        if not _has_jax_work(ctx, node):
            return
        threshold = _threshold(ctx)
        count = _trip_count(ctx, it)
        if count is not None:
            if count >= threshold:
                self.report(node.iter, count=f"({count} iterations)", fn=fn.name)
            return
        static = _static_bound(ctx, it, fn, threshold)
        if static is not None:
            self.report(node.iter, count=f"(`{static}` iterations, a static argument)", fn=fn.name)
            return
        shape = _shape_bound(ctx, it)
        if shape is not None:
            self.report(
                node.iter,
                count=f"(`{shape}` iterations, a static shape)",
                fn=fn.name,
                confidence="medium",  # unrolled, but of a size nothing here shows
            )
            return
        passed = _helper_bound(ctx, it, fn, threshold)
        if passed is not None:
            self.report(node.iter, count=f"({passed})", fn=fn.name)


def _range_bound(it: ast.Call) -> ast.expr | None:
    """N of `range(N)` or `range(0, N)`."""
    if it.keywords:
        return None
    if len(it.args) == 1:
        return it.args[0]
    if len(it.args) == 2 and isinstance(it.args[0], ast.Constant) and it.args[0].value == 0:
        return it.args[1]
    return None


def _shape_bound(ctx: Context, it: ast.Call) -> str | None:
    """`range(x.shape[0])` (or `jnp.shape(x)[0]`, or a name assigned once from it) over a
    traced array `x`: tracing unrolls one copy per row (issue 24, "unrolled loops")."""
    bound = _range_bound(it)
    if isinstance(bound, ast.Name):
        b = ctx.index.binding(bound.id, ctx.index.scope_of(it))
        if b is None or b.kind != "assign" or b.value is None:
            return None
        shown, bound = bound.id, b.value
    else:
        shown = None
    if not (isinstance(bound, ast.Subscript) and isinstance(bound.slice, ast.Constant)):
        return None
    if bound.slice.value != 0:
        return None  # a trailing axis: often a handful of features or coordinates
    shape = bound.value
    if isinstance(shape, ast.Attribute) and shape.attr == "shape":
        array = shape.value
    elif (
        isinstance(shape, ast.Call)
        and ctx.qualname(shape.func) in ("jax.numpy.shape", "numpy.shape")
        and shape.args
    ):
        array = shape.args[0]
    else:
        return None
    if not isinstance(array, ast.Name) or STRUCTURAL_COUNT.search(array.id):
        return None  # stacked layers / heads: a few, unrolled on purpose
    if not ctx.taint.is_traced(array):
        return None
    return shown or ast.unparse(bound)


def _helper_bound(ctx: Context, it: ast.Call, fn, threshold: int) -> str | None:  # noqa: ANN001
    """A helper traced through its caller (`fn.chain`) loops `range(n)` over a parameter that
    every call of the module passes as a known int, the largest at least `threshold`: the
    static step count flows in through the call (issue 24, "unrolled loops"), directly or
    through a static parameter of the traced caller (`simulate(x, 1000)` with `n_steps`
    static, `integrate(x, n_steps)` inside)."""
    bound = _range_bound(it)
    if not fn.chain or not isinstance(bound, ast.Name):
        return None
    name = bound.id
    node = fn.node
    if name not in all_params(node) or STRUCTURAL_COUNT.search(name):
        return None
    b = ctx.index.binding(name, ctx.index.scope_of(it))
    if b is None or b.kind != "param":
        return None
    seen = _passed_ints(ctx, node, name, 0)
    if not seen:
        return None
    value, line = max(seen)
    if value < threshold:
        return None
    return f"`{name}` = {value} from the call on line {line}, a static count"


def _passed_ints(
    ctx: Context, node: ast.AST, name: str, depth: int
) -> list[tuple[int, int]] | None:
    """The ints every call of `node` in the module passes as its parameter `name` (its default
    where a call leaves it out), with the call's line; None when one call passes something
    unknown. A call that passes a parameter of its own function counts that function's
    calls in turn (three levels), when the parameter is static there: a traced caller that
    does not trace it, never rebound."""
    seen: list[tuple[int, int]] = []
    for call in ctx.index.calls:
        if ctx.index.resolve_function(call.func) is not node:
            continue
        arg = bind_arguments(call, node).get(name)
        if arg is None:
            arg = param_defaults(node).get(name)
        value = _int_value(ctx, arg)
        if value is not None:
            seen.append((value, call.lineno))
            continue
        through = _static_param_of_caller(ctx, arg) if depth < 3 else None
        if through is None:
            return None  # one call we cannot read: stay silent
        outer = _passed_ints(ctx, through, arg.id, depth + 1)  # type: ignore[union-attr]
        if not outer:
            return None
        seen.extend(outer)
    return seen


def _static_param_of_caller(ctx: Context, arg: ast.expr | None) -> ast.AST | None:
    """The traced function whose static parameter `arg` is (a plain name, bound only as
    that parameter, not traced there and with every static argument resolved)."""
    if not isinstance(arg, ast.Name):
        return None
    scope = ctx.index.scope_of(arg)
    bindings = scope.bindings.get(arg.id)
    if scope.kind != "function" or not bindings or len(bindings) != 1:
        return None
    if bindings[0].kind != "param":
        return None
    caller = ctx.facts.traced.get(scope.node)
    if caller is None or caller.unknown_static or arg.id in caller.traced_params:
        return None
    if not caller.is_jit or arg.id not in all_params(scope.node):
        return None
    return scope.node


def _threshold(ctx: Context) -> int:
    value = ctx.options.get("unroll-threshold", DEFAULT_UNROLL_THRESHOLD)
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return DEFAULT_UNROLL_THRESHOLD


def _has_jax_work(ctx: Context, loop: ast.For) -> bool:
    for stmt in loop.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                q = ctx.qualname(node.func)
                if q and q.startswith(ARRAY_OP_PREFIXES):
                    return True
                if isinstance(node.func, ast.Attribute) and _traced_receiver(ctx, node.func):
                    return True  # `arr.at[i].set(v)`, `x.sum()` on a traced array
            elif isinstance(node, (ast.BinOp, ast.AugAssign)) and any(
                ctx.taint.is_traced(n) for n in ast.walk(node) if isinstance(n, ast.Name)
            ):
                return True
    return False


def _traced_receiver(ctx: Context, func: ast.Attribute) -> bool:
    """The method's receiver is rooted at a traced name (`arr_1.at[i, :].set`)."""
    cur: ast.AST = func.value
    while isinstance(cur, (ast.Attribute, ast.Subscript)):
        cur = cur.value
    return isinstance(cur, ast.Name) and ctx.taint.is_traced(cur)


def _static_bound(ctx: Context, it: ast.Call, fn, threshold: int) -> str | None:  # noqa: ANN001
    if len(it.args) != 1 or not isinstance(it.args[0], ast.Name):
        return None
    name = it.args[0].id
    node = fn.node
    if name not in all_params(node) or name in fn.traced_params:
        return None
    if STRUCTURAL_COUNT.search(name):
        return None  # num_layers, n_heads, depth: a few repeated blocks, unrolled on purpose
    if fn.chain or fn.via not in JIT_FACTORIES:
        return None
    b = ctx.index.binding(name, ctx.index.scope_of(it))
    if b is None or b.kind != "param":
        return None
    default = param_defaults(node).get(name)
    passed = [default] if default is not None else []
    for call in ctx.index.calls:
        target = ctx.facts.calls.target(call)
        if ctx.index.resolve_function(call.func) is not node and not (
            target is not None and target.function is node and not target.partial_args
        ):
            continue  # not a call of `fn`, directly or through `g = jax.jit(fn)`
        # `self._train(...)` binds from the parameter after `cls`/`self`
        arg = bind_arguments(call, node).get(name)
        if arg is not None:
            passed.append(arg)
    for arg in passed:
        value = _int_value(ctx, arg)
        # an imported name the project index may still resolve counts as long until it does:
        # its constants only take findings away (the relint of a seeded file assumes it)
        if (value is not None and value >= threshold) or (
            value is None and ctx.facts.constants.imported_reference(arg)
        ):
            return name
    # no long count known: none anywhere (callers elsewhere may pass 1, v21 rows), or only
    # values no module can tell (`gradient_steps` from `cfg.alg.train.utd`, which is 2 in
    # every config: v23 rows, soft_gac_jax dime.py:469 and six twins, JAX405)
    return None
