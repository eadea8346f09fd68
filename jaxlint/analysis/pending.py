"""Which results of dispatched JAX work are still being computed when a clock is read.

A timed region (`t0 = clock()` ... `clock() - t0`) measures the work only if the host waits
for every result that work produces before the second read. JAX dispatch is asynchronous, so
the question is one of data flow: each dispatched call makes a value; values flow into names,
containers (`outs.append(y)`, `d[k] = y`, `{"loss": loss}`), later calls and loop targets; a
host sync on any holder of a value (analysis/sync.py: `np.stack(outs)`, `float(loss)`, an
`if` on it, printing or serialising it, `jax.device_get`, `block_until_ready`) waits for that
value, for everything that flowed into it, and for the other outputs of the same call (one
program's outputs are ready together). The region is honest when the latest dispatched work
is waited for; otherwise the fix must block every output still pending at the clock read,
the outputs that reach it, not the inputs they were computed from.

`pending_outputs(index, region, end, is_async)` walks the region's statements in program
order (a loop body once, then its syncs again for the next step's wrap-around, as a
sync at the top of the next step waits for the previous one) and answers with a
`Pending`: the latest work, whether it is waited for, and the names (and discarded call
results) to block. A value that escapes where this cannot follow (an attribute, an unknown
call's side effect) makes the answer `lost`: the rules stay silent then.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlint.analysis.body_waits import (
    BodyWaits,
    helper_waits,
    instance_of_a_class,
    tree_map_waits,
    waits_in_body,
)
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.jax_api import AOT_METHODS, ARRAY_INDEX_BUILDERS, TREE_MAP
from jaxlint.analysis.jit_sites import nnx_transformed
from jaxlint.analysis.sync import (
    METADATA,
    SYNC_CALLS,
    converts,
    executed,
    stacks_results,
    truth_test_waits,
    waits_for,
    waits_on_result,
)
from jaxlint.analysis.syntax import attribute_root, bind_arguments
from jaxlint.analysis.trips import trip_count

if TYPE_CHECKING:
    from jaxlint.analysis.values import ValueKinds

__all__ = ["BodyWaits", "Pending", "pending_outputs", "tree_map_waits", "waits_in_body"]


# methods that put their argument into the receiver (a list, dict or set of results)
STORING_METHODS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "put", "appendleft"}
)
_DISPLAYS = (
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.Dict,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
_NON_VALUE_CALLS = ("len", "type", "isinstance", "id", "hasattr", "callable")
# libraries whose functions dispatch JAX work on what they are given and return it unwaited
_JAX_LIBRARIES = tuple(
    f"{lib}."
    for lib in "jax optax flax equinox haiku chex diffrax distrax numpyro blackjax".split()
)
# builtins that pass values through (containers) or compute with them (`sum(losses)`)
_PASSING_BUILTINS = frozenset(
    {"list", "tuple", "dict", "set", "zip", "enumerate", "reversed", "sum", "abs", "map", "iter"}
)
# eager array operations, each dispatched as its own small program (`_only_trailing_work`)
_EAGER_ARRAY_OPS = ("jax.numpy.", "jax.lax.")
# fills of a constant: made from a shape alone (and Python numbers), they read no input;
# `jnp.arange(cfg.task.player_count)` beside a synced batch (tuning pool orbit_wars
# `collect_timed.py:444`, JAX601, read false)
CONSTANT_FILLS = frozenset(
    f"jax.numpy.{name}"
    for name in (
        *("ones", "zeros", "full", "empty", "eye", "identity", "arange", "linspace", "tri"),
        *("ones_like", "zeros_like", "full_like", "empty_like"),
    )
) | {"jax.lax.iota", "jax.lax.full", "jax.lax.full_like"}


@dataclass(eq=False)
class _Value:
    """One value made in the region: the result of a dispatched call (`call`), a value made
    from others (`call` None: an unknown call's result, arithmetic, a container), or a part of
    a held value (`part_of`: `outs[-1]`, `state.params`, a loop target over `outs`)."""

    call: ast.Call | None
    parents: tuple[_Value, ...] = ()  # what it was computed from (ready before it)
    part_of: _Value | None = None  # the container it was taken from
    container: bool = False  # a list/dict/tuple the region built: a part is one element
    done: bool = False

    def ancestors(self) -> Iterable[_Value]:
        """What is computed once this value is (a part does not imply its whole)."""
        stack = list(self.parents)
        seen: set[int] = set()
        while stack:
            v = stack.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            yield v
            stack.extend(v.parents)

    def sources(self) -> tuple[_Value, ...]:
        return (*self.parents, self.part_of) if self.part_of is not None else self.parents


@dataclass
class Pending:
    """What a timed region leaves unfinished at its clock read."""

    last: ast.Call | None = None  # the latest dispatched call, not waited for on the spot
    waited: bool = True  # the host waits for the latest work before the clock read
    lost: bool = False  # the latest work's value went where this cannot follow
    names: list[str] = field(default_factory=list)  # holders to block at the clock read
    discarded: list[ast.Call] = field(default_factory=list)  # results of expression statements


class _Walk:
    def __init__(self, index: ModuleIndex, is_async: Callable[[ast.Call], bool]) -> None:
        self.index = index
        self.is_async = is_async
        self.env: dict[str, _Value] = {}
        self.by_call: dict[int, list[_Value]] = {}
        self.made: list[_Value] = []  # dispatched values, in program order
        self._order: dict[int, int] = {}  # id of a value of `made` -> its position
        self.discarded: list[_Value] = []
        self.lost: dict[int, _Value] = {}  # values that escaped (kept alive: ids stay unique)
        # `state.loss = f(x)`: the value escaped (an object may be read anywhere), but a sync
        # on `state.loss` itself in the region still waits for it
        self.attrs: dict[str, _Value] = {}
        # `step(model, opt, x)` of an nnx step: the model holds the step's outputs, so a host
        # wait on it waits for the step; it is not a result to block (`_updated_in_place`)
        self.updated: dict[str, _Value] = {}
        self._kinds: ValueKinds | None = None  # made on the first store into a subscript
        # the host waited in the region: for a value made here, or explicitly
        # (`jax.block_until_ready(result)`) for a result of work this cannot see
        self.waited_any = False

    # -- values -------------------------------------------------------------------------------
    def _holders(self) -> set[str]:
        """The names (and `state.loss`-like attribute paths) that hold the region's values."""
        if not self.attrs and not self.updated:
            return set(self.env)
        return set(self.env) | set(self.attrs) | set(self.updated)

    def _new(self, call: ast.Call | None, parents: Iterable[_Value]) -> _Value:
        v = _Value(call, tuple(parents))
        if call is not None:
            self.by_call.setdefault(id(call), []).append(v)
        return v

    def _part(self, v: _Value) -> _Value:
        """A part of `v`: of an array or pytree (`out[0]`, `state.params`), a value computed
        from it (ready only once `v` is); of a container the region built (`outs[-1]`, a loop
        target over `outs`), one of its elements."""
        if not v.container:
            return self._new(None, [v])
        return _Value(None, v.parents, part_of=v)

    def _finish(self, values: Iterable[_Value]) -> None:
        """The host waited for `values`: they, what flowed into them and their siblings (the
        other outputs of the same call) are computed; waiting for a part (`outs[-1]`, a loop
        target over `outs`) counts for its container."""
        stack = list(values)
        while stack:
            v = stack.pop()
            if v.done:
                continue
            v.done = True
            self.waited_any = True
            stack.extend(v.sources())
            if v.call is not None:
                stack.extend(self.by_call.get(id(v.call), ()))
                # a device runs the programs it is given in dispatch order: once this one is
                # done, so is everything dispatched before it (20 discarded `f(x)` then
                # `jax.block_until_ready(f(x))` waits for all 21: measured on CPU with JAX
                # 0.6.2, 0.10.2 and 0.12.1, another function's result too; v37 qqt-gpu-sim
                # kaggle_verify.py:130, JAX601)
                at = self._order.get(id(v))
                if at is not None:
                    stack.extend(self.made[:at])

    def _held(self, node: ast.AST) -> list[_Value]:
        """The region's values that `node`'s subtree reads (not their metadata: `x.shape`)."""
        out: list[_Value] = []
        stack = [node]
        while stack:
            cur = stack.pop()
            if isinstance(cur, ast.Name) and isinstance(cur.ctx, ast.Load):
                held = self.env.get(cur.id) or self.updated.get(cur.id)
                if held is not None:
                    out.append(held)
                continue
            if isinstance(cur, ast.Attribute) and cur.attr in METADATA:
                continue
            if self.attrs and isinstance(cur, ast.Attribute) and dotted(cur) in self.attrs:
                out.append(self.attrs[dotted(cur)])  # type: ignore[index]
                continue
            if (
                isinstance(cur, ast.Call)
                and isinstance(cur.func, ast.Name)
                and cur.func.id in _NON_VALUE_CALLS
            ):
                continue
            if isinstance(cur, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            stack.extend(ast.iter_child_nodes(cur))
        return out

    # -- syncs --------------------------------------------------------------------------------
    def syncs(self, stmt: ast.AST, *, before: tuple[int, int] | None = None) -> None:
        """Every host wait in `stmt` (not entering definitions) on a value held by a name."""
        if not self.env and not self.attrs and not self.updated:
            return
        names = self._holders()
        for node in executed(stmt):
            if before is not None and (
                (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)) >= before
            ):
                continue
            self._finish(self._waited(node, names))
            if not self.waited_any and (
                _explicit_block(self.index, node) or helper_waits(self.index, node)
            ):
                self.waited_any = True

    def _waited(self, node: ast.AST, names: set[str]) -> list[_Value]:
        """The values `node` (one node) waits for on the host."""
        if waits_for(self.index, node, names):
            return self._held(_waited_part(node))
        if not isinstance(node, ast.Call):
            return []
        if tree_map_waits(self.index, node):  # tree.map(np.asarray, out)
            return [v for a in node.args[1:] for v in self._held(a)]
        fn = self.index.resolve_function(node.func)
        if fn is None or isinstance(fn, ast.Lambda):
            return []
        summary = waits_in_body(self.index, fn)
        out = [self.env[n] for n in summary.free if n in self.env]
        if summary.params:
            for param, arg in bind_arguments(node, fn).items():
                if param in summary.params:
                    out.extend(self._held(arg))
        return out

    def _read_arguments(self, call: ast.Call) -> set[int]:
        """The ids of the arguments `call` reads on the host, whatever they hold: every one
        of a sync call (`float`, a NumPy function, `utils.to_numpy`), the trees of a tree
        map of a host read, the parameters a function of this module waits for. Values made
        inside such an argument are waited for by the call (they are in no name yet, so the
        syncs walk before the statement cannot see them)."""
        q = self.index.qualname(call.func) or ""
        args = [*call.args, *(k.value for k in call.keywords)]
        if q in SYNC_CALLS or q.startswith("numpy."):
            return {id(a) for a in args}
        if tree_map_waits(self.index, call):
            return {id(a) for a in call.args[1:]}
        fn = self.index.resolve_function(call.func)
        if fn is None or isinstance(fn, ast.Lambda):
            return set()
        params = waits_in_body(self.index, fn).params
        if not params:
            return set()
        return {id(arg) for p, arg in bind_arguments(call, fn).items() if p in params}

    # -- evaluation ---------------------------------------------------------------------------
    def _children(self, expr: ast.AST) -> list[_Value]:
        return [v for child in ast.iter_child_nodes(expr) for v in self._value(child)]

    def _value(self, expr: ast.AST) -> list[_Value]:
        """The values `expr` evaluates to (new ones for dispatched calls, in order)."""
        if isinstance(expr, ast.Name):
            v = self.env.get(expr.id) or self.updated.get(expr.id)
            return [v] if v is not None and isinstance(expr.ctx, ast.Load) else []
        if isinstance(expr, (ast.Lambda, ast.Constant)):
            return []
        if isinstance(expr, ast.JoinedStr):
            self._children(expr)
            return []  # a host string: its values were formatted, so waited for
        if isinstance(expr, ast.Attribute):
            if expr.attr in METADATA:
                return []
            held = self.attrs.get(dotted(expr) or "") if self.attrs else None
            if held is not None:
                return [held]  # `losses.append(state.loss)`: the value bound to it
            return [self._part(v) for v in self._value(expr.value)]
        if isinstance(expr, ast.Subscript):
            whole = self._value(expr.value)
            operands = self._value(expr.slice)
            if operands and self.index.qualname(expr.value) in ARRAY_INDEX_BUILDERS:
                return [self._new(None, operands)]  # `jnp.c_[a, b]`: made from `a` and `b`
            return [self._part(v) for v in whole]
        if isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Name) and expr.func.id in _NON_VALUE_CALLS:
                return []
            if isinstance(expr.func, ast.Attribute) and expr.func.attr in AOT_METHODS:
                # `jax.jit(f).lower(*args).compile()`: ahead-of-time lowering reads only the
                # arguments' shapes and dtypes and returns host objects (a Lowered, a
                # Compiled, a cost dict), synchronously; nothing made for it is waited on
                # (nano-vllm-jax timing a Pallas kernel's compilation)
                self._value(expr.func.value)
                return []
            per = [(child, self._value(child)) for child in ast.iter_child_nodes(expr)]
            inner = [v for _, values in per for v in values]
            read = self._read_arguments(expr)
            if read:  # `jax.tree.map(np.array, {"a": jnp.exp(loss)})`: made here, read here
                self._finish(
                    v
                    for child, values in per
                    if id(child) in read
                    or (isinstance(child, ast.keyword) and id(child.value) in read)
                    for v in values
                )
            if waits_on_result(self.index, expr):
                if self.made and self.is_async(expr):
                    # `jax.block_until_ready(f(x))` after 20 discarded `f(x)`: the device runs
                    # programs in dispatch order, so the host waits for all of them (`_finish`)
                    self._finish(list(self.made))
                return []  # `float(f(x))`: the host has the value
            if converts(self.index, expr) or stacks_results(self.index, expr, self.env):
                # `jnp.float32(loss[0])`: a dtype conversion is not the timed work; it is
                # ready when what it converts is (the step that made `loss`, waited for or not)
                return [self._new(None, inner)] if inner else []
            if self.is_async(expr):
                v = self._new(expr, inner)
                self._order[id(v)] = len(self.made)
                self.made.append(v)
                self._updated_in_place(expr, v)
                return [v]
            if self._waited(expr, self._holders()) or _metadata_map(self.index, expr):
                return []  # a host value (its waits ran in `syncs`; shapes need none)
            if not inner:
                return []
            if self._passes_work_on(expr):
                # its result may be (or hold) work on what it was given
                return [self._new(None, inner)]
            # a function nobody here can see (another module's helper, a library that is
            # not JAX's): it may wait for what it is given (a metric computed with NumPy, a
            # logger's float()); unknown, so what it was given goes where this cannot follow
            self._escape(inner, waits=True)
            return []
        if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            inner = self._children(expr)
            return [self._new(None, inner)] if inner else []  # array arithmetic dispatches
        inner = self._children(expr)
        if isinstance(expr, _DISPLAYS) and inner:
            return [self._container(inner)]  # `[f(x), g(x)]`, `{"loss": loss}`
        return inner  # conditionals, starred: they hold the values

    def _passes_work_on(self, call: ast.Call) -> bool:
        """A call whose result holds work on its arguments, without waiting for them: all
        but a function another module or a library that is not built on JAX defines (an
        import of this module names it: `from attacks import attack`, `scipy.linalg.solve`).
        A function of this module has its own waits read (`_read_arguments`); a callable
        given as a parameter (`bench(model, ...)`) or a method is what the timing runs; JAX
        and its libraries (`optax.apply_updates`) dispatch."""
        q = self.index.qualname(call.func)
        if q is None or q.startswith(_JAX_LIBRARIES) or q in _PASSING_BUILTINS:
            return True
        root = attribute_root(call.func)
        if not isinstance(root, ast.Name):
            return True
        b = self.index.binding(root.id, self.index.scope_of(root))
        return b is None or b.kind != "import"

    def _updated_in_place(self, call: ast.Call, made: _Value) -> None:
        """A call of an nnx-transformed function (`@nnx.jit def step(model, opt, x, y)`)
        updates the graph nodes it is given in place: after it, a name passed to it holds
        another output of the call, so a host wait on the model (`nnx.state(model)` blocked,
        `float(accuracy(model))`) waits for the step (v29 spyx x3, JAX601). Arguments known
        to be arrays, scalars or keys are inputs only. The model is not a result to block:
        `jax.block_until_ready(model)` waits for nothing where a Module is no pytree (before
        flax 0.11), so the fix still blocks the step's own result."""
        if not nnx_transformed(self.index, call.func):
            return
        for arg in (*call.args, *(k.value for k in call.keywords)):
            if isinstance(arg, ast.Name) and not self._plain_value(arg):
                self.env.pop(arg.id, None)
                self.updated[arg.id] = self._new(call, made.parents)

    def _bind(self, target: ast.AST, values: list[_Value]) -> None:
        if isinstance(target, ast.Name):
            self._bind_name(target.id, values)
        elif isinstance(target, (ast.Tuple, ast.List)):
            # `state, loss = step(...)`: each name holds one output of the same call
            single = values[0] if len(values) == 1 else None
            for elt in target.elts:
                elt = elt.value if isinstance(elt, ast.Starred) else elt
                if single is not None and single.call is not None:
                    self._bind(elt, [self._new(single.call, single.parents)])
                elif single is not None:
                    self._bind(elt, [self._part(single)])
                else:
                    self._bind(elt, values)
        elif isinstance(target, ast.Subscript):
            base = _base_name(target)
            if values and self._host_array(target.value):
                # `out[i] = step(x)` into a NumPy array: NumPy copies the value to the host,
                # so the store waits for it (confirmasaurus `rates[start:end] = jitted(...)`)
                self._finish(values)
            elif base is None:
                self._escape(values)
            elif values:  # `outs[i] = y`: the container holds it
                self._store(base, values)
        else:
            path = dotted(target) if isinstance(target, ast.Attribute) else None
            if path is not None and values:
                self.attrs[path] = values[0] if len(values) == 1 else self._new(None, values)
            self._escape(values)  # `self.out = f(x)`: not followed (only its own syncs are)

    def _bind_name(self, name: str, values: list[_Value]) -> None:
        self.updated.pop(name, None)
        if self.attrs:  # `state = ...`: what `state.loss` held is no longer there
            for key in [k for k in self.attrs if k.startswith(name + ".")]:
                del self.attrs[key]
        if values:
            self.env[name] = values[0] if len(values) == 1 else self._new(None, values)
        else:
            self.env.pop(name, None)  # rebound to a host value

    def _plain_value(self, node: ast.expr) -> bool:
        """`node` is known to be an array, a scalar or a key: no graph node to update."""
        from jaxlint.analysis.values import Kind, ValueKinds  # only for an nnx step

        if self._kinds is None:
            self._kinds = ValueKinds(self.index)
        return self._kinds.of(node) in (Kind.ARRAY, Kind.NDARRAY, Kind.SCALAR, Kind.KEY)

    def _host_array(self, node: ast.AST) -> bool:
        """`node` is a NumPy array (`np.zeros(n)`, ...): a store into it converts on the host."""
        from jaxlint.analysis.values import Kind, ValueKinds  # only for a store in a region

        if self._kinds is None:
            self._kinds = ValueKinds(self.index)
        return self._kinds.of(node) is Kind.NDARRAY

    def _store(self, name: str, values: list[_Value]) -> None:
        old = self.env.get(name)
        self.env[name] = self._container([*values, *([old] if old else [])])

    def _container(self, values: list[_Value]) -> _Value:
        v = self._new(None, values)
        v.container = True
        return v

    def _escape(self, values: Iterable[_Value], waits: bool = False) -> None:
        """They went where this cannot follow, with their sources; into code that may wait
        (`waits`), their calls' other outputs too (v17: microjax `mag(*images(w))`)."""
        for v in values:
            for a in (v, *v.ancestors()):
                self.lost[id(a)] = a
                if waits and a.call is not None:
                    for sibling in self.by_call.get(id(a.call), ()):
                        self.lost[id(sibling)] = sibling

    # -- statements ---------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.syncs(stmt)  # decorators and defaults run; the body does not
            self.env.pop(stmt.name, None)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.syncs(stmt.iter)
            whole = self._value(stmt.iter)
            if trip_count(stmt) != 0:  # `for n in range(0):` never runs its body (v22 rows)
                self._bind(stmt.target, [self._part(v) for v in whole][:1])
                self._loop(stmt.body)
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.While):
            self.syncs(stmt.test)
            self._value(stmt.test)
            self._loop(stmt.body, test=stmt)
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.If):
            if truth_test_waits(self.index, stmt.test, self._holders()):
                self._finish(self._held(stmt.test))
            self.syncs(stmt.test)
            self._value(stmt.test)
            self._alternatives([stmt.body, stmt.orelse])
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self.syncs(item.context_expr)
                self._value(item.context_expr)
            self.block(stmt.body)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            self.block(stmt.body)  # type: ignore[attr-defined]
            for handler in stmt.handlers:  # type: ignore[attr-defined]
                self.block(handler.body)
            self.block(stmt.orelse)  # type: ignore[attr-defined]
            self.block(stmt.finalbody)  # type: ignore[attr-defined]
        elif isinstance(stmt, ast.Match):
            self.syncs(stmt.subject)
            arms = [case.body for case in stmt.cases]
            last = stmt.cases[-1] if stmt.cases else None
            exhaustive = (
                last is not None
                and isinstance(last.pattern, ast.MatchAs)
                and last.pattern.pattern is None
                and last.guard is None
            )
            self._alternatives(arms if exhaustive else [*arms, []])
        else:
            self._simple(stmt)

    def _alternatives(self, arms: list[list[ast.stmt]]) -> None:
        """The arms of an `if`/`match`: one of them runs, each from the same holders. After
        them a name holds whichever value its arm left (`loss` of every `case`), so a host
        wait on it waits for all of them (jax_privacy's `loss = float(jnp.sqrt(loss))`
        after a `match` whose cases each compute `loss`); walking the arms one after the
        other instead let a later arm's binding hide an earlier arm's pending work."""
        start = dict(self.env)
        ends: list[dict[str, _Value]] = []
        for arm in arms:
            self.env = dict(start)
            self.block(arm)
            ends.append(self.env)
        joined: dict[str, _Value] = {}
        for env in ends:
            for name in env:
                if name in joined:
                    continue
                seen: dict[int, _Value] = {}
                for other in ends:
                    v = other.get(name)
                    if v is not None:
                        seen.setdefault(id(v), v)
                values = list(seen.values())
                joined[name] = values[0] if len(values) == 1 else self._new(None, values)
        self.env = joined

    def _loop(self, body: list[ast.stmt], test: ast.While | None = None) -> None:
        self.block(body)
        for stmt in body:  # the next step's waits wait for this step's results
            self.syncs(stmt)
        if test is not None:
            if truth_test_waits(self.index, test.test, self._holders()):
                self._finish(self._held(test.test))  # `while loss > tol:` reads it
            self.syncs(test.test)

    def _simple(self, stmt: ast.stmt) -> None:
        self.syncs(stmt)
        if isinstance(stmt, ast.Assign):
            values = self._value(stmt.value)
            for t in stmt.targets:
                self._bind(t, values)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._bind(stmt.target, self._value(stmt.value))
        elif isinstance(stmt, ast.AugAssign):
            values = self._value(stmt.value)
            base = _base_name(stmt.target)
            if base is not None and (values or base in self.env):
                self._store(base, values)
            elif values:
                self._escape(values)
        elif isinstance(stmt, ast.Expr):
            self._expression_statement(stmt.value)
        elif isinstance(stmt, ast.Delete):
            for t in stmt.targets:
                if isinstance(t, ast.Name):
                    self.env.pop(t.id, None)
        else:
            for child in ast.iter_child_nodes(stmt):
                self._escape(self._value(child))

    def _expression_statement(self, expr: ast.expr) -> None:
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and expr.func.attr in STORING_METHODS
            and isinstance(expr.func.value, ast.Name)
            and not instance_of_a_class(self.index, expr.func.value)
        ):  # `outs.append(f(x))`: the list holds the result
            values = [
                v for a in (*expr.args, *(k.value for k in expr.keywords)) for v in self._value(a)
            ]
            if values:
                self._store(expr.func.value.id, values)
            return
        values = self._value(expr)
        if isinstance(expr, ast.Call) and values and values[0].call is expr:
            self.discarded.append(values[0])  # `f(x)` alone: its result is dropped
            return
        self._escape(values)  # passed to something not followed

    # -- the answer ---------------------------------------------------------------------------
    def _only_trailing_work(self) -> bool:
        """The host waited in the region, and all it leaves pending is trailing array
        bookkeeping: eager `jnp`/`lax` operations on results it already waited for
        (`loss = jnp.sum(loss)` beside `np.array(logits)` of the same step), or fills of a
        constant (`jnp.ones(d)`). The timing then covers the work it waited for; what is left
        is dispatched in microseconds (v25 Infoprop video_eval.py:196, a `jnp.concatenate` of
        parts of a reset whose other parts were read with `np.array`; v26 lambda_hat
        sampling.py:208). Eager work on inputs the region did not make and wait for
        (`jnp.dot(a, b)` of arrays made before it) is timed work, and is not trailing; so is
        work on the results of a call this walk does not follow (they are in no name: v20
        karannb main.py:454 stays reported, its step bound in two branches)."""
        if not self.waited_any:
            return False
        for v in self.made:
            if v.done or v.call is None:
                continue
            q = self.index.qualname(v.call.func) or ""
            if not q.startswith(_EAGER_ARRAY_OPS):
                return False
            if not v.parents:
                if q not in CONSTANT_FILLS:
                    return False
            elif not all(_waited_for(p) for p in v.parents):
                return False
            elif not self._reads_only_region_values(v.call):
                return False
        return True

    def _reads_only_region_values(self, call: ast.Call) -> bool:
        """Every array `call` is given is one the region made (held by a name, or a
        constant): `jnp.sum(loss)`, not `jnp.dot(loss, w)` with `w` from before it."""
        for arg in (*call.args, *(k.value for k in call.keywords)):
            if isinstance(arg, ast.Constant):
                continue
            for node in ast.walk(arg):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    if node.id not in self.env:
                        return False
        return True

    def answer(self, end: ast.stmt, clock_at: tuple[int, int] | None) -> Pending:
        if clock_at is not None:
            self.syncs(end, before=clock_at)  # `print(float(loss), time.time() - t0)`
        if not self.made:
            return Pending()
        last = self.made[-1]
        if last.done:
            return Pending(last=last.call, waited=True)
        if id(last) in self.lost:
            return Pending(last=last.call, waited=False, lost=True)
        if self._only_trailing_work():
            return Pending(last=last.call, waited=True)
        live: dict[str, _Value] = {}
        for name, v in self.env.items():
            if _pending(v) and all(v is not w for w in live.values()):
                live[name] = v  # two names for one value (`y = out`): block it once
        reached: set[int] = set()
        reached_calls: set[int] = set()  # one output of a call reached: all are ready
        for v in live.values():
            for a in v.ancestors():
                reached.add(id(a))
                if a.call is not None:
                    reached_calls.add(id(a.call))
        held = {id(v) for v in live.values()}

        def covered(v: _Value) -> bool:
            if id(v) in reached or (v.call is not None and id(v.call) in reached_calls):
                return True
            part = v.part_of
            while part is not None:
                if id(part) in held:
                    return True  # `y = outs[-1]`: blocking `outs` covers it
                part = part.part_of
            return False

        names = [name for name, v in live.items() if not covered(v)]
        if len(names) > 1:  # `theta, _ = step(...)`: the throwaway name is not worth naming
            names = [n for n in names if n != "_"] or names
        discarded = [
            v.call
            for v in self.discarded
            if v.call is not None and _pending(v) and id(v) not in reached
        ]
        if not _reaches(last, [*live.values(), *self.discarded]):
            return Pending(last=last.call, waited=False)  # dropped (`del y`): nothing to block
        return Pending(last=last.call, waited=False, names=names, discarded=discarded)


