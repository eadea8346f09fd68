"""JAX4xx: compilation, recompiles, performance."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from jaxlint.analysis.imports import FUNCTION_NODES
from jaxlint.analysis.loops import (
    FEW_STEPS,
    PerStep,
    enclosing_function,
    is_mutated_in,
    loop_bound_names,
    loop_varying_names,
    per_step,
    statement_of,
)
from jaxlint.analysis.transforms import (
    GRAD_LIKE,
    JIT_LIKE,
    PARTIAL,
    all_params,
    positional_params,
    read_static_options,
)
from jaxlint.diagnostic import Edit, Position
from jaxlint.edits.hoist import fresh_name, hoist_expression, hoist_statement
from jaxlint.edits.imports import ensure_module, spell
from jaxlint.rules.base import Context, Examples, Rule

# transforms that create a compiled, cached callable (the cache is keyed on the function object)
JIT_FACTORIES = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "equinox.filter_jit",
        "flax.nnx.jit",
        "jax.experimental.pjit.pjit",
    }
)
DONATING = frozenset({"jax.jit", "jax.pmap", "jax.experimental.pjit.pjit"})
FUNCTION_TRANSFORMS = frozenset(JIT_LIKE) | frozenset(GRAD_LIKE)


# -- which calls go to a jitted function, and what it makes static ----------------------------


@dataclass
class JitSpec:
    """A locally visible `jax.jit` application: decorator or `f = jax.jit(g, ...)`."""

    qualname: str
    options: ast.Call | None  # the call that carries the keywords (None: bare `@jax.jit`)
    wrapper: ast.expr  # the decorator / the jit expression applied to the function
    fn: ast.AST | None = None  # the def being jitted, when known
    bound_method: bool = False  # `jax.jit(self.method)`: `self` is not an argument
    self_passed: bool = False  # a jitted method called as `self.m(...)`: `self` is argument 0
    static_positions: set[int] = field(default_factory=set)
    static_names: set[str] = field(default_factory=set)
    unknown_static: bool = False
    donates: bool = False

    @property
    def params(self) -> list[str] | None:
        if self.fn is None:
            return None
        params = positional_params(self.fn)
        return params[1:] if self.bound_method else params

    @property
    def name(self) -> str:
        if isinstance(self.fn, ast.Lambda):
            return "<lambda>"
        return getattr(self.fn, "name", "the jitted function")

    def static_arguments(self, call: ast.Call) -> list[tuple[str, ast.expr]]:
        """(parameter, argument) pairs of `call` that land on static parameters."""
        params = self.params
        names = set(self.static_names)
        positions = set(self.static_positions)
        if params is not None:
            n = len(params)
            positions = {p + n if p < 0 else p for p in positions}
            names |= {params[p] for p in positions if 0 <= p < n}
            positions |= {i for i, p in enumerate(params) if p in names}
        out = []
        offset = 1 if self.self_passed else 0
        for j, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break
            i = j + offset
            if i in positions:
                label = params[i] if params is not None and i < len(params) else f"#{i}"
                out.append((label, arg))
        for kw in call.keywords:
            if kw.arg and kw.arg in names:
                out.append((kw.arg, kw.value))
        return out


def _wrapper(ctx: Context, expr: ast.AST) -> tuple[str, ast.Call | None] | None:
    """`jax.jit`, `jax.jit(static_argnums=...)`, `partial(jax.jit, ...)` (no function yet)."""
    q = ctx.qualname(expr)
    if q in JIT_FACTORIES:
        return q, None
    if isinstance(expr, ast.Call):
        fq = ctx.qualname(expr.func)
        if fq in PARTIAL and expr.args:
            inner = ctx.qualname(expr.args[0])
            if inner in JIT_FACTORIES and len(expr.args) == 1:
                return inner, expr
        if fq in JIT_FACTORIES and not expr.args and not _keyword(expr, "fun"):
            return fq, expr
    return None


def jit_application(ctx: Context, call: ast.Call) -> tuple[str, ast.Call, ast.expr] | None:
    """`jax.jit(E, ...)`, `partial(jax.jit, ...)(E)`, `jax.jit(...)(E)`: (qualname, the call
    carrying the keywords, E)."""
    q = ctx.qualname(call.func)
    if q in JIT_FACTORIES:
        target = call.args[0] if call.args else _keyword(call, "fun")
        if target is None or isinstance(target, ast.Starred):
            return None
        return q, call, target
    if isinstance(call.func, ast.Call) and len(call.args) == 1 and not call.keywords:
        wrapped = _wrapper(ctx, call.func)
        if wrapped is not None and wrapped[1] is not None:
            return wrapped[0], wrapped[1], call.args[0]
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _read_options(spec: JitSpec, options: ast.Call | None) -> JitSpec:
    if options is None:
        return spec
    static = read_static_options(options)
    spec.static_positions |= static.positions
    spec.static_names |= static.names
    spec.unknown_static |= static.unknown
    spec.donates |= static.donates
    return spec


def jit_spec_of_def(ctx: Context, fn: ast.AST) -> JitSpec | None:
    for dec in getattr(fn, "decorator_list", ()):
        wrapped = _wrapper(ctx, dec)
        if wrapped is not None:
            q, options = wrapped
            return _read_options(JitSpec(q, options, dec, fn), options)
    return None


def jit_spec_of_value(ctx: Context, value: ast.AST | None) -> JitSpec | None:
    """`jax.jit(g, ...)` and friends as an assigned value."""
    if not isinstance(value, ast.Call):
        return None
    app = jit_application(ctx, value)
    if app is None:
        return None
    q, options, target = app
    fn = ctx.index.resolve_function(target)
    bound = (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
        and fn is not None
    )
    if isinstance(target, ast.Attribute) and not bound:
        fn = None
    return _read_options(JitSpec(q, options, value, fn, bound_method=bound), options)


def jitted_callee(ctx: Context, call: ast.Call) -> JitSpec | None:
    """The jit application behind `call.func` when it is visible in this module."""
    func = call.func
    if isinstance(func, ast.Name):
        b = ctx.index.binding(func.id, ctx.index.scope_of(func))
        if b is None:
            return None
        if b.kind == "def":
            spec = jit_spec_of_def(ctx, b.node)
            if spec is not None and ctx.facts.transforms.outer_wrapper(b.node, spec.wrapper):
                return None  # the call runs a wrapper first: it decides what jit sees
            return spec
        if b.kind == "assign":
            return jit_spec_of_value(ctx, b.value)
        return None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        if func.value.id not in ("self", "cls"):
            return None
        cls = _class_of(ctx, call)
        if cls is None:
            return None
        values = _self_assignments(cls, func.attr)
        if len(values) == 1:
            return jit_spec_of_value(ctx, values[0])
        if not values:
            for stmt in cls.body:
                if (
                    isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and stmt.name == func.attr
                ):
                    spec = jit_spec_of_def(ctx, stmt)
                    if spec is not None and ctx.facts.transforms.outer_wrapper(stmt, spec.wrapper):
                        return None  # the call runs a wrapper first: it decides what jit sees
                    if spec is not None:
                        spec.self_passed = True
                    return spec
    return None


def _class_of(ctx: Context, node: ast.AST) -> ast.ClassDef | None:
    scope = ctx.index.scope_of(node)
    while scope is not None and scope.kind != "function":
        scope = scope.parent
    cls = scope.class_scope if scope is not None else None
    return cls.node if cls is not None else None  # type: ignore[return-value]


def _self_assignments(cls: ast.ClassDef, attr: str) -> list[ast.expr]:
    """Values assigned to `self.<attr>` anywhere in the class (one table per class)."""
    table = getattr(cls, "jl_self_assignments", None)
    if table is None:
        table = {}
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if (
                        isinstance(t, ast.Attribute)
                        and isinstance(t.value, ast.Name)
                        and t.value.id == "self"
                    ):
                        table.setdefault(t.attr, []).append(node.value)
        cls.jl_self_assignments = table  # type: ignore[attr-defined]
    return list(table.get(attr, ()))


def _parent(node: ast.AST) -> ast.AST | None:
    return getattr(node, "jl_parent", None)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _short(ctx: Context, node: ast.AST, limit: int = 40) -> str:
    text = " ".join(ctx.text(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- JAX401 -------------------------------------------------------------------------------------


def fresh_callable(ctx: Context, target: ast.expr) -> tuple[str, str] | None:
    """What kind of new function object `target` makes on each evaluation, and a name stem."""
    if isinstance(target, ast.Lambda):
        body = target.body
        stem = "fn"
        if isinstance(body, ast.Call):
            stem = _stem(body.func) or stem
        return "a lambda", stem
    if isinstance(target, ast.Call):
        fq = ctx.qualname(target.func)
        if fq in PARTIAL and target.args:
            return "a `functools.partial`", _stem(target.args[0]) or "fn"
        if fq in FUNCTION_TRANSFORMS and target.args:
            short = fq.rsplit(".", 1)[-1]
            inner = _stem(target.args[0]) or "fn"
            return f"`{short}(...)` (a new function object)", f"{short}_{inner}"
        cls = _local_class(ctx, target.func)
        if cls is not None:
            return f"a new `{cls.name}` instance", cls.name.lower()
        return None
    if isinstance(target, ast.Name):
        b = ctx.index.binding(target.id, ctx.index.scope_of(target))
        if (
            b is not None
            and b.kind == "def"
            and enclosing_function(b.node) is not None
            and not _is_class_member(b.node)
            and per_step(ctx, b.node) is not None  # the def itself runs every step
        ):
            return f"the nested function `{target.id}`, defined anew every step", target.id
        return None
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        base = target.value.id
        if target.attr == "__call__" and ctx.qualname(target.value) is None:
            return f"the bound method `{base}.__call__`", base
        if base in ("self", "cls"):
            fn = ctx.index.resolve_function(target)
            if fn is not None and not _is_static_method(ctx, fn):
                return f"the bound method `{base}.{target.attr}`", target.attr
            return None
        b = ctx.index.binding(base, ctx.index.scope_of(target))
        if (
            b is not None
            and b.kind == "assign"
            and isinstance(b.value, ast.Call)
            and _local_class(ctx, b.value.func) is not None
        ):
            cls = _local_class(ctx, b.value.func)
            if cls is not None and _has_method(cls, target.attr):
                return f"the bound method `{base}.{target.attr}`", target.attr
    return None


def _stem(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _local_class(ctx: Context, func: ast.AST) -> ast.ClassDef | None:
    if not isinstance(func, ast.Name):
        return None
    b = ctx.index.binding(func.id, ctx.index.scope_of(func))
    if b is not None and b.kind == "class":
        return b.node  # type: ignore[return-value]
    return None


def _has_method(cls: ast.ClassDef, name: str) -> bool:
    return any(
        isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name for s in cls.body
    )


def _is_class_member(fn: ast.AST) -> bool:
    return isinstance(_parent(fn), ast.ClassDef)


def _is_static_method(ctx: Context, fn: ast.AST) -> bool:
    return any(
        ctx.qualname(d) in ("staticmethod", "classmethod")
        for d in getattr(fn, "decorator_list", ())
    )


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
    for sub in _eager_parts(node):
        if isinstance(sub, ast.Call) and sub is not node:
            q = ctx.qualname(sub.func)
            if sub is target and q in PARTIAL | FUNCTION_TRANSFORMS:
                continue
            if sub is node.func and _wrapper(ctx, sub) is not None:
                continue
            return False
    return True


def _eager_parts(node: ast.AST):
    """Sub-expressions evaluated when `node` is (not inside lambda bodies)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, (*FUNCTION_NODES, ast.ClassDef)):
                stack.append(child)


