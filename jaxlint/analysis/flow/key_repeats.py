"""Keys in code that runs more than once with the same inputs: a key that `vmap` broadcasts
to every batch element, a constant seed in a function that runs repeatedly (a `scan` body, a
step called in a loop, a vmapped function), a module-level key consumed in such a function,
a loop-invariant seed inside a loop, and the per-configuration loops (one input per problem
size) that are not reuse. A mixin of `KeyFlow` (flow/keys.py), which sets the attributes
and provides `consumed_names`, `resolve_callee` and `_bound`; split from it so each half
can be read at once.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property

from jaxlint.analysis import syntax
from jaxlint.analysis.calls import CallGraph
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.flow.key_terms import (
    ACCUMULATING_METHODS,
    CLOCKS,
    CONTAINER_CALLS,
    JIT_WRAPPERS,
    KEY_MAKERS,
    NON_CONSUMING,
    RECORD_METHODS,
    RNGS_MAKERS,
    VIEW_ATTRS,
    VIEW_METHODS,
    VMAPS,
    assigned_key_names,
    base_name,
    in_test_code,
    innermost_loop,
    key_argument,
    key_name,
    key_target_names,
    loop_invariant_seed,
    random_function,
    walk_function,
)
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.loops import dead_by_defaults, memo_branch, over_written_configurations
from jaxlint.analysis.syntax import COMPREHENSIONS, FUNCTION_NODES

# methods that collect their argument into the receiver: a result passed to one outlives the
# iteration that computed it
_COLLECTING = frozenset({"append", "extend", "insert", "add", "update", "appendleft", "put"})


@dataclass(frozen=True)
class ConstantSeed:
    """`jax.random.key(<loop-invariant seed>)` made inside a loop and consumed there."""

    node: ast.Call  # the key(...) / PRNGKey(...) call
    loop: ast.AST  # For/While/comprehension
    name: str | None  # the variable it is bound to (None: used directly)
    consumer: ast.Call  # the sampler or split that consumes it


@dataclass(frozen=True)
class UnmappedKey:
    """A key that `vmap` broadcasts (`in_axes=None`, or closed over) into a consumer."""

    node: ast.AST  # the vmap call (or the `partial(jax.vmap, ...)` decorator)
    fn: ast.AST  # the vmapped function
    name: str  # the parameter or closed-over key
    consumer: ast.Call  # its first consumption in `fn`
    how: str  # "in_axes" | "closure"


@dataclass(frozen=True)
class FixedSeed:
    """`jax.random.key(<constant>)` in a function that runs repeatedly, then consumed."""

    node: ast.Call
    fn: ast.AST
    consumer: ast.Call
    why: str


@dataclass(frozen=True)
class ModuleKeyUse:
    """A module-level key consumed inside a function."""

    name: str
    node: ast.Call  # the consumption
    fn: ast.AST
    binding: ast.AST  # where the module binds the key
    why: str


class KeyRepeats:
    """The repeated-run facts of `KeyFlow`: `unmapped_keys`, `repeated`, `called_repeatedly`,
    `fixed_seeds`, `module_key_uses`, `constant_seeds`, and `_per_configuration` /
    `_container_call`, which the reuse walk asks too."""

    # set by KeyFlow.__init__
    index: ModuleIndex
    calls: CallGraph
    active: bool
    consuming_params: dict[ast.AST, set[str]]
    _loop_bodies: set[ast.AST]
    _constant_seeds: list[ConstantSeed] | None
    _carried_cache: dict[int, set[str]]
    _timed_cache: dict[int, bool]

    # -- keys across calls: vmap, fixed seeds in repeated functions, module-level keys --------
    @cached_property
    def unmapped_keys(self) -> list[UnmappedKey]:
        """`jax.vmap(f, in_axes=(None, ...))` where `f` consumes the unmapped key parameter,
        or a vmapped function that consumes a key closed over from the enclosing function:
        every batch element draws the same numbers."""
        if not self.active:
            return []
        out: list[UnmappedKey] = []
        for site, fn, in_axes, bound_method in self._vmaps():
            params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]  # type: ignore[attr-defined]
            if bound_method and params and params[0] in ("self", "cls"):
                params = params[1:]  # `jax.vmap(self.select, in_axes=...)` maps the arguments
            if isinstance(in_axes, (ast.Tuple, ast.List)):
                for i, axis in enumerate(in_axes.elts):
                    if (
                        isinstance(axis, ast.Constant)
                        and axis.value is None
                        and i < len(params)
                        and params[i] in self.consuming_params.get(fn, ())
                    ):
                        consumer = self._first_consumer(fn, params[i])
                        if consumer is not None and not self._indexed_split(consumer, fn):
                            # a decorator is reported on the draw it spoils (the def is the site)
                            node = consumer if site in getattr(fn, "decorator_list", ()) else site
                            out.append(UnmappedKey(node, fn, params[i], consumer, "in_axes"))
            closure = self._closure_consumer(fn)
            if closure is not None and not self._indexed_split(closure[1], fn):
                out.append(UnmappedKey(site, fn, closure[0], closure[1], "closure"))
        return out

    def _vmaps(self):  # noqa: ANN202 - yields (report site, function, in_axes expr)
        for call in self.index.calls:
            q = self.index.qualname(call.func)
            if q == "functools.partial" and call.args:
                if self.index.qualname(call.args[0]) not in VMAPS:
                    continue
                parent = syntax.parent(call)
                if isinstance(parent, FUNCTION_NODES) and call in getattr(
                    parent, "decorator_list", ()
                ):
                    in_axes = next((k.value for k in call.keywords if k.arg == "in_axes"), None)
                    yield call, parent, in_axes, False
            elif q in VMAPS:
                fun = call.args[0] if call.args else None
                fun = fun or next((k.value for k in call.keywords if k.arg == "fun"), None)
                fn = self.index.resolve_function(fun) if fun is not None else None
                bound = isinstance(fun, ast.Attribute)
                if fn is None and isinstance(fun, ast.Name):
                    # `jax.vmap(block, ...)` over an instance of a module class: its __call__
                    fn = self._instance_call_method(fun)
                    bound = fn is not None
                if fn is None:
                    continue
                in_axes = call.args[1] if len(call.args) > 1 else None
                in_axes = in_axes or next(
                    (k.value for k in call.keywords if k.arg == "in_axes"), None
                )
                yield call, fn, in_axes, bound

    def _instance_call_method(self, name: ast.Name) -> ast.AST | None:
        """`Block.__call__` for `block` after `block = Block(key)` (a class of this module)."""
        if name.id == "self":
            return None
        cls = self.calls.instance_class(name)  # type: ignore[attr-defined]  # the call graph's
        if cls is None:
            return None
        for stmt in cls.body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == "__call__"
            ):
                return stmt
        return None

    def _first_consumer(self, fn: ast.AST, name: str) -> ast.Call | None:
        calls = [n for n in walk_function(fn) if isinstance(n, ast.Call)]
        calls.sort(key=lambda c: (c.lineno, c.col_offset))
        return next((c for c in calls if name in self.consumed_names(c)), None)

    def _indexed_split(self, consumer: ast.Call, fn: ast.AST) -> bool:
        """`split(key, n)[i]` with a mapped index `i`: each element picks its own key."""
        if random_function(self.index, consumer) != "split":
            return False
        parent = syntax.parent(consumer)
        if isinstance(parent, ast.Subscript) and not isinstance(parent.slice, ast.Constant):
            return True
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                for node in walk_function(fn):
                    if (
                        isinstance(node, ast.Subscript)
                        and isinstance(node.value, ast.Name)
                        and node.value.id == target.id
                        and not isinstance(node.slice, ast.Constant)
                    ):
                        return True
        return False

    def _closure_consumer(self, fn: ast.AST) -> tuple[str, ast.Call] | None:
        """A key from an enclosing function consumed inside `fn` (not a parameter, not bound
        in `fn`, not a module-level name)."""
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}  # type: ignore[attr-defined]
        local = self._bound(fn)
        calls = sorted(
            (n for n in walk_function(fn) if isinstance(n, ast.Call)),
            key=lambda c: (c.lineno, c.col_offset),
        )
        for call in calls:
            for name in self.consumed_names(call):
                root = base_name(name)
                if root in params or root in local or root in ("self", "cls"):
                    continue
                found = self.index.lookup(root, self.index.scope_of(call))
                scope = self._scope_holding(root, call)
                if found and scope is not None and scope.kind == "function":
                    return name, call
        return None

    def _scope_holding(self, name: str, node: ast.AST):  # noqa: ANN202
        s = self.index.scope_of(node)
        while s is not None:
            if name in s.bindings and s.kind != "class":
                return s
            s = s.parent
        return None

    @cached_property
    def repeated(self) -> dict[ast.AST, str]:
        """Functions that run more than once with the same inputs: loop bodies of `scan` &
        co., vmapped functions, steps called in a loop (`state = step(state, ...)`), and the
        functions they call. Test functions (`test_*`, `Test*` classes) are left out."""
        return self._repeated(steps_only=True)

    @cached_property
    def called_repeatedly(self) -> dict[ast.AST, str]:
        """`repeated`, plus every function called inside a loop or comprehension."""
        return self._repeated(steps_only=False)

    def _repeated(self, steps_only: bool) -> dict[ast.AST, str]:
        why: dict[ast.AST, str] = {}
        # source order, so that which loop body a shared callee's message names is stable
        for body in sorted(self._loop_bodies, key=lambda f: (f.lineno, f.col_offset)):  # type: ignore[attr-defined]
            why[body] = "it is the body of a `scan`/`fori_loop`/`while_loop`"
        for _, fn, _, _ in self._vmaps():
            why.setdefault(fn, "it is vmapped (every batch element runs it)")
        for call in self.index.calls:
            loop = innermost_loop(call)
            if loop is None:
                continue
            target = self.resolve_callee(call)
            if target is None or in_test_code(call):
                continue
            if not steps_only or self._step_call(call, loop):
                why.setdefault(target, f"it is called in the loop on line {loop.lineno}")  # type: ignore[attr-defined]
            elif self._step_function(target) and not over_written_configurations(loop, self.index):
                why.setdefault(
                    target,
                    f"it is a step called in every iteration of the loop on line {loop.lineno}",  # type: ignore[attr-defined]
                )
            elif self._same_inputs_call(call, loop):
                self._same_inputs.setdefault(target, loop)
                why.setdefault(
                    target,
                    f"it is called with the same arguments in every iteration of the loop on "
                    f"line {loop.lineno}",  # type: ignore[attr-defined]
                )
        # callees of callees, three levels deep; a benchmark (it reads a clock) repeats its
        # callees' fixed inputs on purpose, itself and through them
        todo = [f for f in why if not in_test_code(f) and not self._timed(f)]
        for _ in range(3):
            added = []
            for fn in (f for f in todo if not self._timed(f)):
                for node in walk_function(fn):
                    if isinstance(node, ast.Call):
                        target = self.resolve_callee(node)
                        if target is not None and target not in why and target is not fn:
                            name = getattr(fn, "name", "lambda")
                            why[target] = f"it is called from `{name}`, which runs repeatedly"
                            added.append(target)
            todo = added
        return {fn: w for fn, w in why.items() if not in_test_code(fn) and not self._timed(fn)}

    @cached_property
    def _same_inputs(self) -> dict[ast.AST, ast.AST]:
        """Functions called with the same arguments in every iteration of a loop whose
        result is kept (filled by `_repeated`): function -> the loop."""
        return {}

    def _step_function(self, fn: ast.AST) -> bool:
        """A per-step function: compiled with a jit wrapper (`@jax.jit`, `@nnx.jit`,
        `@eqx.filter_jit`, `partial(jax.jit, ...)`) or named as a step (`train_step`,
        `update_step`, `step`). Called in a loop over batches, it runs once per step and is
        meant to draw new numbers each time (the loop's result need not be carried)."""
        name = getattr(fn, "name", "")
        if name == "step" or name.endswith("_step") or name.startswith("step_"):
            return True
        for dec in getattr(fn, "decorator_list", ()):
            target = dec.func if isinstance(dec, ast.Call) else dec
            q = self.index.qualname(target)
            if q == "functools.partial" and isinstance(dec, ast.Call) and dec.args:
                q = self.index.qualname(dec.args[0])
            if q in JIT_WRAPPERS:
                return True
        return False

    def _same_inputs_call(self, call: ast.Call, loop: ast.AST) -> bool:
        """`[forward(x) for _ in range(4)]`, `for step in range(5): out = f(params, x);
        outs.append(out)`: nothing the loop binds reaches the call's arguments, the result is
        kept (not a bare statement), and the loop reads no clock (a benchmark repeats the
        same call on purpose). Each call is meant to give a new result, so a constant seed
        inside it repeats the draws."""
        if isinstance(syntax.parent(call), ast.Expr) or self._timed(loop):
            return False
        bound = self._bound(loop)
        for arg in [*call.args, *(kw.value for kw in call.keywords)]:
            for node in ast.walk(arg):
                if isinstance(node, ast.Name) and node.id in bound:
                    return False
                if isinstance(node, (ast.Await, ast.NamedExpr, ast.Yield, *COMPREHENSIONS)):
                    return False
        func = call.func
        while isinstance(func, ast.Attribute):
            func = func.value
        if isinstance(func, ast.Name) and func.id in bound:
            return False
        return self._kept_across_iterations(call, loop)

    def _kept_across_iterations(self, call: ast.Call, loop: ast.AST) -> bool:
        """The call's result outlives its iteration: collected by a comprehension, passed to
        `.append`/`.extend`/..., stored into a container, or bound to a name read in a later
        iteration or after the loop. A result used only within its iteration
        (`test_data = self.get_test_data(name)`, read for one metric, then recomputed for the
        next method) is the same value recomputed: a fixed seed inside gives what the caller
        wants (v24 rows, tuning material: loudspeaker-jax comprehensive_results_comparison.py
        :69/:87/:103 and three copies, JAX208 x12). An unknown use keeps the call."""
        if isinstance(loop, COMPREHENSIONS):
            return True
        node: ast.AST = call
        up = syntax.parent(node)
        while isinstance(up, ast.expr) and not isinstance(up, ast.Call):
            node, up = up, syntax.parent(up)
        if isinstance(up, ast.Call):
            return True  # passed on (`outs.append(f(x))`, `g(f(x))`): keep the finding
        if not (isinstance(up, ast.Assign) and up.value is node):
            return True
        names: set[str] = set()
        for target in up.targets:
            if not isinstance(target, ast.Name):
                return True  # stored into an object or a container
            names.add(target.id)
        if names & self._carried(loop):
            return True
        direct = self._configured_by_outer_loop(call, loop)
        return any(
            isinstance(sub, ast.Name)
            and sub.id in names
            and isinstance(sub.ctx, ast.Load)
            and self._collected(sub, direct_only=direct)
            for sub in ast.walk(loop)
        )

    def _configured_by_outer_loop(self, call: ast.Call, loop: ast.AST) -> bool:
        """An argument of `call` reads a name an enclosing loop binds (`get_test_data(
        signal_name)` inside `for method in ...`, inside `for signal_name in ...`): the call
        is made once per configuration of the outer loop, and the inner loop only computes
        that configuration's value again."""
        names = {
            n.id
            for arg in [*call.args, *(kw.value for kw in call.keywords)]
            for n in ast.walk(arg)
            if isinstance(n, ast.Name)
        }
        for outer in syntax.ancestors(loop):
            if isinstance(outer, (*FUNCTION_NODES, ast.ClassDef)):
                return False
            if isinstance(outer, (ast.For, ast.AsyncFor, ast.While)) and names & self._bound(outer):
                return True
        return False

    def _collected(self, load: ast.expr, *, direct_only: bool = False) -> bool:
        """The value read at `load` (or an array expression of it: `out != 0`,
        `jnp.asarray(out)`) is collected: passed to `.append`/..., put in a display, or
        assigned (`results[k] = out`, `total += out`, `prev = out`). A call of anything else
        (`metrics(test_data["y"], pred)`) ends the chase: what it returns is another value.
        `direct_only`: the value itself, not an expression computed from it (`test_data`
        appended, not `test_data["y"] - predictions`)."""
        node: ast.AST = load
        up = syntax.parent(node)
        if direct_only:
            if isinstance(up, ast.Call) and node in up.args:
                func = up.func
                return isinstance(func, ast.Attribute) and func.attr in _COLLECTING
            if isinstance(up, (ast.List, ast.Tuple, ast.Set, ast.Yield)):
                return True
            if isinstance(up, ast.Dict) and any(v is node for v in up.values):
                return True
            return isinstance(up, (ast.Assign, ast.AugAssign)) and up.value is node
        while isinstance(up, ast.expr):
            if isinstance(up, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Yield)):
                return True
            if isinstance(up, ast.Call) and node is not up.func:
                func = up.func
                if isinstance(func, ast.Attribute) and func.attr in _COLLECTING:
                    return True  # `outs.append(out)`
                q = self.index.qualname(func) or ""
                if not q.startswith(("jax.numpy.", "numpy.", "jax.lax.", "jax.nn.")):
                    return False
            node, up = up, syntax.parent(up)
        return isinstance(up, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and up.value is node

    def _timed(self, fn: ast.AST, depth: int = 0) -> bool:
        """`fn` (or a loop body, or a function they call) reads a clock: a benchmark, whose
        fixed seed repeats the same inputs on purpose."""
        key = id(fn)
        if depth == 0 and key in self._timed_cache:
            return self._timed_cache[key]
        out = self._reads_clock(fn, depth)
        if depth == 0:
            self._timed_cache[key] = out
        return out

    def _reads_clock(self, fn: ast.AST, depth: int) -> bool:
        for node in walk_function(fn):
            if isinstance(node, ast.Call):
                if self.index.qualname(node.func) in CLOCKS:
                    return True
                if depth < 2:
                    target = self.resolve_callee(node)
                    if target is not None and target is not fn and self._timed(target, depth + 1):
                        return True
            elif isinstance(node, (ast.With, ast.AsyncWith)) and depth < 2:
                # `with Timer() as t:`: a timer class of this module reads the clock in its
                # `__enter__`/`__exit__`, which no call names
                for item in node.items:
                    if any(self._timed(m, depth + 1) for m in self._context_methods(item)):
                        return True
        return False

    def _context_methods(self, item: ast.withitem) -> list[ast.AST]:
        """`__enter__`/`__exit__` of the class of this module a `with` item constructs."""
        expr = item.context_expr
        if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Name):
            return []
        b = self.index.binding(expr.func.id, self.index.scope_of(expr.func))
        if b is None or b.kind != "class" or not isinstance(b.node, ast.ClassDef):
            return []
        return [
            s
            for s in b.node.body
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            and s.name in ("__enter__", "__exit__", "__aenter__", "__aexit__")
        ]

    @cached_property
    def fixed_seeds(self) -> list[FixedSeed]:
        """`jax.random.key(<constant>)` made (outside any loop: that is `constant_seeds`) in
        a function that runs repeatedly, and consumed there: every run draws the same."""
        if not self.active:
            return []
        out = []
        repeated = self.repeated
        for call in self.index.calls:
            rngs = self._rngs_maker(call)
            if random_function(self.index, call) not in ("key", "PRNGKey") and not rngs:
                continue
            fn = self.index.enclosing_function(call)
            if fn is None or fn not in repeated or innermost_loop(call) is not None:
                continue
            if not self._module_constant_seed(call) and not (
                fn in self._same_inputs and self._parameter_seed(call, fn)
            ):
                continue
            if rngs:
                consumer = self._rngs_consumer(call, fn)
            else:
                consumer = self._consumer_of_new_key(call, fn)
            if consumer is not None:
                out.append(FixedSeed(call, fn, consumer, repeated[fn]))
        return out

    def _rngs_maker(self, call: ast.Call) -> bool:
        """`nnx.Rngs(0)` / `nnx.Rngs(params=0, dropout=1)`: a flax NNX key stream seeded by
        its arguments (key_terms.RNGS_MAKERS); every stream it holds starts from them."""
        return self.index.qualname(call.func) in RNGS_MAKERS and bool(
            call.args or [kw for kw in call.keywords if kw.arg is not None]
        )

    def _rngs_consumer(self, call: ast.Call, scope: ast.AST, after: ast.AST | None = None):  # noqa: ANN202
        """The call an `nnx.Rngs(...)` reaches (a module built with `rngs=`, or a stream
        drawn: `rngs.params()`): passed directly, or through the name it is bound to, within
        `scope` (a function or a loop) after its creation."""
        parent = syntax.parent(call)
        if isinstance(parent, ast.keyword):
            parent = syntax.parent(parent)
        if isinstance(parent, ast.Call) and call is not parent.func:
            return parent
        if not (
            isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            return None
        name = parent.targets[0].id
        start = (parent.end_lineno, parent.end_col_offset)
        uses = []
        for node in walk_function(scope):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                if (node.lineno, node.col_offset) <= start:  # type: ignore[operator]
                    continue
                up = syntax.parent(node)
                if isinstance(up, ast.keyword):
                    up = syntax.parent(up)
                if isinstance(up, ast.Attribute) and up.value is node:
                    up = syntax.parent(up)  # `rngs.dropout()`
                if isinstance(up, ast.Call):
                    uses.append(up)
        return min(uses, key=lambda c: (c.lineno, c.col_offset)) if uses else None

    def _parameter_seed(self, call: ast.Call, fn: ast.AST) -> bool:
        """The seed comes from the function's parameters and module constants only
        (`key(cfg["seed"])`, `key(self.seed)`, `key(seed)`): constant across calls that pass
        the same arguments."""
        args = [*call.args, *(kw.value for kw in call.keywords if kw.arg != "impl")]
        if not args:
            return False
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}  # type: ignore[attr-defined]
        module = self.index.scopes[self.index.tree]
        for arg in args:
            for node in ast.walk(arg):
                if isinstance(node, (ast.Call, ast.Await, ast.NamedExpr)):
                    return False
                if isinstance(node, ast.Name) and node.id not in params:
                    found = self.index.lookup(node.id, self.index.scope_of(node))
                    if not found or found is not module.bindings.get(node.id):
                        return False
        return True

    def _module_constant_seed(self, call: ast.Call) -> bool:
        args = [*call.args, *(kw.value for kw in call.keywords if kw.arg != "impl")]
        if not args:
            return False
        module = self.index.scopes[self.index.tree]
        for arg in args:
            for node in ast.walk(arg):
                if isinstance(node, (ast.Call, ast.Await, ast.NamedExpr, ast.Attribute)):
                    return False
                if isinstance(node, ast.Name):
                    found = self.index.lookup(node.id, self.index.scope_of(node))
                    if not found or found is not module.bindings.get(node.id):
                        return False
        return True

    def _consumer_of_new_key(self, call: ast.Call, fn: ast.AST) -> ast.Call | None:
        parent = syntax.parent(call)
        if isinstance(parent, ast.Call) and call in parent.args:
            fn_name = random_function(self.index, parent)
            if (
                fn_name is not None
                and fn_name not in NON_CONSUMING
                and key_argument(parent) is call
            ):
                return parent
            return None
        if not (
            isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            return None
        return self._first_seeing(fn, parent.targets[0].id, parent)

    @cached_property
    def module_key_uses(self) -> list[ModuleKeyUse]:
        """A key bound at module level and consumed inside a function that runs repeatedly,
        or consumed in two places (two functions, or a function and the module body)."""
        if not self.active:
            return []
        module = self.index.scopes[self.index.tree]
        names = {
            name
            for name, bindings in module.bindings.items()
            if bindings and all(self._module_key_binding(b) for b in bindings)
        }
        if not names:
            return []
        sites: dict[str, list[tuple[ast.AST | None, ast.Call]]] = {}
        for call in self.index.calls:
            for n in self.consumed_names(call):
                root = base_name(n)
                if root not in names or root != n.split("[", 1)[0]:
                    continue
                found = self.index.lookup(root, self.index.scope_of(call))
                if found is not module.bindings.get(root):
                    continue
                fn = self.index.enclosing_function(call)
                if fn is not None and in_test_code(fn):
                    continue
                if fn is not None and dead_by_defaults(self.index, call, fn):
                    continue  # under `if random_color:` that no call of `fn` turns on
                if (
                    fn is not None
                    and _advances_global(fn, root, call)
                    and fn not in self._maybe_traced
                ):
                    continue  # `global rng; rng, sub = split(rng)`: each call a fresh key
                sites.setdefault(root, []).append((fn, call))
        out = []
        for name, uses in sites.items():
            places = {id(fn) for fn, _ in uses}
            binding = module.bindings[name][0].node
            for fn, call in uses:
                if fn is None:
                    continue
                if fn in self.called_repeatedly:
                    why = self.called_repeatedly[fn]
                elif len(places) > 1:
                    why = "and it is consumed elsewhere too"
                elif (twice := self._called_twice(fn)) is not None:
                    why = (
                        f"it is called twice on line {twice[0]}"
                        if twice[0] == twice[1]
                        else f"it is called on lines {twice[0]} and {twice[1]}"
                    )
                else:
                    continue
                out.append(ModuleKeyUse(name, call, fn, binding, why))  # type: ignore[arg-type]
        return out

    def _called_twice(self, fn: ast.AST) -> tuple[int, int] | None:
        """Two calls of `fn` outside tests that one run may both make (the flow graph: not
        the two arms of one `if`): each reads the same module-level key, so both draw the
        same numbers (`h1 = dropout(x); h2 = dropout(y)`, a new user's report, stop 51)."""
        flow = flow_graphs(self.index)
        sites = [t.call for t in self.calls.callers(fn) if not in_test_code(t.call)]
        for i, a in enumerate(sites):
            for b in sites[i + 1 :]:
                sa, sb = syntax.statement_of(a), syntax.statement_of(b)
                if (
                    sa is None
                    or sb is None
                    or sa is sb
                    or flow.owner(sa) is not flow.owner(sb)
                    or flow.may_run_after(sa, sb)
                    or flow.may_run_after(sb, sa)
                ):
                    return a.lineno, b.lineno
        return None

    @cached_property
    def _maybe_traced(self) -> set[ast.AST]:
        """The functions of this module that may run under a JAX transform: one is applied to
        them, they are a loop body or a Module method, or a function of that set calls them
        (to a fixed point over the call graph). Traced, `global rng; rng, sub =
        split(rng)` runs once, at trace time: the compiled program keeps the first key."""
        out: set[ast.AST] = set(self.calls.transforms.applied) | set(self._loop_bodies)
        for fn in self.index.functions:
            owner = syntax.parent(fn)
            if isinstance(owner, ast.ClassDef) and self.calls.transforms.module_library(owner):
                out.add(fn)
        edges = [
            (self.index.enclosing_function(t.call), t.function)
            for t in self.calls.all.values()
            if t.function is not None
        ]
        changed = True
        while changed:
            changed = False
            for caller, callee in edges:
                if caller in out and callee not in out:
                    out.add(callee)  # type: ignore[arg-type]
                    changed = True
        return out

    def _module_key_binding(self, b) -> bool:  # noqa: ANN001
        if b.kind == "assign" and isinstance(b.value, ast.Call):
            return random_function(self.index, b.value) in KEY_MAKERS
        if b.kind == "local" and isinstance(b.node, ast.Assign):
            value = b.node.value
            return isinstance(value, ast.Call) and random_function(self.index, value) == "split"
        return False

    # -- constant seeds in loops -----------------------------------------------------------------
    @property
    def constant_seeds(self) -> list[ConstantSeed]:
        if self._constant_seeds is None:
            self._constant_seeds = self._find_constant_seeds()
        return self._constant_seeds

    def _find_constant_seeds(self) -> list[ConstantSeed]:
        out = []
        for call in self.index.calls:
            rngs = self._rngs_maker(call)
            if random_function(self.index, call) not in ("key", "PRNGKey") and not rngs:
                continue
            loop = innermost_loop(call)
            if loop is None or not loop_invariant_seed(call, self._bound(loop)):
                continue
            if memo_branch(call, loop):
                continue  # `if not hasattr(self, "proj"): self.proj = ...`: made once
            if self._timed(loop):
                continue  # a benchmark loop: the same inputs for every configuration on purpose
            bound = self._bound(loop)
            if rngs:
                consumer = self._rngs_consumer(call, loop)
                if consumer is not None and not over_written_configurations(loop, self.index):
                    parent = syntax.parent(call)
                    name = (
                        parent.targets[0].id  # type: ignore[union-attr]
                        if isinstance(parent, ast.Assign)
                        else None
                    )
                    out.append(ConstantSeed(call, loop, name, consumer))
                continue
            parent = syntax.parent(call)
            if isinstance(parent, ast.Call) and key_argument(parent) is call:
                used_by = random_function(self.index, parent)
                if used_by is None or used_by in NON_CONSUMING:
                    continue
                if self._per_configuration(parent, loop, bound):
                    continue
                out.append(ConstantSeed(call, loop, None, parent))
                continue
            if (
                isinstance(parent, ast.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
            ):
                name = parent.targets[0].id
                consumer = self._consumer_in(loop, name, after=parent)
                if consumer is not None and not self._per_configuration(consumer, loop, bound):
                    out.append(ConstantSeed(call, loop, name, consumer))
        return out

    def _per_configuration(self, consumer: ast.Call, loop: ast.AST, bound: set[str]) -> bool:
        """The draws take their shape (or other arguments) from names the loop binds and are
        used and dropped within the iteration: `for M, K in problem_sizes: a = uniform(key(1),
        (M, K)); bench(a)` regenerates one fixed input per configuration on purpose. Draws
        that leave the iteration (appended, stored, yielded, returned: the layers of an MLP
        init) are reuse: under `threefry_partitionable` `normal(k, (8, 32))` and
        `normal(k, (32, 1))` share their first values. For a `split`, look at its draws.
        A loop over a list written out in the source (`for env in [EnvA(), EnvB()]`) is a
        loop over configurations too, whatever the shapes: one fixed seed per configuration
        (common random numbers, a subTest per case) when the draws stay in the iteration."""
        if over_written_configurations(loop, self.index) and not self._leaves_iteration(
            consumer, loop
        ):
            return True
        if random_function(self.index, consumer) == "split":
            parent = syntax.parent(consumer)
            if not isinstance(parent, ast.Assign):
                return False
            names = {n for t in parent.targets for n in key_target_names(t)}
            draws = [
                node
                for node in walk_function(loop)
                if isinstance(node, ast.Call)
                and random_function(self.index, node) not in (None, *NON_CONSUMING)
                and base_name(key_name(key_argument(node)) or "") in names
            ]
            return bool(draws) and all(self._per_configuration(d, loop, bound) for d in draws)
        if random_function(self.index, consumer) is None and self._library_consumptions(consumer):  # type: ignore[attr-defined]
            return False  # a library initialiser or `apply`: its other arguments are data
        key = key_argument(consumer)
        others = [
            a for a in (*consumer.args, *(k.value for k in consumer.keywords)) if a is not key
        ]
        for arg in others:
            for node in ast.walk(arg):
                if (
                    isinstance(node, ast.Name)
                    and node.id in bound
                    and not isinstance(syntax.parent(node), ast.Attribute)
                ):
                    # a loop-bound size, not `batch.shape` (data-shaped)
                    return not self._leaves_iteration(consumer, loop)
        return False

    def _leaves_iteration(self, value: ast.AST, loop: ast.AST, _depth: int = 0) -> bool:
        """Does the value of `value` (a draw) outlive one iteration of `loop`: appended or
        inserted into a container, stored in an item or attribute, accumulated into a name
        from outside the loop, yielded, returned, or an element of the comprehension `loop`?
        Followed through arithmetic, displays, constructors and local names; a draw passed to
        any other computation (`bench(a)`, `print(a.shape)`) stays in the iteration."""
        if _depth > 4:
            return False
        child, cur = value, syntax.parent(value)
        while cur is not None:
            if cur is loop:
                return (
                    isinstance(loop, COMPREHENSIONS)
                    and child
                    is not getattr(
                        loop.generators[0],
                        "iter",
                        None,  # type: ignore[attr-defined]
                    )
                    and not isinstance(child, ast.comprehension)
                )
            if isinstance(cur, FUNCTION_NODES):
                return False
            if isinstance(cur, (ast.Return, ast.Yield, ast.YieldFrom)):
                return True
            if isinstance(cur, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                return self._assigned_leaves(cur, loop, _depth)
            if isinstance(cur, ast.stmt):
                return False
            if isinstance(cur, (ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.Set, ast.Dict)):
                pass
            elif isinstance(cur, (ast.Starred, ast.keyword, *COMPREHENSIONS)):
                pass
            elif isinstance(cur, ast.IfExp) and child is not cur.test:
                pass
            elif isinstance(cur, ast.Subscript) and child is cur.value:
                pass
            elif isinstance(cur, ast.comprehension):
                return False  # an iterable or a condition
            elif isinstance(cur, ast.Attribute):
                if cur.attr in VIEW_ATTRS:
                    pass
                elif cur.attr in VIEW_METHODS and isinstance(cur.jl_parent, ast.Call):  # type: ignore[attr-defined]
                    child, cur = cur.jl_parent, cur.jl_parent.jl_parent  # type: ignore[attr-defined]
                    continue
                else:
                    return False
            elif isinstance(cur, ast.Call):
                if child is cur.func:
                    return False
                func = cur.func
                if isinstance(func, ast.Attribute) and func.attr in ACCUMULATING_METHODS:
                    return True
                if not self._container_call(cur):
                    return False
            else:
                return False
            child, cur = cur, syntax.parent(cur)
        return False

    def _assigned_leaves(self, stmt: ast.stmt, loop: ast.AST, depth: int) -> bool:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
        names: set[str] = set()
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, (ast.Subscript, ast.Attribute)) and isinstance(
                    sub.ctx, ast.Store
                ):
                    return True  # `params[i] = w`, `self.w = w`
            names.update(n for n in key_target_names(t) if "[" not in n and "." not in n)
        if isinstance(stmt, ast.AugAssign) and names - self._bound(loop):
            return True  # `total += draw` into a name from outside the loop
        if names & self._carried(loop):
            return True  # `state = step(state, key)`: the value lives on past the iteration
        graphs = flow_graphs(self.index)
        for node in walk_function(loop):
            if (
                isinstance(node, ast.Name)
                and node.id in names
                and isinstance(node.ctx, ast.Load)
                and graphs.reached_by(node, stmt)
                and self._leaves_iteration(node, loop, depth + 1)
            ):
                return True
        return False

    def _step_call(self, call: ast.Call, loop: ast.AST) -> bool:
        """`state = step(state, batch)`: the call's result is carried into the next iteration
        (a training or simulation step). A call whose result is stored per configuration
        (`results[n] = bench(n)`) or dropped is not a step: each call may repeat its draws on
        purpose (a benchmark with a fixed seed)."""
        parent = syntax.parent(call)
        while isinstance(parent, (ast.Tuple, ast.Starred)):
            parent = syntax.parent(parent)
        if not isinstance(parent, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return False
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        names = {n for t in targets for n in key_target_names(t) if n.isidentifier()}
        return bool(names & self._carried(loop, threaded_only=True))

    def _carried(self, loop: ast.AST, threaded_only: bool = False) -> set[str]:
        """Names the loop assigns that are also used outside it (parameters of the function,
        names read before or after the loop): their values outlive one iteration. With
        `threaded_only`, only the names the next iteration reads (`state = step(state)`):
        `model = train(cfg)` in a loop over configurations, read after the loop, is not a
        step whose output feeds the next call."""
        key = (id(loop), threaded_only)
        if key not in self._carried_cache:
            self._carried_cache[key] = self._find_carried(loop, threaded_only)  # type: ignore[index]
        return self._carried_cache[key]  # type: ignore[index]

    def _find_carried(self, loop: ast.AST, threaded_only: bool = False) -> set[str]:
        """A name the loop assigns whose value is read before the loop assigns it again: in
        the next iteration (a read in the body before the assignment) or after the loop (the
        first mention after the loop is a read). `predictions = ...` in two loops one after
        the other is not carried."""
        fn = self.index.enclosing_function(loop)
        owner = fn if fn is not None else self.index.tree
        bound = self._bound(loop)
        events: dict[str, list[tuple[tuple[int, int], bool, bool]]] = {}
        inside = {id(n) for n in ast.walk(loop)}
        for node in walk_function(owner):
            if isinstance(node, ast.Name) and node.id in bound:
                store = isinstance(node.ctx, ast.Store)
                where: ast.AST = node
                if store:  # an assignment happens after its value is computed
                    stmt = syntax.parent(node)
                    while stmt is not None and not isinstance(stmt, ast.stmt):
                        stmt = syntax.parent(stmt)
                    where = stmt if stmt is not None else node
                pos = (
                    (where.end_lineno, where.end_col_offset)
                    if store
                    else (node.lineno, node.col_offset)
                )  # type: ignore[attr-defined]
                events.setdefault(node.id, []).append((pos, store, id(node) in inside))
        end = (loop.end_lineno, loop.end_col_offset)  # type: ignore[attr-defined]
        carried = set()
        for name, evs in events.items():
            evs.sort()
            body = [e for e in evs if e[2]]
            first_store = next((e[0] for e in body if e[1]), None)
            if first_store is not None and any(not st and pos < first_store for pos, st, _ in body):
                carried.add(name)  # read in the body before the body assigns it
                continue
            if threaded_only:
                continue
            after = [e for e in evs if not e[2] and e[0] > end]
            if after and not after[0][1]:
                carried.add(name)  # read after the loop
        return carried

    def _container_call(self, call: ast.Call) -> bool:
        """Builds a container or record around its arguments: `dict(w=w)`, `Layer(w, b)`,
        `state.replace(w=w)`, `jnp.asarray(w)`."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in RECORD_METHODS:
            return True
        q = self.index.qualname(func) or ""
        if q in CONTAINER_CALLS:
            return True
        last = q.rsplit(".", 1)[-1] if q else (func.attr if isinstance(func, ast.Attribute) else "")
        return bool(last) and last[0].isupper()

    def _consumer_in(self, loop: ast.AST, name: str, after: ast.Assign) -> ast.Call | None:
        """The first consumption of `name` in the loop that draws from the value `after`
        binds on every path (the flow graph's use-def map), when `after` is the only place
        the loop binds `name` (a `fold_in(key, i)` rebinding makes it vary)."""
        for node in walk_function(loop):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node is not after:
                if name in assigned_key_names(node):
                    return None
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)):
                if name in key_target_names(node.target):
                    return None
        return self._first_seeing(loop, name, after)

    def _first_seeing(self, region: ast.AST, name: str, stmt: ast.stmt) -> ast.Call | None:
        """Of the calls in `region` that consume `name` and read it where only the value
        `stmt` binds reaches (use-def map), the first in the source (where it is reported)."""
        graphs = flow_graphs(self.index)
        found: ast.Call | None = None
        for node in walk_function(region):
            if not (isinstance(node, ast.Call) and name in self.consumed_names(node)):
                continue
            if found is not None and (node.lineno, node.col_offset) >= (
                found.lineno,
                found.col_offset,
            ):
                continue
            loads = [
                n
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
            ]
            if loads and all(graphs.reached_only_by(u, stmt) for u in loads):
                found = node
        return found


def _advances_global(fn: ast.AST, name: str, call: ast.Call) -> bool:
    """`fn` declares `global name` and the statement consuming it stores the new key back
    (`global _rng; _rng, init_rng = split(_rng)`, `_rng = split(_rng)[0]`): the module key
    moves on at every use, so successive calls draw from fresh keys."""
    stmt = syntax.statement_of(call)
    if not isinstance(stmt, ast.Assign):
        return False
    value = stmt.value
    while isinstance(value, ast.Subscript):
        value = value.value
    if value is not call:
        return False
    if name not in {n for t in stmt.targets for n in key_target_names(t)}:
        return False
    return any(isinstance(node, ast.Global) and name in node.names for node in walk_function(fn))
