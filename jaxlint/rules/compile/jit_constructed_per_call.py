"""jit-constructed-per-call (JAX401): `jax.jit` applied to a new function object in
every step of a loop. The jit cache is keyed on the function object, so a lambda,
partial, nested def or bound method made per step compiles every step; the fix
hoists the jitted function above the loop, safe when nothing it captures changes.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.hoisting import few_steps, movable_above
from jaxlint.analysis.jax_api import PARTIAL
from jaxlint.analysis.jit_sites import (
    FUNCTION_TRANSFORMS,
    fresh_callable,
    jit_application,
    jit_wrapper,
)
from jaxlint.analysis.loops import (
    PerStep,
    free_names,
    is_mutated_in,
    loop_bound_names,
    loop_varying_names,
)
from jaxlint.analysis.step_shapes import arguments_pick_program
from jaxlint.analysis.syntax import (
    ancestors,
    enclosing_function,
    parent,
    statement_of,
    walk_scope,
)
from jaxlint.edits.hoist import fresh_name, hoist_expression, hoist_statement
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.compile._text import shorten


def _called_later(name: str, region: ast.AST, after: ast.AST) -> bool:
    for node in ast.walk(region):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == name
            and node is not after
        ):
            return True
    return False


def _call_of(name: str, region: ast.AST) -> ast.Call | None:
    """The first call of `name` in `region`, outside nested functions."""
    calls = [
        n
        for n in walk_scope(region)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
    ]
    return min(calls, key=lambda c: (c.lineno, c.col_offset), default=None)


def _reads_step_data(step: PerStep, made: ast.AST | None) -> str | None:
    """How the function made per step depends on the step: "" when it reads nothing that
    changes; the names (`` `i` ``) when it reads step data only (an index, a batch, a scalar:
    passed as an argument, one compile serves every step); None when what it reads picks the
    program (a callable, a shape; analysis.loops.PerStep.closure_selects_code), or when the
    loop changes a value the called functions use as structure (`step_picks_program`)."""
    if step.step_picks_program():
        return None
    if isinstance(made, ast.Call) and made is not None and step.partial_selects_code(made):
        return None
    if made is None or not step.closure_varies(made):
        return ""
    if step.closure_selects_code(made):
        return None
    names = sorted(free_names(step._index, made) & loop_varying_names(step.loop, index=step._index))  # type: ignore[arg-type]
    return ", ".join(f"`{n}`" for n in names)


def _capture_safe(ctx: Context, node: ast.Call, target: ast.expr, loop: ast.AST) -> bool:
    """Creating the jitted function once gives the same function in every step: nothing it
    captures (lambda/nested-def free names, partial arguments, jit options) is rebound or
    mutated by the loop, and no call other than `partial`/a transform runs eagerly."""
    bound = loop_bound_names(loop)
    index = ctx.index
    parts: list[ast.AST] = [node]
    if isinstance(target, ast.Name):
        fn = index.resolve_function(target)
        if fn is None:
            return False
        parts.append(fn)
    if isinstance(target, ast.Attribute):
        return False  # a method reads `self` state at trace time
    if (
        isinstance(target, ast.Call)
        and ctx.qualname(target.func) not in PARTIAL | FUNCTION_TRANSFORMS
    ):
        return False  # a fresh instance: its state may differ from step to step
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                if sub.id in bound or is_mutated_in(loop, sub.id, index):
                    return False
            elif isinstance(sub, (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)):
                return False
            elif isinstance(sub, (ast.Global, ast.Nonlocal)):
                return False
    # what runs when `node` does: `walk_scope` does not enter lambda bodies (it yields the
    # lambda itself, which is no call)
    for sub in walk_scope(node):
        if isinstance(sub, ast.Call) and sub is not node:
            q = ctx.qualname(sub.func)
            if sub is target and q in PARTIAL | FUNCTION_TRANSFORMS:
                continue
            if sub is node.func and jit_wrapper(ctx.index, sub) is not None:
                continue
            return False
    return True


class JitConstructedPerCall(Rule):
    """Flags `jax.jit` applied to a new function object in every step of a loop.

    What it does: finds `jax.jit(E)` (also `jit(E)` after `from jax import jit`, aliases,
    `partial(jax.jit, ...)(E)`) inside a `for`/`while` body, or inside a function that a loop
    of the same module calls every step, when `E` is a lambda, a `functools.partial`, a nested
    function, a bound method, a new instance or a transform such as `jax.grad(f)`, and the
    jitted function is called right there; likewise a nested def decorated with `@jax.jit`
    (or `@partial(jax.jit, ...)`) in such a function and called there. A module-level function (`jax.jit(f)`), a jitted
    function stored once (module level, `__init__`, `functools.cache`), one built inside a
    jitted function, or a lambda/nested function whose loop-varying reads pick the program (a
    callable, or a shape, slice bound, `range` or condition: every step needs its own program
    anyway) are fine. One that reads step *data* (an index from `range()`, a batch, a scalar
    in arithmetic) is reported: passed as an argument, that value compiles once. A loop of
    at most 3 written-out steps (`range(3)`, a literal list of three, a list appended to
    three times) is left alone: a handful of compiles does not add up.
    Why is this bad: the jit cache is keyed on the function object. A new lambda, partial,
    nested def, bound method or `grad(f)` is a new object every time, so every step traces
    and compiles again (10 compiles instead of 1 measured; ~10x the wall time).
    Example:
        for batch in batches:
            loss = jax.jit(lambda p, b: loss_fn(p, b, cfg))(params, batch)
    Use instead:
        loss_jit = jax.jit(lambda p, b: loss_fn(p, b, cfg))
        for batch in batches:
            loss = loss_jit(params, batch)
    Fix: create the jitted function once, before the loop (safe when nothing it captures is
    rebound or mutated by the loop; unsafe otherwise: captured values are then frozen at
    the first trace). Not offered for functions called per step (move it to module level by
    hand), when the function is defined inside the loop, or when it reads step data (make
    that value a parameter by hand).
    """

    code = "JAX401"
    name = "jit-constructed-per-call"
    message = "`{call}` creates a new jitted function {where}, so it traces and compiles every time (the jit cache is keyed on the function object: {what}); create it once outside the loop"
    fix_safety = "safe"
    verifier = "compiles"
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            def bench(sizes, x):  # public: another module may pass a long list
                for n in sizes:
                    g = jax.jit(lambda v: v * 2)  # error: JAX401
                    x = g(x) + n
                return x

            def main(x):
                return bench((1, 2), x)
            """,
            """
            import functools
            import jax
            import jax.numpy as jnp

            def pandemic_scan(state, T=5):
                @functools.partial(jax.jit, static_argnums=(1,))  # error: JAX401
                def _scan(state, T):
                    return jax.lax.scan(lambda c, s: (c * s, c), state, jnp.ones(T))

                return _scan(state, T)

            for _ in range(10):
                out = pandemic_scan(jnp.ones(3))
            """,
            """
            import jax
            import jax.numpy as jnp

            def loss_fn(params, batch):
                return jnp.mean((batch @ params) ** 2)

            def train(params, batches):
                for batch in batches:
                    loss = jax.jit(lambda p, b: loss_fn(p, b))(params, batch)  # error: JAX401
                return loss
            """,
            """
            import functools
            from jax import jit

            from model import apply_model

            def predict(cfg, x):
                return jit(functools.partial(apply_model, cfg=cfg))(x)  # error: JAX401

            def serve(cfg, requests):
                return [predict(cfg, r) for r in requests]
            """,
            """
            import jax

            jit = jax.jit

            def run(xs, scale):
                out = []
                for x in xs:
                    def body(v):
                        return v * scale
                    f = jit(body)  # error: JAX401
                    out.append(f(x))
                return out
            """,
            """
            import jax

            class Model:
                def forward(self, x):
                    return x * 2

                def fit(self, data):
                    while data:
                        x = data.pop()
                        y = jax.jit(self.forward)(x)  # error: JAX401
                    return y
            """,
            """
            import jax

            def unroll(layers, n):
                out = {}
                for i in range(n):
                    # reads `i` as data (an index): passed as an argument, one compile for all
                    def slice_ith(tree):
                        return jax.tree_util.tree_map(lambda x: x[i], tree)

                    out[i] = jax.jit(slice_ith)(layers)  # error: JAX401
                return out

            def scale_all(x):
                for i in range(4):
                    f = jax.jit(lambda v: v * i)  # error: JAX401
                    x = f(x)
                return x
            """,
            """
            import jax

            def loss(w, x):
                return (w * x).sum()

            def train(w, xs):
                for x in xs:
                    g = jax.jit(jax.grad(loss))(w, x)  # error: JAX401
                    w = w - 0.1 * g
                return w
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            def _bench(batches, steps):
                out = []
                for batch in batches:  # at most 3 configurations, from every caller
                    step = jax.jit(jax.vmap(lambda s: s * 2))
                    s = jnp.zeros((batch, 4))
                    for _ in range(steps):
                        s = step(s)
                    out.append(s)
                return out

            def main(quick, steps):
                batches = (1024,) if quick else (1024, 4096, 16384)
                return _bench(batches, steps)
            """,
            """
            import jax

            def train(state, batches):
                @jax.jit
                def reshape(x):
                    return x.reshape(-1)

                for batch in batches:  # defined once, before the loop: one compile
                    state = state + reshape(batch).sum()
                return state
            """,
            """
            import jax

            def make_sim(kT, p):
                return lambda s: s * 0.9 + kT + p

            # two written-out settings (jax-md examples/npt_csvr.py): two compiles on purpose
            for i, (kT, p) in enumerate(((1.0, 0.4), (1.0, 0.8))):
                apply_fn = make_sim(kT, p)
                print(jax.jit(lambda s: apply_fn(s))(1.0))
            """,
            """
            import jax

            def loss_fn(params, batch):
                return ((batch @ params) ** 2).mean()

            # NM23: a module-level function: the cache hits, one compile
            def train(params, batches):
                for batch in batches:
                    loss = jax.jit(loss_fn)(params, batch)
                return loss
            """,
            """
            import jax

            def loss_fn(params, batch):
                return ((batch @ params) ** 2).mean()

            # NM22: created once, called in the loop
            step = jax.jit(lambda p, b: loss_fn(p, b))

            def train(params, batches):
                for batch in batches:
                    loss = step(params, batch)
                return loss
            """,
            """
            import functools
            import jax

            class Trainer:
                def __init__(self, cfg):
                    self.step = jax.jit(functools.partial(self._step, cfg=cfg))

                def _step(self, x, cfg):
                    return x * cfg

            @functools.cache
            def compiled(n):
                return jax.jit(lambda x: x * n)

            def run(xs):
                return [compiled(3)(x) for x in xs]
            """,
            """
            import functools
            import jax

            def make_steps(fns):
                # one jitted function per element, stored and reused later
                jitted = []
                for fn in fns:
                    jitted.append(jax.jit(functools.partial(fn, scale=2.0)))
                return jitted

            def setup():
                f = jax.jit(lambda x: x + 1)  # not in a loop, not called per step
                return f(1.0)

            def train(params, data, steps):
                def train_step(p, d):  # defined once: the same function object every step
                    return p - 0.1 * d

                for _ in range(steps):
                    params = jax.jit(train_step)(params, data)
                return params
            """,
            """
            import jax

            def sweep(x, activations):
                outs = []
                for act in activations:
                    # reads `act` as a callable: each step is a different program by design
                    outs.append(jax.jit(lambda v: act(v) * 2)(x))
                return outs

            def pad_all(xs, sizes):
                for n in sizes:
                    # `n` is a shape: each size needs its own program
                    xs = jax.jit(lambda v: v[:n])(xs)
                return xs
            """,
            """
            import jax

            @jax.jit
            def step(x):
                # inside a traced function the inner jit is inlined: traced once
                for _ in range(3):
                    x = jax.jit(lambda v: v * 2)(x)
                return x

            def train(x):
                for _ in range(10):
                    x = step(x)
                return x
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                def loss_fn(params, batch):
                    return jnp.mean((batch @ params) ** 2)

                def train(params, batches):
                    for batch in batches:
                        # one step
                        loss = jax.jit(lambda p, b: loss_fn(p, b))(params, batch)
                    return loss
                """,
                """
                import jax
                import jax.numpy as jnp

                def loss_fn(params, batch):
                    return jnp.mean((batch @ params) ** 2)

                def train(params, batches):
                    loss_fn_jit = jax.jit(lambda p, b: loss_fn(p, b))
                    for batch in batches:
                        # one step
                        loss = loss_fn_jit(params, batch)
                    return loss
                """,
            ),
            (
                """
                import jax

                def scaled(x, s):
                    return x * s

                def run(xs, s, epochs):
                    total = 0.0
                    for epoch in range(epochs):
                        for x in xs:
                            # jitted once per step today
                            f = jax.jit(lambda v: scaled(v, s))  # keep this note
                            total += f(x)
                    return total
                """,
                """
                import jax

                def scaled(x, s):
                    return x * s

                def run(xs, s, epochs):
                    total = 0.0
                    # jitted once per step today
                    f = jax.jit(lambda v: scaled(v, s))  # keep this note
                    for epoch in range(epochs):
                        for x in xs:
                            total += f(x)
                    return total
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def run(xs, cfg):
                    for x in xs:
                        scale = cfg["scale"]
                        y = jax.jit(lambda v: v * scale)(x)
                        print(y)
                """,
                """
                import jax

                def run(xs, cfg):
                    fn_jit = jax.jit(lambda v: v * scale)
                    for x in xs:
                        scale = cfg["scale"]
                        y = fn_jit(x)
                        print(y)
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        app = jit_application(ctx.index, node)
        if app is None:
            return
        _, _, target = app
        fresh = fresh_callable(ctx.facts, target)
        if fresh is None:
            return
        what, stem = fresh
        use = parent(node)
        assigned: str | None = None
        if isinstance(use, ast.Call) and use.func is node:
            pass  # jax.jit(E)(...)
        elif (
            isinstance(use, ast.Assign)
            and len(use.targets) == 1
            and isinstance(use.targets[0], ast.Name)
        ):
            assigned = use.targets[0].id
        else:
            return  # stored, returned or collected: a factory, not a per-step compile
        step = ctx.facts.loops.per_step(node)
        if step is None or step.traced or few_steps(step):
            return
        if step.built_once_per_change(node):
            return  # `if need_compile: f = jax.jit(...)`: rebuilt when something changed
        made = target if isinstance(target, ast.Lambda) else ctx.index.resolve_function(target)
        if (
            made is None
            and isinstance(target, ast.Call)
            and ctx.qualname(target.func) in FUNCTION_TRANSFORMS
            and step.wrapped_function_varies(target)
        ):
            return  # `jax.jit(jax.vmap(env.init))` per env: the loop picks the program
        if made is None and isinstance(target, ast.Call) and step.factory_selects_code(target):
            return  # `jax.jit(make_fwd(offsets))`: the step's value is the program's structure
        if made is None and isinstance(target, ast.Call) and ctx.qualname(target.func) in PARTIAL:
            made = target  # the partial: its bound arguments are what it reads
        reads = _reads_step_data(step, made)
        if reads is None:
            return  # the loop picks the program (a callable, a shape): one per step anyway
        if reads:
            what += f"; it reads {reads}, which changes every step: pass it as an argument"
        if assigned is not None:
            region = step.loop if step.direct else step.functions[-1]
            if not _called_later(assigned, region, node):
                return
            called = _call_of(assigned, region)
        else:
            called = use  # type: ignore[assignment]
        if arguments_pick_program(step, called):
            return  # its arguments' shapes change every step: hoisted, it compiles as often
        self.report(
            node,
            call=f"{shorten(ctx, node.func, 20)}({shorten(ctx, target, 30)})",
            where=step.describe(),
            what=what,
            # hoisting a closure over step data would freeze (or unbind) it: no fix
            fix=None if reads else self._fix(ctx, node, target, stem, assigned, step),
        )

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        """`@jax.jit` / `@partial(jax.jit, ...)` on a def nested in a function that runs every
        step and calls it there: the decorator makes a new jitted function per call."""
        if len(node.decorator_list) != 1 or not jit_wrapper(ctx.index, node.decorator_list[0]):
            return
        deco = node.decorator_list[0]
        outer = enclosing_function(node, stop_at_class=True)  # (parent links: after ctx.index)
        if outer is None or isinstance(parent(node), ast.ClassDef):
            return
        call = _call_of(node.name, outer)
        if call is None or ctx.index.resolve_function(call.func) is not node:
            return
        step = ctx.facts.loops.per_step(call)
        if step is None or step.traced or few_steps(step):
            return
        reads = _reads_step_data(step, node)
        if reads is None or arguments_pick_program(step, call):
            return  # the loop picks the program (its code, its arguments' shapes)
        if step.direct and step.loop not in ancestors(node):
            return  # defined once, before the loop that calls it: one jitted function
        what = f"the nested function `{node.name}`, defined anew every step"
        if reads:
            what += f"; it reads {reads}, which changes every step: pass it as an argument"
        self.report(
            deco,
            call=f"@{shorten(ctx, deco, 30)}",
            where=step.describe(),
            what=what,
            fix=None,
        )

    visit_AsyncFunctionDef = visit_FunctionDef

    def _fix(
        self, ctx: Context, node: ast.Call, target: ast.expr, stem: str, assigned, step: PerStep
    ):  # noqa: ANN001, ANN202
        loop = step.loop_statement
        if not step.direct or loop is None:
            return None
        bound = loop_bound_names(loop)
        if isinstance(target, ast.Name) and target.id in bound:
            return None  # defined inside the loop: would need moving the def too
        if any(
            isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id in bound
            for sub in walk_scope(node)
        ):
            return None  # `jax.jit(env.step)` with `env = Env()` in the loop: read at once
        safety = "safe" if _capture_safe(ctx, node, target, loop) else "unsafe"
        stmt = statement_of(node)
        if (
            assigned is not None
            and stmt is not None
            and movable_above(ctx.index, stmt, assigned, loop)
        ):
            edits = hoist_statement(ctx, stmt, loop)
        else:
            name = fresh_name(ctx, f"{stem}_jit")
            edits = hoist_expression(ctx, node, loop, name)
        if edits is None:
            return None
        return self.fix(
            *edits, safety=safety, message="Create the jitted function once, before the loop"
        )