class JitConstructedPerCall(Rule):
    """Flags `jax.jit` applied to a new function object in every step of a loop.

    What it does: finds `jax.jit(E)` (also `jit(E)` after `from jax import jit`, aliases,
    `partial(jax.jit, ...)(E)`) inside a `for`/`while` body, or inside a function that a loop
    of the same module calls every step, when `E` is a lambda, a `functools.partial`, a nested
    function, a bound method, a new instance or a transform such as `jax.grad(f)`, and the
    jitted function is called right there. A module-level function (`jax.jit(f)`), a jitted
    function stored once (module level, `__init__`, `functools.cache`), one built inside a
    jitted function, or a lambda/nested function that reads the loop variable (directly or
    through a lambda nested in it: every step is a different program anyway, and creating it
    once would freeze the first value) are fine.
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
    hand) or when the function is defined inside the loop.
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

            def unroll(layers, n):
                out = {}
                for i in range(n):
                    # reads `i` (through the lambda): layer i is its own program by design
                    def slice_ith(tree):
                        return jax.tree_util.tree_map(lambda x: x[i], tree)

                    out[i] = jax.jit(slice_ith)(layers)
                return out
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
        app = jit_application(ctx, node)
        if app is None:
            return
        _, _, target = app
        fresh = fresh_callable(ctx, target)
        if fresh is None:
            return
        what, stem = fresh
        parent = _parent(node)
        assigned: str | None = None
        if isinstance(parent, ast.Call) and parent.func is node:
            pass  # jax.jit(E)(...)
        elif (
            isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            assigned = parent.targets[0].id
        else:
            return  # stored, returned or collected: a factory, not a per-step compile
        step = per_step(ctx, node)
        if step is None or step.traced or _few(step):
            return
        made = target if isinstance(target, ast.Lambda) else ctx.index.resolve_function(target)
        if made is not None and step.closure_varies(made):
            return  # it reads the loop variable: a different program every step anyway
        if assigned is not None:
            region = step.loop if step.direct else step.functions[-1]
            if not _called_later(assigned, region, node):
                return
        self.report(
            node,
            call=f"{_short(ctx, node.func, 20)}({_short(ctx, target, 30)})",
            where=step.describe(),
            what=what,
            fix=self._fix(ctx, node, target, stem, assigned, step),
        )

    def _fix(
        self, ctx: Context, node: ast.Call, target: ast.expr, stem: str, assigned, step: PerStep
    ):  # noqa: ANN001, ANN202
        loop = step.loop_statement
        if not step.direct or loop is None:
            return None
        bound = loop_bound_names(loop)
        if isinstance(target, ast.Name) and target.id in bound:
            return None  # defined inside the loop: would need moving the def too
        safety = "safe" if _capture_safe(ctx, node, target, loop) else "unsafe"
        stmt = statement_of(node)
        if assigned is not None and stmt is not None and _movable(ctx, stmt, assigned, loop):
            edits = hoist_statement(ctx, stmt, loop)
        else:
            name = fresh_name(ctx, f"{stem}_jit")
            edits = hoist_expression(ctx, node, loop, name)
        if edits is None:
            return None
        return self.fix(
            *edits, safety=safety, message="Create the jitted function once, before the loop"
        )


def _movable(ctx: Context, stmt: ast.stmt, name: str, loop: ast.AST) -> bool:
    """`name = ...` can move above the loop unchanged: its only binding in the scope, and
    not read in the loop before it."""
    scope = ctx.index.scope_of(stmt)
    return len(scope.bindings.get(name, ())) == 1 and not _read_before(loop, name, stmt)


def _few(step: PerStep) -> bool:
    """A loop over a handful of written-out values: per-step costs do not add up."""
    count = step.trip_count
    return count is not None and count <= FEW_STEPS


# -- JAX402 -------------------------------------------------------------------------------------

ARRAY_MODULE_PREFIXES = ("numpy.", "jax.numpy.", "jax.random.")
NOT_ARRAY_CALLS = frozenset(
    {
        "numpy.dtype",
        "jax.numpy.dtype",
        "numpy.float32",
        "numpy.int32",
        "numpy.float64",
        "numpy.int64",
        "jax.numpy.float32",
        "jax.numpy.int32",
        "numpy.shape",
        "jax.numpy.shape",
        "numpy.ndim",
        "jax.numpy.ndim",
        "numpy.size",
        "jax.numpy.size",
        "numpy.prod",
        "numpy.finfo",
        "numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "numpy.result_type",
        "jax.numpy.result_type",
    }
)


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
        cls = _local_class(ctx, arg.func)
        if cls is not None and _mutable_dataclass(ctx, cls):
            return f"a non-frozen dataclass (`{cls.name}`)", None
    if isinstance(arg, ast.Name):
        b = ctx.index.binding(arg.id, ctx.index.scope_of(arg))
        if (
            b is not None
            and b.kind == "assign"
            and isinstance(
                b.value, (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)
            )
        ):
            what = _unhashable(ctx, b.value)
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
        return not _has_method(cls, "__hash__")
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
        spec = jitted_callee(ctx, node)
        if spec is None or spec.unknown_static:
            return
        for param, arg in spec.static_arguments(node):
            found = _unhashable(ctx, arg)
            if found is None:
                continue
            what, replacement = found
            fix = self.fix(ctx.replace(arg, replacement)) if replacement else None
            self.report(arg, param=param, fn=spec.name, what=what, fix=fix)


# -- JAX403 -------------------------------------------------------------------------------------


def _identity_hashed_class(ctx: Context, cls: ast.ClassDef) -> bool:
    """A plain class: default `__hash__`/`__eq__` by identity (every instance is a new key)."""
    if cls.decorator_list or cls.keywords:
        return False
    for base in cls.bases:
        if not (isinstance(base, ast.Name) and base.id == "object"):
            return False
    return not (_has_method(cls, "__hash__") or _has_method(cls, "__eq__"))


class StaticArgVaries(Rule):
    """Flags a static argument that changes in every step of a loop.

    What it does: in a `for`/`while` loop that calls a function jitted in this module,
    flags an argument at a static position (`static_argnums`/`static_argnames`) that depends
    on the loop variable or a counter updated in the loop (learning-rate schedules, step
    numbers), or that is a new instance of a plain class (hashed by identity) on every call.
    Why is this bad: each distinct static value is a new cache key, so every step traces and
    compiles again (5 distinct learning rates: 5 compiles, ~290 ms, versus 1 when traced).
    Example:
        @partial(jax.jit, static_argnames="lr")
        def sgd(p, g, lr): return p - lr * g
        for lr in schedule:
            p = sgd(p, g, lr=lr)
    Use instead:
        @jax.jit
        def sgd(p, g, lr): return p - lr * g     # lr traced: one compile
    Fix: none (making the argument traced breaks code that uses it for shapes or Python
    control flow).
    """

    code = "JAX403"
    tier = 2
    name = "static-arg-varies"
    message = "static argument `{param}` of `{fn}` {why} {where}: each new value traces and compiles again; make it a traced argument (drop it from `static_argnums`/`static_argnames`) if it is only used in arithmetic"
    verifier = "compiles"
    examples = Examples(
        invalid=(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnames="lr")
            def sgd(p, g, lr):
                return p - lr * g

            def train(p, g, schedule):
                for lr in schedule:
                    p = sgd(p, g, lr=float(lr))  # error: JAX403
                return p
            """,
            """
            import jax

            def rollout(x, n_steps):
                for _ in range(n_steps):
                    x = x * 0.5
                return x

            rollout_jit = jax.jit(rollout, static_argnums=1)

            def run(x):
                horizon = 1
                while horizon < 100:
                    x = rollout_jit(x, horizon)  # error: JAX403
                    horizon *= 2
                return x
            """,
            """
            from functools import partial
            import jax

            class Options:
                def __init__(self, scale):
                    self.scale = scale

            @partial(jax.jit, static_argnums=1)
            def apply(x, opts):
                return x * opts.scale

            def run(xs):
                return [apply(x, Options(2.0)) for x in xs]  # error: JAX403
            """,
        ),
        valid=(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnames="training")
            def forward(x, training):
                return x * 0.5 if training else x

            def train(batches):
                for i, batch in enumerate(batches):
                    out = forward(batch, training=True)  # static, but the same every step
                    metric = forward(batch * i, training=False)
                return out, metric
            """,
            """
            import jax

            @jax.jit
            def sgd(p, g, lr):
                return p - lr * g  # lr traced: one compile for every value

            def train(p, g, schedule):
                for lr in schedule:
                    p = sgd(p, g, lr)
                return p
            """,
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnames="lr")
            def sgd(p, g, lr):
                return p - lr * g

            def sweep(p, g):
                for lr in [1e-1, 3e-2, 1e-2, 3e-3, 1e-3]:  # a spelled-out sweep
                    print(lr, sgd(p, g, lr=lr))
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        spec = jitted_callee(ctx, node)
        if spec is None or spec.unknown_static or not (spec.static_positions or spec.static_names):
            return
        step = per_step(ctx, node)
        if step is None or step.traced or not step.direct or _few(step):
            return
        if step.over_written_values:
            return  # a sweep over spelled-out values: one compile each, on purpose
        for param, arg in spec.static_arguments(node):
            why = None
            if step.varies(arg):
                shown = _short(ctx, arg)
                why = "changes" if shown == param else f"(`{shown}`) changes"
            elif isinstance(arg, ast.Call):
                cls = _local_class(ctx, arg.func)
                if cls is not None and _identity_hashed_class(ctx, cls):
                    why = f"is a new `{cls.name}` instance (hashed by identity)"
            if why is not None:
                self.report(arg, param=param, fn=spec.name, why=why, where=step.describe())


# -- JAX404 -------------------------------------------------------------------------------------

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
                return f"`{_short(ctx, arg)}` is sliced by the loop variable"
        return None
    if isinstance(arg, ast.Call):
        q = ctx.qualname(arg.func)
        if q in SHAPE_CONSTRUCTORS and arg.args and _mentions_any(arg.args[0], varying):
            return f"`{_short(ctx, arg)}` has a shape that follows the loop variable"
        return None
    if isinstance(arg, ast.Name):
        values = _assignments_in(loop, arg.id, before=call)
        if len(values) == 1 and values[0] is not None:
            inner = _varying_shape(ctx, values[0], varying, loop, call)
            if inner is not None:
                return f"`{arg.id}` = {inner}"
        if not values and _grows_in(loop, arg.id):
            return f"the Python list `{arg.id}` grows every step (one input per element)"
    return None


def _mentions_any(node: ast.AST, names: frozenset[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _assignments_in(loop: ast.AST, name: str, before: ast.AST) -> list[ast.expr | None]:
    out: list[ast.expr | None] = []
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and node.lineno <= before.lineno:  # type: ignore[attr-defined]
            for t in node.targets:
                if isinstance(t, ast.Name) and t.id == name:
                    out.append(node.value)
                elif name in _names(t):
                    out.append(None)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            if node.target.id == name:
                out.append(None)
    return out


def _grows_in(loop: ast.AST, name: str) -> bool:
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend", "insert")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
        ):
            return True
    return False


class ShapeVariesPerIteration(Rule):
    """Flags a jitted call whose argument shapes change in every step of a loop.

    What it does: in a `for`/`while` loop calling a function jitted in this module, flags an
    argument sliced with one bound following the loop variable (`x[:i]`, `x[i:]`), an array
    built with a shape from the loop variable (`jnp.zeros(i)`), or a Python list that the loop
    keeps appending to. Fixed-width windows (`x[i:i + 32]`) are fine.
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
        spec = jitted_callee(ctx, node)
        if spec is None:
            return
        step = per_step(ctx, node)
        if step is None or step.traced or not step.direct or _few(step):
            return
        if step.over_written_values:
            return  # `for n in [1, 2, 4, 8]`: the shapes are spelled out on purpose
        varying = loop_varying_names(step.loop)
        static = {id(a) for _, a in spec.static_arguments(node)}
        for arg in [*node.args, *(kw.value for kw in node.keywords)]:
            if id(arg) in static or isinstance(arg, ast.Starred):
                continue
            why = _varying_shape(ctx, arg, varying, step.loop, node)
            if why is not None:
                self.report(arg, where=step.describe(), why=why, fn=spec.name)


