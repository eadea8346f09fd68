"""JAX502: side effects that run only at trace time inside traced functions.

Appending to an outer list, storing into an outer dict, setting an attribute or a global from a
jitted function happens once, while JAX traces, and stores tracers; the helpers tell an outer
container from a local one and leave alone flax/equinox Module methods, transforms that trace
once on purpose (`jax.eval_shape`) and mutable JAX refs.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import Level
from jaxlint.analysis.flow.key_terms import in_test_code
from jaxlint.analysis.imports import functional_method_call
from jaxlint.analysis.values import MUTABLE_CONTAINERS, Kind
from jaxlint.rules.base import Context, Examples, Rule, Verify

APPEND_LIKE = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft"}
)
LIST_METHODS = frozenset({"append", "extend", "insert", "appendleft", "extendleft"})
CONTAINER_FACTORIES = frozenset(
    {
        "list",
        "dict",
        "set",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.deque",
        "collections.Counter",
    }
)
AUG_OPS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.MatMult: "@",
}
SIDE_EFFECT_ADVICE = "return it from the function instead, or log it with `jax.debug.callback`"


def _holds_tracer(ctx: Context, node: ast.AST) -> bool:
    if ctx.taint.is_traced(node) or ctx.taint.level(node) == Level.CONTAINER:
        return True
    return _closure_over_tracer(ctx, node)


def _closure_over_tracer(ctx: Context, node: ast.AST) -> bool:
    """A lambda that reads a traced value, alone or in a list/tuple/set/dict display."""
    if isinstance(node, ast.Lambda):
        return ctx.taint.captures_traced(node)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return any(_closure_over_tracer(ctx, e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(v is not None and _closure_over_tracer(ctx, v) for v in node.values)
    return False


def _module_object(ctx: Context, node: ast.AST) -> bool:
    """`a.dct`, `registry.items`: an attribute chain on an object the module binds by
    assignment (not an import), so what is stored in it outlives the trace."""
    while isinstance(node, ast.Attribute):
        node = node.value
    if not isinstance(node, ast.Name) or _outer_binding(ctx, node) != "module":
        return False
    found = ctx.index.lookup(node.id, ctx.index.scope_of(node))
    return bool(found) and all(b.kind == "assign" for b in found)


def _enclosing_class(ctx: Context, fn: ast.AST | None) -> ast.ClassDef | None:
    scope = ctx.index.scopes.get(fn) if fn is not None else None
    cls = scope.class_scope if scope is not None else None
    return cls.node if cls is not None else None  # type: ignore[return-value]


def _in_module_class(ctx: Context) -> bool:
    """Inside a method of a flax/equinox Module (their idioms mutate `self` on purpose)."""
    for fn in ctx.functions:
        cls = _enclosing_class(ctx, fn)
        if cls is not None and ctx.facts.transforms.module_library(cls) is not None:
            return True
    return False


# transforms that trace once to inspect a function: capturing values from them is the point
TRACE_ONCE = frozenset(
    {"jax.eval_shape", "jax.make_jaxpr", "equinox.filter_eval_shape", "equinox.filter_make_jaxpr"}
)


def _trace_once(ctx: Context) -> bool:
    facts = ctx.facts.traced
    for fn in reversed(ctx.functions):
        f = facts.get(fn)
        if f is not None and f.via in TRACE_ONCE:
            return True
    return False


def _outer_binding(ctx: Context, name: ast.Name) -> str | None:
    """Where the binding `name` resolves to outlives the current trace (analysis/traced.py)."""
    return ctx.facts.traced.outlives_trace(name, ctx.function_node)


def _container_binding(ctx: Context, name: ast.Name) -> bool:
    """Every binding of `name` is a list/dict/set display, comprehension or constructor."""
    found = ctx.index.lookup(name.id, ctx.index.scope_of(name))
    if not found:
        return False
    for b in found:
        value = b.value if b.kind == "assign" else None
        if isinstance(
            value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
        ):
            continue
        if isinstance(value, ast.Call) and ctx.qualname(value.func) in CONTAINER_FACTORIES:
            continue
        return False
    return True


def _read_back(target: ast.AST, fn: ast.AST | None) -> bool:
    """The updated slot is read again inside the same traced function (`counts[name] += 1`,
    then `name += "_%d" % counts[name]`): the count is consumed at trace time, by design
    (naming the summaries of the program being traced), not accumulated for the host."""
    if fn is None:
        return False
    text = ast.unparse(target)
    for node in ast.walk(fn):
        if (
            node is not target
            and isinstance(node, type(target))
            and isinstance(getattr(node, "ctx", None), ast.Load)
            and ast.unparse(node) == text
        ):
            return True
    return False


REF_MODULES = ("jax.experimental.pallas", "jax.experimental.mosaic", "jax._src.state")


def _is_ref(ctx: Context, name: ast.Name) -> bool:
    """A mutable JAX Ref (Pallas kernel refs, `jax.new_ref`): `ref[...] = v` is the idiom."""
    if name.id.lower().endswith("ref") or name.id.lower().endswith("refs"):
        return True
    found = ctx.index.lookup(name.id, ctx.index.scope_of(name)) or []
    for b in found:
        if b.kind == "assign" and isinstance(b.value, ast.Call):
            q = ctx.qualname(b.value.func) or ""
            if "ref" in q.rsplit(".", 1)[-1] or "mutable_array" in q:
                return True
    module = ctx.index.scopes[ctx.index.tree]
    return any(
        b.kind == "import" and (b.qualname or "").startswith(REF_MODULES)
        for bindings in module.bindings.values()
        for b in bindings
    )


class SideEffectInTraced(Rule):
    """Flags side effects that run only at trace time inside traced functions.

    What it does: inside a jit-like function, finds tracers stored outside it:
    `log.append(x)` / `.extend` / `.update` / `.add` on a list, dict or set from an enclosing
    scope, `cache[k] = x` into an outer container, `self.x = x` in a plain (non-Module) class;
    and every write to a `global` variable (`global counter; counter += 1`) plus `nonlocal`
    writes of traced values; and plain Python bookkeeping on outer state, even of static
    values (`self.steps += 1`, `stats[k] += x.shape[0]`), which counts traces, not calls. Methods of flax and equinox Modules are left alone (their
    idioms manage state), and so is recording static facts such as shapes.
    Why is this bad: JAX runs the Python body once per compilation, not once per call: after
    three calls the list holds one entry, the counter is 1, and the stored value is a tracer
    (`JitTracer(float32[])`); using it later raises `UnexpectedTracerError`.
    Example:
        history = []

        @jax.jit
        def step(x):
            history.append(x)
            return x * 2
    Use instead:
        @jax.jit
        def step(x):
            return x * 2, x          # return what you want to keep

        y, seen = step(x)
        history.append(seen)
    Or `jax.debug.callback(lambda v: history.append(v), x)` for logging. No automatic fix.
    """

    code = "JAX502"
    traced_evidence = True
    name = "side-effect-in-traced"
    message = (
        "{what} inside a traced function runs only once, at trace time; {why}: "
        "{consequence}; {advice}"
    )
    verifier = "execcount"
    verify = Verify(kinds=("execcount", "leaks"))
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            history = []

            @jax.jit
            def step(x):
                history.append(x)  # error: JAX502
                return x * 2
            """,
            """
            import jax

            counter = 0

            @jax.jit
            def step(x):
                global counter
                counter += 1  # error: JAX502
                return x * 2
            """,
            """
            import jax
            import jax.numpy as jnp

            def make_trainer():
                metrics = {}

                def loss_fn(params, batch):
                    loss = jnp.mean((batch @ params) ** 2)
                    metrics["loss"] = loss  # error: JAX502
                    return loss

                @jax.jit
                def train_step(params, batch):
                    return jax.grad(loss_fn)(params, batch)

                return train_step
            """,
            """
            import jax
            import jax.numpy as jnp
            from jax import lax

            @jax.jit
            def run(xs):
                seen = []

                def body(carry, x):
                    seen.append(x)  # error: JAX502
                    return carry + x, None

                total, _ = lax.scan(body, 0.0, xs)
                return total, jnp.stack(seen)
            """,
            """
            import jax
            from jax import lax

            class Recorder:
                def __init__(self):
                    self.last = None

                def body(self, carry, x):
                    self.last = carry  # error: JAX502
                    return carry + x, None

                def run(self, xs):
                    return lax.scan(self.body, 0.0, xs)
            """,
            """
            import jax

            stats = {"rows": 0}

            class Trainer:
                def __init__(self):
                    self.steps = 0
                    self.step = jax.jit(self._step)

                def _step(self, x):
                    self.steps += 1  # error: JAX502
                    stats["rows"] += x.shape[0]  # error: JAX502
                    return x * 2
            """,
            """
            import jax

            class Registry:
                def __init__(self):
                    self.table = {}

            registry = Registry()

            def sketch(x):
                registry.table["hi"] = [lambda: x]  # error: JAX502
                return x

            ys = jax.vmap(sketch)
            """,
        ),
        valid=(
            """
            import jax
            from jax import lax

            class Registry:
                def __init__(self):
                    self.table = {}

            registry = Registry()

            def sketch(x, n):
                registry.table["size"] = [lambda: n]  # a Python value: nothing traced leaks
                return lax.cond(x.sum() > 0, lambda: x, lambda: -x)

            ys = jax.vmap(sketch, in_axes=(0, None))
            """,
            """
            import jax

            history = []

            @jax.jit
            def step(x):
                jax.debug.callback(lambda v: history.append(v), x)
                return x * 2

            def train(x):
                y = step(x)
                history.append(y)
                return y
            """,
            """
            import jax
            import jax.numpy as jnp

            shapes = []

            @jax.jit
            def step(x):
                shapes.append(x.shape)
                out = []
                out.append(x * 2)

                def add(v):
                    out.append(v)

                add(x + 1)
                return jnp.stack(out)
            """,
            """
            import jax

            stats = {}

            @jax.jit
            def step(x):
                n = 0
                for _ in range(3):
                    n += 1
                stats["shape"] = x.shape
                return x * n
            """,
            """
            import flax.linen as nn
            from flax import nnx

            class Counter(nnx.Module):
                def __init__(self):
                    self.count = nnx.Variable(0)

                def __call__(self, x):
                    self.count.value += 1
                    self.last = x
                    return x

            class Dense(nn.Module):
                @nn.compact
                def __call__(self, x):
                    self.sow("intermediates", "x", x)
                    return x
            """,
        ),
    )

    def _why(self, ctx: Context, node: ast.AST | None) -> str:
        if node is not None and ctx.taint.traced_name(node):
            return ctx.why_traced(node)
        return ctx.function.describe() if ctx.function else ""

    def _silent(self, ctx: Context) -> bool:
        return not ctx.in_jit or _in_module_class(ctx) or _trace_once(ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in APPEND_LIKE:
            return
        if self._silent(ctx) or functional_method_call(node):
            return  # `buf = buffer.insert(buf, x)`: a functional API returns the new value
        receiver = func.value
        outer = None
        if isinstance(receiver, ast.Name):
            kind = ctx.facts.values.of(receiver)
            if kind != Kind.UNKNOWN and kind not in MUTABLE_CONTAINERS:
                return  # an array, an instance, a tuple: not a list/dict/set being filled
            outer = _outer_binding(ctx, receiver)
            if func.attr not in LIST_METHODS and not _container_binding(ctx, receiver):
                return  # `opt.update(...)`: only known lists/dicts/sets are mutated here
        elif self._self_attribute(receiver, ctx) and func.attr in LIST_METHODS:
            outer = "object"
        if outer is None:
            return
        traced = next(
            (a for a in [*node.args, *(k.value for k in node.keywords)] if _holds_tracer(ctx, a)),
            None,
        )
        if traced is None:
            return
        self.report(
            node,
            what=f"`{ctx.text(func)}(...)`",
            why=self._why(ctx, traced),
            consequence=(
                "it stores a tracer, which raises UnexpectedTracerError when used later, and "
                "later calls add nothing"
            ),
            advice=SIDE_EFFECT_ADVICE,
        )

    def _self_attribute(self, node: ast.AST, ctx: Context) -> bool:
        """`self.x` in a method of a plain (non-Module, non-pytree-framework) class."""
        if not (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            return False
        cls = _enclosing_class(ctx, ctx.function_node)
        if cls is None or not ctx.facts.transforms.is_plain_class(cls):
            return False
        row = ctx.facts.traced.get(ctx.function_node)
        return row is None or not row.fresh_self  # an object the trace made and drops

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            self._store(node, target, node.value, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        self._store(node, node.target, node.value, ctx)

    def visit_AnnAssign(self, node: ast.AnnAssign, ctx: Context) -> None:
        if node.value is not None:
            self._store(node, node.target, node.value, ctx)

    def _store(
        self,
        stmt: ast.stmt,
        target: ast.AST,
        value: ast.AST,
        ctx: Context,
        part: Level | None = None,
    ) -> None:
        """`part`: the level of the element of `value` that `target` receives, when `target`
        is one element of an unpacking whose parts the taint knows (`element_levels`)."""
        if isinstance(target, (ast.Tuple, ast.List)):
            if (
                isinstance(value, (ast.Tuple, ast.List))
                and len(value.elts) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts))
            ):
                for elt, v in zip(target.elts, value.elts):  # `self.a, self.b = x, f`
                    self._store(stmt, elt, v, ctx)
                return
            parts = ctx.taint.element_levels(target, value) if part is None else None
            for i, elt in enumerate(target.elts):
                self._store(stmt, elt, value, ctx, parts[i] if parts is not None else None)
            return
        if self._silent(ctx):
            return
        if part is not None:
            traced = part >= Level.TREE or part == Level.CONTAINER
        else:
            traced = _holds_tracer(ctx, value)
        if isinstance(target, ast.Name):
            scope = ctx.index.scopes.get(ctx.function_node)
            if scope is None or target.id not in scope.globals:
                return
            is_global = target.id not in scope.nonlocals
            if not (is_global or traced):
                return
            if not is_global and _outer_binding(ctx, target) is None:
                return  # a `nonlocal` of the enclosing function's own trace: ordinary Python
            kind = "global" if is_global else "nonlocal"
            self.report(
                stmt,
                what=f"assigning the {kind} `{target.id}`",
                why=self._why(ctx, value if traced else None),
                consequence="it changes once per compilation, not once per call"
                + (", and keeps a tracer" if traced else ""),
                advice="return the new value instead and keep the state in the function's "
                "inputs and outputs",
            )
            return
        if not traced:
            if isinstance(stmt, ast.AugAssign):
                self._accumulate(stmt, target, ctx)
            return
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            if _outer_binding(ctx, target.value) is None or _is_ref(ctx, target.value):
                return
            what = f"storing into `{target.value.id}[...]`"
        elif (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Attribute)
            and _module_object(ctx, target.value)
        ):
            what = f"storing into `{ctx.text(target.value)}[...]`"
        elif self._self_attribute(target, ctx):
            what = f"`{ctx.text(target)} = ...`"
        else:
            return
        self.report(
            stmt,
            what=what,
            why=self._why(ctx, value),
            consequence="it keeps a tracer, which raises UnexpectedTracerError when used later, "
            "and later calls do not update it",
            advice=SIDE_EFFECT_ADVICE,
        )

    def _accumulate(self, stmt: ast.AugAssign, target: ast.AST, ctx: Context) -> None:
        """`self.count += 1`, `stats[k] += x.shape[0]`: plain Python bookkeeping on state that
        outlives the trace. Even with a static value, the update runs once per trace, so the
        total counts compilations, not calls. Recording a static fact (`stats[k] = x.shape`)
        gives the same value on every trace and stays silent; so does a local counter, and a
        trace counter in a test (the standard way to assert how often JAX traces)."""
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            if _outer_binding(ctx, target.value) is None or _is_ref(ctx, target.value):
                return
            kind = ctx.facts.values.of(target.value)
            if kind != Kind.UNKNOWN and kind not in MUTABLE_CONTAINERS:
                return  # an array (`ref[...] += v` style), not a dict or list being counted
        elif not self._self_attribute(target, ctx):
            return
        if _read_back(target, ctx.function_node):
            return  # consumed by the trace itself (a per-trace name counter), not for the host
        if in_test_code(ctx.function_node):  # type: ignore[arg-type]
            return  # `count[0] += 1` in a test: counting traces is what the test asserts
        op = AUG_OPS.get(type(stmt.op), "")
        self.report(
            stmt,
            what=f"`{ctx.text(target)} {op}= ...`",
            why=self._why(ctx, None),
            consequence="the update runs once per compilation, not once per call, so the "
            "total counts traces",
            advice="keep the count in the function's inputs and outputs, or update it outside "
            "the jitted function",
        )
