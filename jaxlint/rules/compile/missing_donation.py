"""missing-donation (JAX406, opt-in): state passed to a jitted step in a loop and
rebound to its result, without `donate_argnums`: old and new buffers are alive
together. The unsafe fix adds the donation keyword when the old value is not kept.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.hoisting import few_steps
from jaxlint.analysis.jit_sites import DONATING, JitSpec, jitted_callee
from jaxlint.analysis.syntax import SCOPE_BOUNDARIES, enclosing_function
from jaxlint.core.diagnostic import Edit, Position
from jaxlint.edits.imports import spell
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.compile._text import shorten
from jaxlint.rules.compile._values import names_in

RETAINING_METHODS = frozenset(
    {"append", "extend", "insert", "add", "put", "setdefault", "appendleft"}
)


class MissingDonation(Rule):
    """Suggests `donate_argnums` for state that a loop passes to a jitted step and rebinds.

    What it does: flags `x = step(x, ...)` (or `params, opt_state, loss = step(params,
    opt_state, batch)`) in a loop, where `step` is `jax.jit`-ed in this module without
    `donate_argnums`/`donate_argnames`, and the old value of `x` is not kept anywhere else
    (no alias such as `old = x`, not appended to a list or stored in an attribute, not
    passed twice). Opt-in.
    Why is this bad: without donation the input buffers stay alive while the outputs are
    written, so peak memory holds two copies of the state (192 MiB versus 128 MiB measured
    for a 4096x4096 parameter).
    Example:
        step = jax.jit(sgd)
        for batch in batches:
            params = step(params, batch)
    Use instead:
        step = jax.jit(sgd, donate_argnums=0)
        for batch in batches:
            params = step(params, batch)      # never read the old params again
    Fix: add `donate_argnums` to the jit (unsafe: any other read of the donated array, or
    of another reference to it, now raises `RuntimeError: Array has been deleted`).
    """

    code = "JAX406"
    tier = 3
    name = "missing-donation"
    message = "`{names}` is passed to `{fn}` and rebound to its result {where}, but not donated: the old and new buffers are both alive at peak; add `{keyword}` to the jit"
    fix_safety = "unsafe"
    verifier = "lower"
    verify = Verify(donation=True)
    default = False
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            def sgd(params, grads):
                return params - 0.1 * grads

            step = jax.jit(sgd)

            def train(params, grads_seq):
                for grads in grads_seq:
                    params = step(params, grads)  # error: JAX406
                return params
            """,
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=3)
            def update(params, opt_state, batch, lr):
                return params - lr * batch, opt_state, batch.sum()

            def train(params, opt_state, batches):
                for batch in batches:
                    params, opt_state, loss = update(params, opt_state, batch, 0.1)  # error: JAX406
                return params
            """,
            """
            import jax

            jit = jax.jit

            class Trainer:
                def __init__(self, fn):
                    self.step = jit(fn)

                def fit(self, state, batches):
                    while batches:
                        state = self.step(state, batches.pop())  # error: JAX406
                    return state
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def step(params, batch):
                return params - batch

            def train(params, batches):
                history = []
                for batch in batches:
                    history.append(params)  # the old params are kept: donation would delete them
                    params = step(params, batch)
                return params, history

            def fit(initial, batches):
                params = initial  # `initial` would be deleted by the first donated call
                for batch in batches:
                    params = step(params, batch)
                return params, initial
            """,
            """
            import jax

            @jax.jit(donate_argnums=0)
            def step(params, batch):
                return params - batch

            def train(params, batches):
                for batch in batches:
                    params = step(params, batch)
                    other = step(batch.copy(), batch)
                return params
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def sgd(params, grads):
                    return params - 0.1 * grads

                step = jax.jit(sgd)

                @jax.jit
                def step2(state, x):
                    return state + x

                def train(params, state, grads_seq):
                    for grads in grads_seq:
                        params = step(params, grads)
                        state = step2(state, x=grads)
                    return params, state
                """,
                """
                import jax

                def sgd(params, grads):
                    return params - 0.1 * grads

                step = jax.jit(sgd, donate_argnums=0)

                @jax.jit(donate_argnums=0)
                def step2(state, x):
                    return state + x

                def train(params, state, grads_seq):
                    for grads in grads_seq:
                        params = step(params, grads)
                        state = step2(state, x=grads)
                    return params, state
                """,
            ),
        ),
    )

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        if len(node.targets) != 1 or not isinstance(node.value, ast.Call):
            return
        call = node.value
        spec = jitted_callee(ctx.facts, call)
        if spec is None or spec.donates or spec.qualname not in DONATING or spec.unknown_static:
            return
        step = ctx.facts.loops.per_step(node)
        if step is None or step.traced or not step.direct or few_steps(step):
            return
        target = node.targets[0]
        rebound = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        positions: list[int] = []
        names: list[str] = []
        static = {id(a) for _, a in spec.static_arguments(call)}
        all_args = [*call.args, *(kw.value for kw in call.keywords)]
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return
            if isinstance(arg, ast.Name) and arg.id in rebound and id(arg) not in static:
                positions.append(i + (1 if spec.self_passed else 0))
        for kw in call.keywords:
            if (
                kw.arg
                and isinstance(kw.value, ast.Name)
                and kw.value.id in rebound
                and id(kw.value) not in static
            ):
                names.append(kw.arg)
        shift = 1 if spec.self_passed else 0
        donated = [call.args[i - shift].id for i in positions] + [  # type: ignore[attr-defined]
            kw.value.id
            for kw in call.keywords
            if kw.arg in names  # type: ignore[attr-defined]
        ]
        if not donated:
            return
        for name in donated:
            if sum(1 for a in all_args if names_in(a) & {name}) > 1:
                return
            if _retained(ctx, name, node):
                return
        keyword = _donate_text(positions, names)
        self.report(
            node.value,
            names="`, `".join(donated),
            fn=spec.name if spec.fn is not None else shorten(ctx, call.func),
            where=step.describe(),
            keyword=keyword,
            fix=self._fix(ctx, spec, keyword),
        )

    def _fix(self, ctx: Context, spec: JitSpec, keyword: str):  # noqa: ANN202
        options = spec.options
        if options is None:  # bare decorator: use the decorator-factory form
            if ctx.target.all_have("0.8.1"):
                return self.fix(ctx.insert(ctx.end(spec.wrapper), f"({keyword})"))
            # `@jax.jit(...)` is a TypeError before JAX 0.8.1; `partial` works on every JAX
            try:
                partial, edits = spell(ctx, "functools.partial")
            except LookupError:
                return None
            text = f"{partial}({ctx.text(spec.wrapper)}, {keyword})"
            return self.fix(ctx.replace(spec.wrapper, text), *edits)
        return self.fix(_add_keyword(ctx, options, keyword))


def _donate_text(positions: list[int], names: list[str]) -> str:
    parts = []
    if positions:
        value = (
            str(positions[0]) if len(positions) == 1 else "(" + ", ".join(map(str, positions)) + ")"
        )
        parts.append(f"donate_argnums={value}")
    if names:
        value = repr(names[0]) if len(names) == 1 else "(" + ", ".join(map(repr, names)) + ")"
        parts.append(f"donate_argnames={value}")
    return ", ".join(parts).replace("'", '"')


def _add_keyword(ctx: Context, call: ast.Call, text: str) -> Edit:
    end = ctx.end(call)
    close = Position(end.line, end.col - 1)
    before = ctx.source.text[: ctx.source.offset(close)].rstrip()
    if before.endswith(("(", ",")):
        sep = "" if before.endswith("(") else " "
    else:
        sep = ", "
    return ctx.insert(close, sep + text)


def _retained(ctx: Context, name: str, assign: ast.Assign) -> bool:
    """The old value of `name` may be read later: aliased, stored, collected or closed over."""
    fn = enclosing_function(assign, stop_at_class=True)
    region = fn if fn is not None else ctx.index.tree
    stack = list(ast.iter_child_nodes(region))
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPE_BOUNDARIES):
            scope = ctx.index.scopes.get(node)
            if scope is not None and name not in scope.bindings and name in names_in(node):
                return True  # a closure reads it
            continue
        stack.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Assign) and node is not assign:
            if isinstance(node.value, ast.Name) and (
                node.value.id == name
                or any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            ):
                return True  # alias = name, or name = other (the other name sees the deletion)
            if any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in node.targets) and (
                name in names_in(node.value)
            ):
                return True  # self.best = name / cache[k] = name
            if isinstance(
                node.value, (ast.List, ast.Tuple, ast.Dict, ast.Set)
            ) and name in names_in(node.value):
                return True
        elif isinstance(node, ast.Call) and node is not assign.value:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in RETAINING_METHODS:
                if any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                    return True
        elif isinstance(node, (ast.Yield, ast.YieldFrom)) and node.value is not None:
            if name in names_in(node.value):
                return True
    return False