# -- JAX405 -------------------------------------------------------------------------------------

DEFAULT_UNROLL_THRESHOLD = 32
STRUCTURAL_COUNT = re.compile(
    r"layer|head|block|stage|depth|level|tower|stack|group", re.IGNORECASE
)
ARRAY_OP_PREFIXES = ("jax.", "equinox.", "flax.", "optax.")


def _int_value(ctx: Context, node: ast.AST | None, depth: int = 0) -> int | None:
    """An int known statically: a literal, simple arithmetic, or a module-level constant."""
    if node is None or depth > 4:
        return None
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _int_value(ctx, node.operand, depth + 1)
        return -v if v is not None else None
    if isinstance(node, ast.BinOp):
        a = _int_value(ctx, node.left, depth + 1)
        b = _int_value(ctx, node.right, depth + 1)
        if a is None or b is None:
            return None
        try:
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.FloorDiv) and b:
                return a // b
            if isinstance(node.op, ast.Pow) and 0 <= b <= 128:
                return a**b
            if isinstance(node.op, ast.LShift) and 0 <= b <= 128:
                return a << b
        except (OverflowError, ValueError):
            return None
        return None
    if isinstance(node, ast.Name):
        module = ctx.index.scopes[ctx.index.tree]
        scope = ctx.index.scope_of(node)
        found = ctx.index.lookup(node.id, scope)
        bindings = module.bindings.get(node.id)
        if (
            found is not None
            and found is bindings
            and len(bindings) == 1
            and bindings[0].kind == "assign"
        ):
            return _int_value(ctx, bindings[0].value, depth + 1)
    return None


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
    (option `unroll-threshold`), or a static argument of the function (unless its default
    or every visible call passes fewer). Loops over a few layers are fine.
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

            NUM_STEPS = 256

            def integrate(x, dt):
                for _ in range(NUM_STEPS):  # error: JAX405
                    x = x + dt * jnp.tanh(x)
                return x

            @partial(jax.jit, static_argnames="n")
            def simulate(x, n):
                for t in range(n):  # error: JAX405
                    x = x - 0.1 * jnp.cos(x + t)
                return integrate(x, 0.01)

            simulate(jnp.ones(3), n=500)
            """,
        ),
        valid=(
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
        if fn is None or not fn.is_jit:
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
            elif isinstance(node, (ast.BinOp, ast.AugAssign)) and any(
                ctx.taint.is_traced(n) for n in ast.walk(node) if isinstance(n, ast.Name)
            ):
                return True
    return False


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
    default = _default_of(node, name)
    if default is not None:
        v = _int_value(ctx, default)
        if v is not None and v < threshold:
            return None
    seen = []
    for call in ctx.index.calls:
        if ctx.index.resolve_function(call.func) is not node:
            continue
        params = positional_params(node)
        for i, arg in enumerate(call.args):
            if i < len(params) and params[i] == name:
                seen.append(_int_value(ctx, arg))
        for kw in call.keywords:
            if kw.arg == name:
                seen.append(_int_value(ctx, kw.value))
    if seen and all(v is not None and v < threshold for v in seen):
        return None
    return name


def _default_of(fn: ast.AST, name: str) -> ast.expr | None:
    args = fn.args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for a, d in zip(positional, defaults):
        if a.arg == name:
            return d
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        if a.arg == name:
            return d
    return None


# -- JAX406 -------------------------------------------------------------------------------------

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
                    other = step(batch, batch)
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
        spec = jitted_callee(ctx, call)
        if spec is None or spec.donates or spec.qualname not in DONATING or spec.unknown_static:
            return
        step = per_step(ctx, node)
        if step is None or step.traced or not step.direct or _few(step):
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
            if sum(1 for a in all_args if _names(a) & {name}) > 1:
                return
            if _retained(ctx, name, node):
                return
        keyword = _donate_text(positions, names)
        self.report(
            node.value,
            names="`, `".join(donated),
            fn=spec.name if spec.fn is not None else _short(ctx, call.func),
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
    fn = enclosing_function(assign)
    region = fn if fn is not None else ctx.index.tree
    stack = list(ast.iter_child_nodes(region))
    while stack:
        node = stack.pop()
        if isinstance(node, (*FUNCTION_NODES, ast.ClassDef)):
            scope = ctx.index.scopes.get(node)
            if scope is not None and name not in scope.bindings and name in _names(node):
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
                name in _names(node.value)
            ):
                return True  # self.best = name / cache[k] = name
            if isinstance(node.value, (ast.List, ast.Tuple, ast.Dict, ast.Set)) and name in _names(
                node.value
            ):
                return True
        elif isinstance(node, ast.Call) and node is not assign.value:
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in RETAINING_METHODS:
                if any(isinstance(a, ast.Name) and a.id == name for a in node.args):
                    return True
        elif isinstance(node, (ast.Yield, ast.YieldFrom)) and node.value is not None:
            if name in _names(node.value):
                return True
    return False


# -- JAX407 -------------------------------------------------------------------------------------

CONVERSIONS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.device_put"})


def _host_data(ctx: Context, arg: ast.expr) -> str | None:
    """A description when `arg` is certainly host data (a list or a NumPy array)."""
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
        step = per_step(ctx, node)
        if step is None or step.traced or _few(step) or not step.invariant(node):
            return
        if len(step.calls) > 1 or (not step.direct and _returned(node)):
            return  # a data factory (`return {"w": jnp.array([...])}`), or far from the loop
        self.report(
            node,
            call=_short(ctx, node),
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
        safety = "safe" if _parent(stmt) is loop and any(s is stmt for s in loop.body) else "unsafe"
        if (
            isinstance(stmt, ast.Assign)
            and stmt.value is node
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            name = stmt.targets[0].id
            if safety == "safe" and _movable(ctx, stmt, name, loop):
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
    cur = _parent(node)
    while isinstance(cur, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
        cur = _parent(cur)
    return isinstance(cur, (ast.Return, ast.Yield))


def _read_before(loop: ast.AST, name: str, stmt: ast.stmt) -> bool:
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Name)
            and node.id == name
            and isinstance(node.ctx, ast.Load)
            and (node.lineno, node.col_offset) < (stmt.lineno, stmt.col_offset)
        ):
            return True
    return False


# -- JAX408 -------------------------------------------------------------------------------------

_UNARY = (
    "sum mean max min prod std var argmax argmin cumsum cumprod all any median nansum nanmean "
    "nanmax nanmin nanstd nanvar sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh "
    "arctanh exp exp2 expm1 log log2 log10 log1p sqrt cbrt abs absolute fabs round around sort "
    "argsort ravel transpose squeeze flip fliplr flipud unique diff clip nan_to_num isnan isinf "
    "isfinite sign signbit floor ceil trunc rint square negative reciprocal positive real imag "
    "conj conjugate angle logical_not count_nonzero ptp atleast_1d atleast_2d atleast_3d "
    "zeros_like ones_like empty_like full_like trace diag diagonal tril triu nonzero argwhere "
    "flatnonzero matrix_transpose reshape expand_dims pad tile repeat roll broadcast_to split "
    "array_split take sinc i0 deg2rad rad2deg degrees radians invert bitwise_not histogram "
    "bincount trapezoid"
).split()
_BINARY = (
    "add subtract multiply divide true_divide floor_divide power float_power maximum minimum "
    "fmax fmin mod remainder fmod hypot arctan2 copysign heaviside logaddexp logaddexp2 dot "
    "matmul vdot inner outer kron cross tensordot equal not_equal less less_equal greater "
    "greater_equal logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor "
    "left_shift right_shift gcd lcm ldexp allclose isclose convolve correlate searchsorted"
).split()
ARRAY_OPERANDS: dict[str, tuple[int, ...]] = {f"jax.numpy.{n}": (0,) for n in _UNARY}
ARRAY_OPERANDS.update({f"jax.numpy.{n}": (0, 1) for n in _BINARY})
ARRAY_OPERANDS.update(
    {
        "jax.numpy.where": (0, 1, 2),
        "jax.numpy.linalg.norm": (0,),
        "jax.numpy.linalg.inv": (0,),
        "jax.numpy.linalg.det": (0,),
        "jax.numpy.linalg.svd": (0,),
        "jax.numpy.linalg.eigh": (0,),
        "jax.numpy.linalg.solve": (0, 1),
        "jax.numpy.fft.fft": (0,),
        "jax.numpy.fft.ifft": (0,),
        "jax.numpy.fft.rfft": (0,),
    }
)


class JnpOnPythonSequence(Rule):
    """Flags `jax.numpy` reductions and ufuncs called on a Python list or tuple.

    What it does: finds `jnp.sum([...])`, `jnp.max((a, b))`, `jnp.mean([f(x) for x in xs])`,
    `jnp.where(c, [..], [..])` and the like: a list/tuple literal or list comprehension as
    an array operand of a `jnp` function that does not accept sequences. Constructors that
    do (`jnp.array`, `asarray`, `stack`, `concatenate`, ...) and shape/axis arguments are fine.
    Why is this bad: jax.numpy deliberately rejects lists (each element of a list passed to a
    traced function becomes a separate input): the call raises `TypeError: sum requires
    ndarray or scalar arguments, got <class 'list'> at position 0.`
    Example:
        total = jnp.sum([a, b, c])
    Use instead:
        total = jnp.sum(jnp.asarray([a, b, c]))      # or jnp.stack for device arrays
    Fix: wrap the sequence in `jnp.asarray(...)` (safe: the original always raises).
    """

    code = "JAX408"
    tier = 2
    name = "jnp-on-python-sequence"
    message = "`{fn}` does not accept a Python {kind}: it raises `TypeError: {short} requires ndarray or scalar arguments`; wrap it in `jnp.asarray(...)` (or use `jnp.stack`)"
    fix_safety = "safe"
    verifier = "trace"
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp

            def total(a, b, c):
                return jnp.sum([a, b, c])  # error: JAX408

            def spread(xs):
                return jnp.max(tuple(x.max() for x in xs)), jnp.std([x.mean() for x in xs])  # error: JAX408
            """,
            """
            import jax
            from jax import numpy as np

            @jax.jit
            def pick(c, x):
                return np.where(c, x, [0.0, 1.0])  # error: JAX408
            """,
        ),
        valid=(
            """
            import jax.numpy as jnp

            def build(a, b, x):
                s = jnp.array([a, b])
                t = jnp.stack([a, b]) + jnp.concatenate([a, b])
                u = jnp.sum(x, axis=(0, 1))
                v = jnp.transpose(x, (1, 0)).reshape(x, (2, -1))
                w = jnp.zeros((2, 3)) + jnp.tile(x, (2, 2))
                return jnp.sum(jnp.asarray([a, b]))
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp

                def total(a, b, c):
                    return jnp.sum([a, b, c]) + jnp.maximum((a, b), 0.0)
                """,
                """
                import jax.numpy as jnp

                def total(a, b, c):
                    return jnp.sum(jnp.asarray([a, b, c])) + jnp.maximum(jnp.asarray((a, b)), 0.0)
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        positions = ARRAY_OPERANDS.get(q or "")
        if positions is None:
            return
        for i in positions:
            if i >= len(node.args):
                break
            arg = node.args[i]
            if isinstance(arg, ast.Starred):
                break
            if not isinstance(arg, (ast.List, ast.Tuple, ast.ListComp)):
                continue
            kind = "tuple" if isinstance(arg, ast.Tuple) else "list"
            fix = None
            try:
                jnp_name, edits = ensure_module(ctx, "jax.numpy")
                fix = self.fix(ctx.replace(arg, f"{jnp_name}.asarray({ctx.text(arg)})"), *edits)
            except LookupError:
                pass
            short = q.rsplit(".", 1)[-1]  # type: ignore[union-attr]
            self.report(arg, fn=_short(ctx, node.func), kind=kind, short=short, fix=fix)


# -- JAX409 -------------------------------------------------------------------------------------

JIT_ON_METHOD = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"})


def _pytree_class(ctx: Context, cls: ast.ClassDef) -> bool:
    """`self` may be a pytree: decorated, derived from anything but `object`, registered,
    or defining `tree_flatten`."""
    if cls.decorator_list or cls.keywords:
        return True
    if any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return True
    if _has_method(cls, "tree_flatten") or _has_method(cls, "tree_unflatten"):
        return True
    for call in ctx.index.calls:
        q = ctx.qualname(call.func) or ""
        if "register" in q and any(isinstance(a, ast.Name) and a.id == cls.name for a in call.args):
            return True
    return False


def _mutates_self(cls: ast.ClassDef) -> bool:
    for stmt in cls.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.name == "__init__":
            continue
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                return True
    return False


class JitOnMethod(Rule):
    """Flags `@jax.jit` on a method.

    What it does: finds `@jax.jit` (or `@partial(jax.jit, ...)`, `@jit(...)`) on a `def` whose
    first parameter is `self`, in a plain class (not a registered pytree, dataclass or
    framework Module). With `static_argnums=0`, flags it when the class hashes by identity
    and some method assigns attributes.
    Why is this bad: `self` is passed like any argument: a plain object is not a valid JAX
    type, so the call raises `TypeError: Error interpreting argument to <function A.calc>
    as an abstract array ... at path self`. Marking `self` static hashes it by identity, so
    attribute changes are ignored and stale results come back.
    Example:
        class Scaler:
            @jax.jit
            def apply(self, x):
                return x * self.scale
    Use instead:
        @jax.jit
        def apply(scale, x):             # module-level, state passed explicitly
            return x * scale

        class Scaler:
            def apply(self, x):
                return apply(self.scale, x)
    Fix: none (the state has to become explicit arguments, or the class a pytree).
    """

    code = "JAX409"
    name = "jit-on-method"
    message = "{why}; jit a module-level function that takes the state as arguments (or make the class a pytree)"
    verifier = "trace"
    tier = 3
    examples = Examples(
        invalid=(
            """
            import jax

            class Scaler:
                def __init__(self, scale):
                    self.scale = scale

                @jax.jit
                def apply(self, x):  # error: JAX409
                    return x * self.scale
            """,
            """
            from functools import partial
            from jax import jit

            class Counter:
                def __init__(self):
                    self.mul = 2.0

                def set(self, v):
                    self.mul = v

                @partial(jit, static_argnums=0)
                def calc(self, x):  # error: JAX409
                    return x * self.mul
            """,
        ),
        valid=(
            """
            import jax
            import equinox as eqx
            from flax import struct

            class Linear(eqx.Module):
                w: jax.Array

                @jax.jit
                def __call__(self, x):
                    return x @ self.w

            @struct.dataclass
            class State:
                step: int

                @jax.jit
                def next(self):
                    return self.replace(step=self.step + 1)

            class Tools:
                @staticmethod
                @jax.jit
                def double(x):
                    return x * 2
            """,
            """
            from functools import partial
            import jax

            class Frozen:
                def __init__(self, mul):
                    self.mul = mul

                @partial(jax.jit, static_argnums=0)
                def calc(self, x):  # static self, never mutated after __init__
                    return x * self.mul
            """,
        ),
    )

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        ctx.index  # noqa: B018 - builds the parent links
        cls = _parent(node)
        if not isinstance(cls, ast.ClassDef):
            return
        params = positional_params(node)
        if not params or params[0] != "self":
            return
        spec = jit_spec_of_def(ctx, node)
        if spec is None or spec.qualname not in JIT_ON_METHOD or spec.unknown_static:
            return
        static_self = 0 in spec.static_positions or "self" in spec.static_names
        if static_self:
            if not _identity_hashed_class(ctx, cls) or not _mutates_self(cls):
                return
            why = (
                f"`{node.name}` is jitted with `self` static, but `{cls.name}` hashes by identity "
                "and its attributes change: calls after a change reuse the stale compiled result"
            )
        else:
            if _pytree_class(ctx, cls):
                return
            why = (
                f"`@jit` on the method `{cls.name}.{node.name}` traces `self`, which is not a JAX type: "
                "the call raises `TypeError: Error interpreting argument ... at path self`"
            )
        self.report(node, why=why, span=_def_span(ctx, node))

    visit_AsyncFunctionDef = visit_FunctionDef


def _def_span(ctx: Context, node: ast.FunctionDef):  # noqa: ANN202
    from jaxlint.diagnostic import Span

    line = node.lineno
    text = ctx.source.line(line)
    col = len(text) - len(text.lstrip())
    return Span(Position(line, col), Position(line, len(text.rstrip())))