METADATA_FUNCTIONS = frozenset(
    {"jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size", "numpy.shape", "numpy.ndim", "len"}
)


def _metadata_map(index: ModuleIndex, call: ast.Call) -> bool:
    """`tree_map(jnp.shape, out)`, `tree_map(lambda a: a.dtype, out)`: metadata of each leaf,
    known without waiting for the computation."""
    if index.qualname(call.func) not in TREE_MAP or not call.args:
        return False
    fn = call.args[0]
    if isinstance(fn, ast.Lambda):
        body = fn.body
        return isinstance(body, ast.Attribute) and body.attr in METADATA
    return index.qualname(fn) in METADATA_FUNCTIONS


def _pending(v: _Value) -> bool:
    """Some dispatched work `v` was computed from is not waited for."""
    return _unwaited(v, lambda cur: cur.call is not None)


def _waited_for(v: _Value) -> bool:
    """The host waited for `v`: for it, or for everything it was computed from (a part of a
    step's outputs, `loss` beside a host read of `logits`)."""
    return not _unwaited(v, lambda cur: cur.call is not None or not cur.sources())


def _unwaited(v: _Value, stops: Callable[[_Value], bool]) -> bool:
    """A value `v` was computed from (itself included) that is not waited for satisfies
    `stops`; a waited value ends the search along its path."""
    seen: set[int] = set()
    stack = [v]
    while stack:
        cur = stack.pop()
        if cur.done or id(cur) in seen:
            continue
        seen.add(id(cur))
        if stops(cur):
            return True
        stack.extend(cur.sources())
    return False


