"""JAX5xx: mutation and side effects."""

from __future__ import annotations

import ast

from jaxlint.analysis import Level
from jaxlint.analysis.imports import FUNCTION_NODES, ancestors, functional_method_call
from jaxlint.analysis.values import MUTABLE_CONTAINERS, Kind
from jaxlint.rules.base import Context, Examples, Rule

AT_METHODS = {
    ast.Add: "add",
    ast.Sub: "subtract",
    ast.Mult: "multiply",
    ast.Div: "divide",
    ast.Pow: "power",
}


def jax_array_name(ctx: Context, name: ast.Name) -> bool:
    """`name` holds a JAX array here, by the shared value-kind evidence (`jnp.*` results,
    `.at[...]` updates, arithmetic on traced values; never a dict that `lax.pmean` or a
    `grad(has_aux=True)` aux returned)."""
    return ctx.facts.values.is_array(name)


def _static_index(node: ast.AST) -> bool:
    """Integer constants, slices, Ellipsis/None and tuples of them: no duplicate positions."""
    if isinstance(node, ast.Tuple):
        return all(_static_index(e) for e in node.elts)
    if isinstance(node, ast.Slice):
        return True
    if isinstance(node, ast.Constant):
        return node.value is Ellipsis or node.value is None or isinstance(node.value, int)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    return False


def _scalar_index(node: ast.AST) -> bool:
    """Also plain names: a scalar index cannot repeat (an array of indices would be a Name too,
    so names are only allowed for `set`, where duplicates keep one value like NumPy)."""
    return _static_index(node) or isinstance(node, ast.Name)