def _reaches(target: _Value, holders: list[_Value]) -> bool:
    """`target` (or another output of its call) is one of `holders` or flowed into one."""
    seen: set[int] = set()
    stack = list(holders)
    while stack:
        cur = stack.pop()
        if cur is target or (cur.call is not None and cur.call is target.call):
            return True  # it, or another output of the same call
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        stack.extend(cur.sources())
    return False


def _explicit_block(index: ModuleIndex, node: ast.AST) -> bool:
    """`jax.block_until_ready(out)` / `out.block_until_ready()`: an explicit wait, whatever
    it waits for."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "block_until_ready":
        return True
    return index.qualname(func) == "jax.block_until_ready"


def _waited_part(node: ast.AST) -> ast.AST:
    """The part of a syncing node whose values the host waits for."""
    if isinstance(node, (ast.Assert, ast.If, ast.While, ast.IfExp)):
        return node.test
    if isinstance(node, ast.FormattedValue):
        return node.value
    return node


def _base_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            return None  # `self.x[i] = ...`: an attribute, not followed
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def pending_outputs(
    index: ModuleIndex,
    region: list[ast.stmt],
    end: ast.stmt,
    is_async: Callable[[ast.Call], bool],
    clock_at: tuple[int, int] | None = None,
) -> Pending:
    """What the region's dispatched work leaves unfinished when `end` reads the clock (at
    `clock_at`, (line, column): the arguments evaluated before it may wait)."""
    walk = _Walk(index, is_async)
    walk.block(region)
    return walk.answer(end, clock_at)