class InplaceArrayUpdate(Rule):
    """Flags item assignment on a JAX array.

    What it does: finds `x[i] = v` and `x[i] += v` where `x` is a JAX array (bound from
    `jnp.*`, `jax.random.*`, `jax.lax.*`, `.at[...]`, or a traced array).
    Why is this bad: JAX arrays are immutable. The assignment raises `TypeError: JAX arrays are
    immutable and do not support in-place item assignment`, eagerly and under jit.
    Example:
        x = jnp.zeros(3)
        x[0] = 1.0
    Use instead:
        x = jnp.zeros(3)
        x = x.at[0].set(1.0)
    Fix: `x[i] = v` -> `x = x.at[i].set(v)` (safe); `x[i] += v` -> `x = x.at[i].add(v)` (safe for
    integer and slice indices; unsafe for an index array, where repeated indices accumulate
    in JAX but not in NumPy).
    """

    code = "JAX501"
    name = "inplace-array-update"
    message = "JAX arrays are immutable: `{target}` raises TypeError; use `{name} = {name}.at[...].{method}(...)`"
    fix_safety = "safe"
    verifier = "trace"
    templates = ("scan",)
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            x[0] = 1.0  # error: JAX501
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def step(grid, i):
                grid = grid * 2
                grid[i, 0] += 1.0  # error: JAX501
                return grid
            """,
            """
            import jax.numpy as np

            def build(n):
                out = np.ones((n, n))
                out[:, 0] = 0.0  # error: JAX501
                return out
            """,
        ),
        valid=(
            """
            import numpy as np

            x = np.zeros(3)
            x[0] = 1.0
            """,
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            x = x.at[0].set(1.0)
            d = {}
            d["a"] = x
            """,
            """
            import jax

            @jax.jit
            def f(params, x):
                params["w"] = params["w"] * 2
                return params
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp

                x = jnp.zeros(3)
                x[0] = 1.0  # keep me
                """,
                """
                import jax.numpy as jnp

                x = jnp.zeros(3)
                x = x.at[0].set(1.0)  # keep me
                """,
            ),
            (
                """
                import jax.numpy as jnp

                def f():
                    y = jnp.ones((2, 2))
                    y[0, :] += 2
                    y[1] *= 3
                    return y
                """,
                """
                import jax.numpy as jnp

                def f():
                    y = jnp.ones((2, 2))
                    y = y.at[0, :].add(2)
                    y = y.at[1].multiply(3)
                    return y
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax.numpy as jnp

                def f(idx):
                    y = jnp.zeros(4)
                    y[idx] += 1
                    return y
                """,
                """
                import jax.numpy as jnp

                def f(idx):
                    y = jnp.zeros(4)
                    y = y.at[idx].add(1)
                    return y
                """,
            ),
        ),
    )

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        if len(node.targets) != 1:
            return
        self._check(node, node.targets[0], node.value, None, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        self._check(node, node.target, node.value, node.op, ctx)

    def _check(self, stmt, target, value, op, ctx: Context) -> None:  # noqa: ANN001
        if not isinstance(target, ast.Subscript) or not isinstance(target.value, ast.Name):
            return
        base = target.value
        if not jax_array_name(ctx, base):
            return
        method = "set" if op is None else AT_METHODS.get(type(op))
        fix = None
        if method is not None:
            safety = "safe"
            if op is not None and not _static_index(target.slice):
                safety = "unsafe"
            idx = ctx.text(target.slice)
            val = ctx.text(value)
            text = f"{base.id} = {base.id}.at[{idx}].{method}({val})"
            fix = self.fix(ctx.replace(stmt, text), safety=safety, message=f"Use `.at[].{method}`")
        self.report(
            stmt,
            target=ctx.text(target) + (" = ..." if op is None else " op= ..."),
            name=base.id,
            method=method or "set",
            fix=fix,
            span=ctx.span(target) if False else None,
        )


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
SIDE_EFFECT_ADVICE = "return it from the function instead, or log it with `jax.debug.callback`"


def _holds_tracer(ctx: Context, node: ast.AST) -> bool:
    return ctx.taint.is_traced(node) or ctx.taint.level(node) == Level.CONTAINER


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
    facts = ctx.facts.transforms.facts
    for fn in reversed(ctx.functions):
        f = facts.get(fn)
        if f is not None and f.via in TRACE_ONCE:
            return True
    return False


def _outer_binding(ctx: Context, name: ast.Name) -> str | None:
    """ "module" or "function" when `name` resolves to an enclosing scope's binding that
    outlives the current trace. A list owned by an enclosing traced function, filled by a
    helper it calls directly, lives in the same trace: that is ordinary Python, not a leak
    (only a separately traced body, such as a `scan` or `cond` body, leaks into it)."""
    scope = ctx.index.scopes.get(ctx.function_node)
    if scope is None or (name.id in scope.bindings and name.id not in scope.globals):
        return None
    s = scope.parent
    if name.id in scope.globals and name.id not in scope.nonlocals:
        s = ctx.index.scopes[ctx.index.tree]
    while s is not None:
        if s.kind != "class" and name.id in s.bindings:
            if s.parent is None:
                return "module"
            owner = ctx.facts.function_facts(s.node)
            current = ctx.function
            if owner is not None and owner.is_jit and current is not None and current.chain:
                return None  # same trace: a helper called (not transformed) inside the owner
            return "function"
        s = s.parent
    return None


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
    writes of traced values. Methods of flax and equinox Modules are left alone (their
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
        ),
        valid=(
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
        return cls is not None and ctx.facts.transforms.is_plain_class(cls)

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            self._store(node, target, node.value, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        self._store(node, node.target, node.value, ctx)

    def visit_AnnAssign(self, node: ast.AnnAssign, ctx: Context) -> None:
        if node.value is not None:
            self._store(node, node.target, node.value, ctx)

    def _store(self, stmt: ast.stmt, target: ast.AST, value: ast.AST, ctx: Context) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._store(stmt, elt, value, ctx)
            return
        if self._silent(ctx):
            return
        traced = _holds_tracer(ctx, value)
        if isinstance(target, ast.Name):
            scope = ctx.index.scopes.get(ctx.function_node)
            if scope is None or target.id not in scope.globals:
                return
            is_global = target.id not in scope.nonlocals
            if not (is_global or traced):
                return
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
            return
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            if _outer_binding(ctx, target.value) is None or _is_ref(ctx, target.value):
                return
            what = f"storing into `{target.value.id}[...]`"
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


class MutableGlobalInTraced(Rule):
    """Flags a jitted function reading a module-level variable that the module changes.

    What it does: in a function compiled by `jax.jit` (or `pmap`, `eqx.filter_jit`,
    `nnx.jit`, directly or through the functions it calls), finds reads of a module-level
    name that is reassigned or mutated elsewhere: in a function body (`global scale;
    scale = ...`, `CONFIG["lr"] = ...`, `TABLE.append(...)`) or at module level after the
    jitted function has been called. Lazy initialization (`if X is None: X = ...`) is fine.
    Why is this bad: the value is read once, at trace time, and baked into the compiled
    program as a constant. Later changes are ignored until something forces a re-trace
    (a new input shape), so results silently depend on the compilation history.
    Example:
        scale = 2.0

        @jax.jit
        def scaled(x):
            return x * scale

        def set_scale(v):
            global scale
            scale = v
    Use instead:
        @jax.jit
        def scaled(x, scale):
            return x * scale
    Or mark it static (`static_argnames`) when it selects a code path. No automatic fix.
    """

    code = "JAX503"
    traced_evidence = True
    name = "mutable-global-in-traced"
    message = (
        "`{name}` is a module-level variable that changes ({where}), but `{fn}` reads it at "
        "trace time and bakes it in as a constant ({why}): later changes are ignored; pass it "
        "as an argument (or a static argument)"
    )
    verifier = "numeric"
    tier = 3
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            scale = 2.0

            @jax.jit
            def scaled(x):
                return x * scale  # error: JAX503

            def set_scale(v):
                global scale
                scale = v
            """,
            """
            import jax
            import jax.numpy as jnp

            CONFIG = {"lr": 0.1}

            def apply_update(params, grads):
                return params - CONFIG["lr"] * grads  # error: JAX503

            @jax.jit
            def train_step(params, grads):
                return apply_update(params, grads)

            def decay():
                CONFIG["lr"] = CONFIG["lr"] * 0.5
            """,
            """
            from jax import jit

            temperature = 1.0

            @jit
            def logits(x):
                return x / temperature  # error: JAX503

            print(logits(3.0))
            temperature = 0.5
            print(logits(3.0))
            """,
        ),
        valid=(
            """
            import jax

            SCALE = 2.0
            TABLE = [1.0, 2.0]
            TABLE.append(3.0)

            @jax.jit
            def f(x):
                return x * SCALE + TABLE[0]
            """,
            """
            import jax

            _CACHE = None

            def table():
                global _CACHE
                if _CACHE is None:
                    _CACHE = [1.0, 2.0]
                return _CACHE

            @jax.jit
            def f(x):
                return x * _CACHE[0]
            """,
            """
            import jax

            scale = 2.0

            def eager(x):
                return x * scale

            @jax.jit
            def g(x, scale):
                return x * scale

            def set_scale(v):
                global scale
                scale = v
            """,
        ),
    )

    def __init__(self, ctx: Context, sink) -> None:  # noqa: ANN001
        super().__init__(ctx, sink)
        self._seen: set[tuple[int, str]] = set()
        self._first_call: tuple[int, set[ast.AST]] | None = None

    def visit_Name(self, node: ast.Name, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load) or not ctx.in_jit:
            return
        fn_node = ctx.function_node
        if fn_node is None or (id(fn_node), node.id) in self._seen:
            return
        writes = ctx.index.module_writes().get(node.id)
        if not writes or not ctx.index.is_module_name(node):
            return
        module = ctx.index.scopes[ctx.index.tree]
        if any(b.kind in ("import", "def", "class") for b in module.bindings.get(node.id, ())):
            return
        if not ctx.facts.transforms.compiled(fn_node):
            return
        late = [w for w in self._late_writes(writes, node.id, ctx) if _same_part(w, node)]
        if not late:
            return
        self._seen.add((id(fn_node), node.id))
        w = late[0]
        where = (
            f"line {w.node.lineno}, in `{getattr(w.function, 'name', '<lambda>')}`"  # type: ignore[attr-defined]
            if w.function is not None
            else f"line {w.node.lineno}, after the jitted function is called"  # type: ignore[attr-defined]
        )
        fn = ctx.function
        self.report(
            node,
            name=node.id,
            where=where,
            fn=fn.name if fn else "this function",
            why=fn.describe() if fn else "",
        )

    def _late_writes(self, writes, name: str, ctx: Context) -> list:  # noqa: ANN001
        first_line, loops = self._first_traced_call(ctx)
        out = []
        current = set(ctx.functions)
        defined = _module_statement(ctx.function_node)
        for w in writes:
            if w.function is not None:
                if w.function in current or _lazy_init(w.node, name):
                    continue
                out.append(w)
            elif defined is not None and not _after(w.node, defined):
                continue  # program order: rebound before the reader exists, so never seen stale
            elif w.node.lineno > first_line or any(loop in loops for loop in ancestors(w.node)):
                out.append(w)
        return out

    def _first_traced_call(self, ctx: Context) -> tuple[float, set[ast.AST]]:
        """Line of the first module-level call of a traced function, and the module-level
        loops that contain such a call (a write anywhere in them happens after a call)."""
        if self._first_call is None:
            first = float("inf")
            loops: set[ast.AST] = set()
            transforms = ctx.facts.transforms
            for call in ctx.index.calls:
                if ctx.index.enclosing_function(call) is not None:
                    continue
                if transforms.traced_callee(call) is None:
                    continue
                first = min(first, call.lineno)
                loops.update(
                    a for a in ancestors(call) if isinstance(a, (ast.For, ast.AsyncFor, ast.While))
                )
            self._first_call = (first, loops)  # type: ignore[assignment]
        return self._first_call  # type: ignore[return-value]


def _module_statement(node: ast.AST | None) -> ast.stmt | None:
    """The module-level statement holding `node` (the `def` of a reader, or the line that
    builds a jitted lambda)."""
    cur = node
    while cur is not None:
        parent = getattr(cur, "jl_parent", None)
        if isinstance(parent, ast.Module):
            return cur if isinstance(cur, ast.stmt) else None
        cur = parent
    return None


def _after(node: ast.AST, stmt: ast.stmt) -> bool:
    """`node` runs after `stmt` starts: it is below it, or inside it (a loop that defines the
    reader and rebinds the name runs the rebinding again after the definition)."""
    if node.lineno >= stmt.lineno:  # type: ignore[attr-defined]
        return True
    return any(a is stmt for a in ancestors(node))


def _same_part(write, read: ast.Name) -> bool:  # noqa: ANN001
    """A write to `X.a` (or `X["a"]`) matters to a read of `X.a` (`X["a"]`) or of `X` itself,
    not to a read of `X.b` (`FLAGS.alsologtostderr = True` vs `FLAGS.lr`)."""
    if write.kind not in ("attr", "item"):
        return True
    parent = getattr(read, "jl_parent", None)
    if write.kind == "attr":
        if isinstance(parent, ast.Attribute) and parent.value is read:
            return parent.attr == write.node.attr
        return not isinstance(parent, ast.Subscript) or parent.value is not read
    if isinstance(parent, ast.Subscript) and parent.value is read:
        a, b = parent.slice, write.node.slice
        if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
            return a.value == b.value
        return True
    return not isinstance(parent, ast.Attribute) or parent.value is not read


def _lazy_init(node: ast.AST, name: str) -> bool:
    """Inside `if NAME is None:` / `if not NAME:` (a one-time initialization)."""
    for anc in ancestors(node):
        if isinstance(anc, FUNCTION_NODES):
            return False
        if isinstance(anc, ast.If):
            for sub in ast.walk(anc.test):
                if not isinstance(sub, ast.Compare):
                    pass
                elif (  # `if X is None:`
                    isinstance(sub.left, ast.Name)
                    and sub.left.id == name
                    and isinstance(sub.ops[0], (ast.Is, ast.Eq))
                ) or any(  # `if key not in X:` (memoization: each entry written once)
                    isinstance(op, (ast.In, ast.NotIn)) and isinstance(c, ast.Name) and c.id == name
                    for op, c in zip(sub.ops, sub.comparators)
                ):
                    return True
                if (
                    isinstance(sub, ast.UnaryOp)
                    and isinstance(sub.op, ast.Not)
                    and isinstance(sub.operand, ast.Name)
                    and sub.operand.id == name
                ):
                    return True
    return False


# -- JAX504 / JAX505: functional updates whose result is lost ------------------------------------

AT_UPDATES = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "div", "power", "min", "max", "apply"}
)
# methods of a JAX array with an effect (everything else returns a new value)
ARRAY_EFFECT_METHODS = frozenset(
    {"block_until_ready", "copy_to_host_async", "delete", "item", "tolist", "__array__"}
)
PURE_UPDATES = frozenset({"optax.apply_updates", "optax.incremental_update", "dataclasses.replace"})
ERROR_PROBES = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})
CLOCK_WORDS = ("time.", "timeit.")


def _at_base(call: ast.AST) -> ast.AST | None:
    """`x` in `x.at[i].set(v)` (any `.at[...]` update method), else None."""
    func = call.func if isinstance(call, ast.Call) else None
    if (
        isinstance(func, ast.Attribute)
        and func.attr in AT_UPDATES
        and isinstance(func.value, ast.Subscript)
        and isinstance(func.value.value, ast.Attribute)
        and func.value.value.attr == "at"
    ):
        return func.value.value.value
    return None


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
    `params = optax.apply_updates(params, u)`, `x = x.sort()`), safe when the updated value
    is a plain name; none for other `jnp` functions and array methods (which name receives
    the result is the author's choice).
    """

    code = "JAX504"
    name = "discarded-functional-update"
    message = (
        "`{call}` returns a new value and leaves {target} unchanged ({why}); the result is "
        "thrown away: {advice}"
    )
    fix_safety = "safe"
    verifier = "numeric"
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
    )

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        call = node.value
        if not isinstance(call, ast.Call):
            return
        found = self._update(call, ctx)
        if found is None:
            return
        target, why = found
        if ctx.path.endswith(".ipynb") and ctx.index.enclosing_function(node) is None:
            return  # a notebook cell's last expression is displayed, not thrown away
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
                return receiver, "replace"
        if func.attr not in ARRAY_EFFECT_METHODS and values.of(receiver) == Kind.ARRAY:
            return receiver, "array method"
        if func.attr == "update" and isinstance(receiver, ast.Name):
            b = ctx.index.binding(receiver.id, ctx.index.scope_of(receiver))
            value = b.value if b is not None and b.kind == "assign" else None
            if isinstance(value, ast.Call) and (ctx.qualname(value.func) or "").startswith(
                "optax."
            ):
                return None, "optax"
        return None


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


def _loads_after(scope_node: ast.AST, name: str, after: tuple[int, int], within: ast.AST) -> bool:
    """A load of `name` in `within` at a position after `after`."""
    for n in ast.walk(within):
        if (
            isinstance(n, ast.Name)
            and n.id == name
            and isinstance(n.ctx, ast.Load)
            and (n.lineno, n.col_offset) > after
        ):
            return True
    return False


def _loop_elements(ctx: Context, loop: ast.For, name: str) -> Kind:
    """The kind `name` gets from each iteration of `loop` (`for p in ps`, `for p, g in
    zip(ps, gs)`, `for i, p in enumerate(ps)`)."""
    values = ctx.facts.values
    target, iterable = loop.target, loop.iter
    if isinstance(target, ast.Name):
        return values.element(iterable) if target.id == name else Kind.UNKNOWN
    if not isinstance(target, ast.Tuple) or not isinstance(iterable, ast.Call):
        return Kind.UNKNOWN
    q = ctx.qualname(iterable.func)
    pos = next(
        (i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name), None
    )
    if pos is None:
        return Kind.UNKNOWN
    if q == "zip" and pos < len(iterable.args):
        return values.element(iterable.args[pos])
    if q == "enumerate" and pos == 1 and iterable.args:
        return values.element(iterable.args[0])
    return Kind.UNKNOWN


class LostLoopVariableUpdate(Rule):
    """Flags an update of a loop variable that holds a JAX array, whose result is lost.

    What it does: in `for p in params:` (or `for p, g in zip(params, grads):`) over a list,
    tuple or pytree of JAX arrays, finds `p -= lr * g` or `p = p.at[0].set(1)` when the new
    `p` is never read or stored afterwards (in the rest of the loop body or after the loop).
    Why is this bad: JAX arrays are immutable, so unlike NumPy `p -= x` does not write into
    the array in the list: it binds a new array to the name `p`, which the next iteration
    replaces. `params` is unchanged and the update is lost.
    Example:
        for p, g in zip(params, grads):
            p -= lr * g
    Use instead:
        params = [p - lr * g for p, g in zip(params, grads)]
        # or: params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    Fix: none (the new values have to be collected somewhere the code decides).
    """

    code = "JAX505"
    name = "lost-loop-variable-update"
    message = (
        "`{stmt}` binds a new array to the loop variable `{name}` (JAX arrays are immutable, "
        "so nothing in `{source}` changes) and the next iteration drops it: the update is "
        "lost; collect the new values (`[... for {name} in ...]` or `jax.tree.map`)"
    )
    # RULES.md plans `numeric`; the numeric verifier compares a finding with its fix, and this
    # rule has none, so there is nothing to run yet
    verifier = None
    tier = 2
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def sgd(params, grads):
                for p, g in zip(params, grads):
                    p -= 0.1 * g  # error: JAX505
                return params
            """,
            """
            import jax.numpy as jnp

            layers = [jnp.zeros(3), jnp.ones(3)]
            for w in layers:
                w = w.at[0].set(1.0)  # error: JAX505
            """,
        ),
        valid=(
            """
            import numpy as np
            import jax.numpy as jnp

            host = [np.zeros(3), np.ones(3)]
            for w in host:
                w -= 1.0  # NumPy: in place

            layers = [jnp.zeros(3), jnp.ones(3)]
            new = []
            for w in layers:
                w = w.at[0].set(1.0)
                new.append(w)
            for w in layers:
                w += 1.0
            print(w)
            """,
        ),
    )

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        names = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        if not names:
            return
        for stmt in _same_iteration_statements(node.body):
            name, value = _rebinding(stmt)
            if name not in names:
                continue
            if isinstance(stmt, ast.Assign):
                if _at_base(value) is None or not _mentions(value, name):  # type: ignore[arg-type]
                    continue
            elif _loop_elements(ctx, node, name) != Kind.ARRAY:
                continue  # `p -= x` on a NumPy array writes in place: not lost
            end = (getattr(stmt, "end_lineno", stmt.lineno), getattr(stmt, "end_col_offset", 0))
            if _loads_after(node, name, end, node):
                continue
            owner = ctx.index.enclosing_function(node) or ctx.index.tree
            if _loads_after(owner, name, end, owner):
                continue  # read after the loop (the last iteration's value is kept)
            source = ctx.text(node.iter)
            self.report(stmt, stmt=_short(ctx.text(stmt)), name=name, source=_short(source))


def _same_iteration_statements(stmts: list[ast.stmt]):
    """Statements of a loop body, entering `if`/`with`/`try` but not nested loops or defs."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, (ast.If, ast.With, ast.AsyncWith, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                yield from _same_iteration_statements(getattr(stmt, field, []) or [])
            for handler in getattr(stmt, "handlers", []):
                yield from _same_iteration_statements(handler.body)


def _rebinding(stmt: ast.stmt) -> tuple[str | None, ast.AST | None]:
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target.id, stmt.value
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id, stmt.value
    return None, None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
