"""PRNG key def-use chains: which key variables are consumed twice on one path.

Branch-aware (if/else each consuming once is fine; a branch that returns does not flow on),
loop-aware (a consumption inside a loop of a key bound outside and never rebound in the loop
is reuse across iterations; so is a scan/fori body consuming a closed-over key), and it
follows keys into helpers of the same module that consume their key parameter, and into
functions imported by name from other project modules (`from model import init_mlp`) whose
project-index summary says they consume it (`KEY_HELPERS`, handed over with the seeds).
`fold_in`, `key_data` and `clone` do not consume. A comprehension is a loop: its own target
keys are fresh each iteration, an outer key consumed in it is reused. Keys indexed with a
constant (`keys[0]`) are tracked like names. Statement control flow is the shared forward
walker's (analysis/flow/walker.py, `_KeyWalker` at the end of this file); this module says
what a statement and an expression do to the key state.

Also computed here, for the other PRNG rules: `collisions` (one parent key both `split` and
`fold_in`, or `fold_in` twice with the same constant: facts §1.6c), `constant_seeds` (a key
made from a loop-invariant seed inside a loop and then consumed: §1.6b) and `key_kind`
(typed `jax.random.key` vs legacy `PRNGKey` provenance of an expression: §1.6d).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property

from jaxlint.analysis.deadness import value_is_dead
from jaxlint.analysis.flow.walker import ForwardWalker
from jaxlint.analysis.imports import FUNCTION_NODES, ModuleIndex

NON_CONSUMING = frozenset(
    {
        "key",
        "PRNGKey",
        "fold_in",
        "key_data",
        "wrap_key_data",
        "key_impl",
        "clone",
        "default_prng_impl",
        "threefry2x32_p",
    }
)
KEY_MAKERS = frozenset({"key", "PRNGKey", "split", "fold_in", "wrap_key_data", "clone"})
LOOP_BODY_TRANSFORMS = frozenset(
    {"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.map", "flax.nnx.scan"}
)
VMAPS = frozenset({"jax.vmap"})


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass(frozen=True)
class Collision:
    """`split(k, ...)` and `fold_in(k, i)` (or `fold_in(k, c)` twice) on one parent key."""

    name: str
    node: ast.Call  # the later derivation
    first: ast.Call  # the earlier one


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


@dataclass(frozen=True)
class Reuse:
    name: str
    node: ast.AST  # the second consumption (a Call), or the escaping key expression
    first: ast.Call | None  # the earlier consumption (None: across loop iterations)
    kind: str  # "twice" | "loop" | "closure" | "escape"
    loop: ast.AST | None = None
    how: str = (
        ""  # for "escape": "returned", "stored in `self.key`", "stored by `.replace(rng=...)`"
    )


def random_function(index: ModuleIndex, call: ast.Call) -> str | None:
    q = index.qualname(call.func)
    if q and q.startswith("jax.random.") and q.count(".") == 2:
        return q.rsplit(".", 1)[1]
    return None


def key_argument(call: ast.Call) -> ast.expr | None:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    for kw in call.keywords:
        if kw.arg == "key":
            return kw.value
    return None


def key_name(arg: ast.AST | None) -> str | None:
    """The tracked name of a key expression: `k` for a Name, `keys[0]` / `rngs['dropout']` for
    a Name indexed by an int or str constant, `self.key` / `state.rng` for an attribute of a
    Name (keys kept in containers and state objects are keys all the same), else None."""
    if isinstance(arg, ast.Name):
        return arg.id
    if (
        isinstance(arg, ast.Subscript)
        and isinstance(arg.value, ast.Name)
        and isinstance(arg.slice, ast.Constant)
        and isinstance(arg.slice.value, (int, str))
        and not isinstance(arg.slice.value, bool)
    ):
        return f"{arg.value.id}[{arg.slice.value!r}]"
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
        return f"{arg.value.id}.{arg.attr}"
    return None


def base_name(name: str) -> str:
    """The variable a tracked name lives in: `keys` for `keys[0]`, `self` for `self.key`."""
    return name.split("[", 1)[0].split(".", 1)[0]


# the seeds entry (analysis.project.KeyHelpers) naming imported functions that consume keys
KEY_HELPERS = "<key helpers>"


class KeyFlow:
    """Computes `reuses` for the whole module once."""

    def __init__(
        self,
        index: ModuleIndex,
        imported: dict[str, tuple[tuple[str, int], ...]] | None = None,
    ) -> None:
        self.index = index
        # names imported from other project modules -> the key parameters their function
        # consumes, (name, position; -1: keyword-only), from the project index
        self.imported = imported or {}
        self.reuses: list[Reuse] = []
        self.collisions: list[Collision] = []
        self.consuming_params: dict[ast.AST, set[str]] = {}
        self._bound_cache: dict[int, set[str]] = {}
        self._kind_cache: dict[int, tuple[str, bool] | None] = {}
        self._constant_seeds: list[ConstantSeed] | None = None
        self._loop_bodies: set[ast.AST] = set()
        self._escaped: set[int] = set()
        self._carried_cache: dict[int, set[str]] = {}
        self._timed_cache: dict[int, bool] = {}
        self.active = any(random_function(index, call) for call in index.calls)
        if not self.active:
            return  # no `jax.random` call in the module: no key flows to follow
        self._loop_bodies = self._find_loop_bodies()
        self._summarize()
        self._walk_all()

    # -- helpers' key parameters -------------------------------------------------------------
    def _direct_consumption(self, call: ast.Call) -> str | None:
        """Name of the key variable this call consumes, if any."""
        fn = random_function(self.index, call)
        if fn is not None:
            if fn in NON_CONSUMING:
                return None
            return key_name(key_argument(call))
        return None

    def resolve_callee(self, call: ast.Call) -> ast.AST | None:
        """The def a call runs: `f(...)`, `self.f(...)`, or `step(...)` where
        `step = jax.jit(train_step)` (a compiled step consumes what `train_step` consumes)."""
        target = self.index.resolve_function(call.func)
        if target is None and isinstance(call.func, ast.Name):
            b = self.index.binding(call.func.id, self.index.scope_of(call.func))
            if (
                b is not None
                and b.kind == "assign"
                and isinstance(b.value, ast.Call)
                and self.index.qualname(b.value.func) in JIT_WRAPPERS
                and b.value.args
            ):
                target = self.index.resolve_function(b.value.args[0])
        return target

    def _imported_consumptions(self, call: ast.Call) -> list[str]:
        """`init_mlp(key, ...)` where `from model import init_mlp` and `model.init_mlp`
        consumes that parameter: the key passed is consumed, as by a helper of this module."""
        func = call.func
        if not isinstance(func, ast.Name) or func.id not in self.imported:
            return []
        b = self.index.binding(func.id, self.index.scope_of(func))
        if b is None or b.kind != "import":
            return []  # shadowed by a local definition or assignment
        out = []
        for name, pos in self.imported[func.id]:
            arg = None
            if 0 <= pos < len(call.args):
                if any(isinstance(a, ast.Starred) for a in call.args[: pos + 1]):
                    continue
                arg = call.args[pos]
            else:
                arg = next((kw.value for kw in call.keywords if kw.arg == name), None)
            if isinstance(arg, ast.Name):  # plain key names only: conservative
                out.append(arg.id)
        return out

    def _helper_consumptions(self, call: ast.Call) -> list[str]:
        target = self.resolve_callee(call)
        if target is None and self.imported:
            return self._imported_consumptions(call)
        if target is None or target not in self.consuming_params:
            return []
        params = [a.arg for a in (*target.args.posonlyargs, *target.args.args)]  # type: ignore[attr-defined]
        if params and isinstance(call.func, ast.Attribute) and params[0] in ("self", "cls"):
            params = params[1:]
        consumed = self.consuming_params[target]
        out = []
        for name, arg in zip(params, call.args):
            if isinstance(arg, ast.Starred):
                break
            if name in consumed and key_name(arg):
                out.append(key_name(arg))  # type: ignore[arg-type]
        for kw in call.keywords:
            if kw.arg in consumed and key_name(kw.value):
                out.append(key_name(kw.value))  # type: ignore[arg-type]
        return out

    def consumed_names(self, call: ast.Call) -> list[str]:
        direct = self._direct_consumption(call)
        return ([direct] if direct else []) + self._helper_consumptions(call)

    def _summarize(self) -> None:
        """Parameters each function consumes (to a fixed point through helpers)."""
        bodies = []
        for fn in self.index.functions:
            events = sorted(
                (
                    node
                    for node in _walk_function(fn)
                    if isinstance(node, (ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign))
                ),
                # source order; an assignment after the calls of its value
                # (`key, sub = split(key)` consumes the parameter, then rebinds it)
                key=lambda n: (n.end_lineno, n.end_col_offset, not isinstance(n, ast.Call)),
            )
            if any(isinstance(e, ast.Call) for e in events):
                bodies.append((fn, events))
        for _ in range(4):
            changed = False
            for fn, events in bodies:
                params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}  # type: ignore[attr-defined]
                rebound = set()
                used = set()
                for node in events:
                    if isinstance(node, ast.Call):
                        for n in self.consumed_names(node):
                            if n in params and n not in rebound:
                                used.add(n)
                    else:
                        for t in _targets(node):
                            rebound.add(t)
                if used - self.consuming_params.get(fn, set()):
                    self.consuming_params[fn] = self.consuming_params.get(fn, set()) | used
                    changed = True
            if not changed:
                break

    def _find_loop_bodies(self) -> set[ast.AST]:
        bodies: set[ast.AST] = set()
        for call in self.index.calls:
            q = self.index.qualname(call.func)
            if q in LOOP_BODY_TRANSFORMS:
                pos = {"jax.lax.fori_loop": 2, "jax.lax.while_loop": 1}.get(q, 0)
                if pos < len(call.args):
                    fn = self.index.resolve_function(call.args[pos])
                    if fn is not None:
                        bodies.add(fn)
        return bodies

    def _bound(self, node: ast.AST) -> set[str]:
        key = id(node)
        if key not in self._bound_cache:
            self._bound_cache[key] = _names_bound_in(node)
        return self._bound_cache[key]

    # -- path-sensitive walk ------------------------------------------------------------------
    # `state` maps a key name to its first consumption on the current path (None: fresh) and
    # DERIVED + name to the `split`/`fold_in` derivations made from it so far. Control flow is
    # the shared walker's (analysis/flow/walker.py); `_KeyWalker` below only says what one
    # statement does (`transfer`), with expressions evaluated by `_expr`.
    def _walk_all(self) -> None:
        walker = _KeyWalker(self)
        walker.walk(self.index.tree.body, {})
        for fn in self.index.functions:
            state: dict[str, object] = {}
            if isinstance(fn, ast.Lambda):
                self._expr(fn.body, state, [], fn)
            else:
                walker.fn = fn
                walker.walk(fn.body, state)

    @staticmethod
    def _rebind(state: dict, name: str) -> None:
        """`name` holds a fresh key (a missing entry is a fresh key: states stay small, which
        keeps the copies at every branch cheap)."""
        state.pop(name, None)
        state.pop(DERIVED + name, None)
        prefixes = (name + "[", name + ".")
        for k in [k for k in state if k.startswith(prefixes)]:
            del state[k]

    @staticmethod
    def _join(state: dict, others: list[dict]) -> None:
        """Where paths meet: a key consumed on any of them counts as consumed (the first
        path's consumption is kept as the one to cite)."""
        for other in others:
            for k, v in other.items():
                if v is not None and state.get(k) is None:
                    state[k] = v

    def _simple(self, node: ast.stmt, state, loops, fn) -> None:  # noqa: ANN001
        """A simple statement: evaluate the value, then rebind the targets."""
        if isinstance(node, FUNCTION_NODES) or isinstance(node, ast.ClassDef):
            return  # walked on their own
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and not _is_target(node, child):
                self._expr(child, state, loops, fn)
        if isinstance(node, ast.Return) and node.value is not None and fn is not None:
            self._escapes(node.value, state, "returned")
        elif isinstance(node, ast.Assign) and fn is not None:
            stores = [t for t in node.targets if isinstance(t, ast.Attribute)]
            if stores:
                self._escapes(node.value, state, f"stored in `{_text(stores[0])}`")
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in _targets(node):
                self._rebind(state, t)

    def _expr(self, node: ast.AST, state, loops, fn) -> None:  # noqa: ANN001
        # evaluation order: arguments before the call itself
        stack = [node]
        calls: list[ast.Call] = []
        while stack:
            cur = stack.pop()
            if isinstance(cur, FUNCTION_NODES):
                continue
            if isinstance(cur, COMPREHENSIONS):
                self._comprehension(cur, state, loops, fn)
                continue
            if isinstance(cur, ast.Call):
                calls.append(cur)
            if isinstance(cur, ast.IfExp):
                # both branches cannot run together: walk them on copies
                self._expr(cur.test, state, loops, fn)
                a, b = dict(state), dict(state)
                self._expr(cur.body, a, loops, fn)
                self._expr(cur.orelse, b, loops, fn)
                self._join(state, [a, b])
                continue
            stack.extend(ast.iter_child_nodes(cur))
        for call in sorted(calls, key=lambda c: (c.end_lineno, c.end_col_offset, -c.lineno)):
            self._derive(call, state)
            for name in self.consumed_names(call):
                self._consume(name, call, state, loops, fn)
            func = call.func
            if isinstance(func, ast.Attribute) and fn is not None:
                if func.attr in RECORD_METHODS and call.keywords:
                    for kw in call.keywords:
                        if kw.arg is not None:
                            how = f"stored by `.{func.attr}({kw.arg}=...)`"
                            self._escapes(kw.value, state, how)
                elif isinstance(func.value, ast.Name) and random_function(self.index, call) is None:
                    # `self.refresh()` may rebind `self.key`: forget what we knew about it
                    prefix = func.value.id + "."
                    for k in [k for k in state if k.startswith(prefix)]:
                        del state[k]

    def _escapes(self, value: ast.AST, state, how: str) -> None:  # noqa: ANN001
        """A consumed key handed on (returned, stored in a state object or attribute): whoever
        receives it (the caller, the next iteration of a `scan` body) consumes it again."""
        stack = [value]
        while stack:
            cur = stack.pop()
            name = key_name(cur)
            if name is not None:
                first = state.get(name)
                if isinstance(first, ast.Call) and id(cur) not in self._escaped:
                    self._escaped.add(id(cur))
                    self.reuses.append(Reuse(name, cur, first, "escape", how=how))
                continue
            if isinstance(cur, (ast.Tuple, ast.List, ast.Set)):
                stack.extend(cur.elts)
            elif isinstance(cur, ast.Dict):
                stack.extend(v for v in cur.values if v is not None)
            elif isinstance(cur, ast.Starred):
                stack.append(cur.value)
            elif isinstance(cur, ast.IfExp):
                stack.extend((cur.body, cur.orelse))
            elif (
                isinstance(cur, ast.Call)
                and not (isinstance(cur.func, ast.Attribute) and cur.func.attr in RECORD_METHODS)
                and self._container_call(cur)
            ):
                stack.extend(a for a in cur.args)
                stack.extend(kw.value for kw in cur.keywords)

    def _comprehension(self, node: ast.AST, state, loops, fn) -> None:  # noqa: ANN001
        """A loop: its targets are fresh each iteration; outer keys consumed in it are reused."""
        gens = node.generators  # type: ignore[attr-defined]
        self._expr(gens[0].iter, state, loops, fn)
        local = {n for g in gens for n in _target_names(g.target)}
        inner = dict(state)
        for name in local:
            self._rebind(inner, name)
        parts: list[ast.AST] = [g.iter for g in gens[1:]] + [c for g in gens for c in g.ifs]
        if isinstance(node, ast.DictComp):
            parts += [node.key, node.value]
        else:
            parts.append(node.elt)  # type: ignore[attr-defined]
        for part in parts:
            self._expr(part, inner, [*loops, node], fn)
        for k, v in inner.items():
            if v is not None and base_name(k.removeprefix(DERIVED)) not in local:
                if state.get(k) is None:
                    state[k] = v

    def _derive(self, call: ast.Call, state) -> None:  # noqa: ANN001
        """Record `split`/`fold_in` derivations from a parent key; report collisions."""
        fn = random_function(self.index, call)
        if fn not in ("split", "fold_in"):
            return
        name = key_name(key_argument(call))
        if name is None:
            return
        data: tuple | None = None
        if fn == "split":
            num = call.args[1] if len(call.args) > 1 else None
            for kw in call.keywords:
                if kw.arg == "num":
                    num = kw.value
            if num is None:
                data = ("count", 2, None)
            elif isinstance(num, ast.Constant) and isinstance(num.value, int):
                data = ("count", num.value, num)
            else:
                data = ("count", None, num)
        else:
            arg = call.args[1] if len(call.args) > 1 else None
            if arg is None:
                for kw in call.keywords:
                    if kw.arg == "data":
                        arg = kw.value
            if arg is None:
                return
            data = (
                ("const", arg.value, arg) if isinstance(arg, ast.Constant) else ("expr", None, arg)
            )
        earlier: tuple = state.get(DERIVED + name) or ()  # type: ignore[assignment]
        for kind, other_data, other in earlier:
            if other is not call and _collide(fn, data, kind, other_data):
                self.collisions.append(Collision(name, call, other))
                break
        state[DERIVED + name] = (*earlier, (fn, data, call))

    def _consume(self, name: str, call: ast.Call, state, loops, fn) -> None:  # noqa: ANN001
        first = state.get(name)
        if first is not None and self._dead_draw(first):  # type: ignore[arg-type]
            first = None  # its keys or samples are never read: it correlates with nothing
        if first is not None and first is not call:
            if not self._same_helper_call(first, call) and not self._aligned_draws(first, call):  # type: ignore[arg-type]
                self.reuses.append(Reuse(name, call, first, "twice"))  # type: ignore[arg-type]
            state[name] = call  # the latest consumption, for the next comparison
            return
        state[name] = call
        if loops:
            loop = loops[-1]
            bound = self._bound(loop)
            if name not in bound and base_name(name) not in bound:
                # `for shape in shapes: normal(key, shape)` draws per-configuration inputs
                if not self._per_configuration(call, loop, bound):
                    self.reuses.append(Reuse(name, call, None, "loop", loop))
                return
        if fn is not None and fn in self._loop_bodies and not loops:
            params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}  # type: ignore[attr-defined]
            local = self._bound(fn)
            if base_name(name) not in params and base_name(name) not in local:
                self.reuses.append(Reuse(name, call, None, "closure", fn))

    def _dead_draw(self, call: ast.Call) -> bool:
        """A `jax.random` call (pure, unlike a helper) whose result nothing reads: a discarded
        `split` or sample is not the first use of a key consumed twice (analysis/deadness.py)."""
        return random_function(self.index, call) is not None and value_is_dead(call)

    def _aligned_draws(self, first: ast.Call, second: ast.Call) -> bool:
        """`choice(key, x, (n,))` and `choice(key, y, (n,))`: the same index draw applied to two
        populations on purpose (images and labels stay aligned; `permutation(key, x)` and
        `permutation(key, y)` shuffle in unison). Every argument but the population is equal;
        the same population twice would be a plain repeat."""
        fn = random_function(self.index, first)
        if fn not in ALIGNABLE or random_function(self.index, second) != fn:
            return False
        a, b = _draw_arguments(first, fn), _draw_arguments(second, fn)
        if a is None or b is None or set(a) != set(b) or "population" not in a:
            return False
        if a["population"] == b["population"]:
            return False
        return all(a[k] == b[k] for k in a if k != "population")

    def _same_helper_call(self, first: ast.Call, second: ast.Call) -> bool:
        """The same helper called twice with the same arguments: it recomputes the same
        values on purpose (a data iterator replayed, a determinism check), not a reuse bug."""
        if random_function(self.index, first) or random_function(self.index, second):
            return False
        a = self.index.resolve_function(first.func)
        return (
            a is not None
            and a is self.index.resolve_function(second.func)
            and (ast.dump(first) == ast.dump(second))
        )

    # -- key provenance (typed vs legacy) ----------------------------------------------------
    def key_kind(self, expr: ast.AST | None, _depth: int = 0) -> tuple[str, bool] | None:
        """("typed" | "legacy", single) when `expr` is a key made in this module.

        `single` is True for one key (`key(0)` has shape (), `PRNGKey(0)` shape (2,)) and
        False for an array of keys (`split(k, 3)`). None when unknown (a parameter, ...).
        """
        if expr is None or _depth > 6:
            return None
        cache_key = id(expr)
        if cache_key in self._kind_cache:
            return self._kind_cache[cache_key]
        self._kind_cache[cache_key] = None  # cycles resolve to unknown
        out = self._key_kind(expr, _depth)
        self._kind_cache[cache_key] = out
        return out

    def _key_kind(self, expr: ast.AST, depth: int) -> tuple[str, bool] | None:
        if isinstance(expr, ast.Call):
            fn = random_function(self.index, expr)
            if fn == "key":
                return ("typed", True)
            if fn == "PRNGKey":
                return ("legacy", True)
            if fn in ("fold_in", "clone"):
                return self.key_kind(key_argument(expr), depth + 1)
            if fn == "split":
                parent = self.key_kind(key_argument(expr), depth + 1)
                return (parent[0], False) if parent and parent[1] else None
            return None
        if isinstance(expr, ast.Subscript):
            parent = self.key_kind(expr.value, depth + 1)
            if (
                parent
                and not parent[1]
                and isinstance(expr.slice, ast.Constant)
                and isinstance(expr.slice.value, int)
            ):
                return (parent[0], True)
            return None
        if not isinstance(expr, ast.Name):
            return None
        found = self.index.lookup(expr.id, self.index.scope_of(expr))
        if not found:
            return None
        kinds = set()
        for b in found:
            if b.kind == "assign" and b.value is not None:
                kinds.add(self.key_kind(b.value, depth + 1))
            elif (
                b.kind == "local"
                and isinstance(b.node, ast.Assign)
                and isinstance(b.node.value, ast.Call)
                and random_function(self.index, b.node.value) == "split"
                and all(isinstance(t, (ast.Tuple, ast.List)) for t in b.node.targets)
            ):
                parent = self.key_kind(key_argument(b.node.value), depth + 1)
                kinds.add((parent[0], True) if parent and parent[1] else None)
            else:
                return None
        return kinds.pop() if len(kinds) == 1 else None

    def only_key_uses(self, name: str, scope_node: ast.AST) -> bool:
        """Every read of `name` in the scope is the key argument of a `jax.random` function."""
        body = scope_node.body if isinstance(scope_node.body, list) else [scope_node.body]  # type: ignore[attr-defined]
        seen = False
        for stmt in body:
            for node in ast.walk(stmt):
                if (
                    isinstance(node, ast.Name)
                    and node.id == name
                    and isinstance(node.ctx, ast.Load)
                ):
                    parent = getattr(node, "jl_parent", None)
                    if not (
                        isinstance(parent, ast.Call)
                        and random_function(self.index, parent)
                        and key_argument(parent) is node
                    ):
                        return False
                    seen = True
        return seen

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
                parent = getattr(call, "jl_parent", None)
                if isinstance(parent, FUNCTION_NODES) and call in getattr(
                    parent, "decorator_list", ()
                ):
                    in_axes = next((k.value for k in call.keywords if k.arg == "in_axes"), None)
                    yield call, parent, in_axes, False
            elif q in VMAPS:
                fun = call.args[0] if call.args else None
                fun = fun or next((k.value for k in call.keywords if k.arg == "fun"), None)
                fn = self.index.resolve_function(fun) if fun is not None else None
                if fn is None:
                    continue
                in_axes = call.args[1] if len(call.args) > 1 else None
                in_axes = in_axes or next(
                    (k.value for k in call.keywords if k.arg == "in_axes"), None
                )
                yield call, fn, in_axes, isinstance(fun, ast.Attribute)

    def _first_consumer(self, fn: ast.AST, name: str) -> ast.Call | None:
        calls = [n for n in _walk_function(fn) if isinstance(n, ast.Call)]
        calls.sort(key=lambda c: (c.lineno, c.col_offset))
        return next((c for c in calls if name in self.consumed_names(c)), None)

    def _indexed_split(self, consumer: ast.Call, fn: ast.AST) -> bool:
        """`split(key, n)[i]` with a mapped index `i`: each element picks its own key."""
        if random_function(self.index, consumer) != "split":
            return False
        parent = getattr(consumer, "jl_parent", None)
        if isinstance(parent, ast.Subscript) and not isinstance(parent.slice, ast.Constant):
            return True
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                for node in _walk_function(fn):
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
            (n for n in _walk_function(fn) if isinstance(n, ast.Call)),
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
        for body in self._loop_bodies:
            why[body] = "it is the body of a `scan`/`fori_loop`/`while_loop`"
        for _, fn, _, _ in self._vmaps():
            why.setdefault(fn, "it is vmapped (every batch element runs it)")
        for call in self.index.calls:
            loop = _innermost_loop(call)
            if loop is None:
                continue
            target = self.resolve_callee(call)
            if (
                target is not None
                and not _in_test(call)
                and (not steps_only or self._step_call(call, loop))
            ):
                why.setdefault(target, f"it is called in the loop on line {loop.lineno}")  # type: ignore[attr-defined]
        todo = [f for f in why if not _in_test(f)]
        for _ in range(3):  # callees of callees, three levels deep
            added = []
            for fn in todo:
                for node in _walk_function(fn):
                    if isinstance(node, ast.Call):
                        target = self.resolve_callee(node)
                        if target is not None and target not in why and target is not fn:
                            name = getattr(fn, "name", "lambda")
                            why[target] = f"it is called from `{name}`, which runs repeatedly"
                            added.append(target)
            todo = added
        return {fn: w for fn, w in why.items() if not _in_test(fn) and not self._timed(fn)}

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
        for node in _walk_function(fn):
            if isinstance(node, ast.Call):
                if self.index.qualname(node.func) in CLOCKS:
                    return True
                if depth < 2:
                    target = self.resolve_callee(node)
                    if target is not None and target is not fn and self._timed(target, depth + 1):
                        return True
        return False

    @cached_property
    def fixed_seeds(self) -> list[FixedSeed]:
        """`jax.random.key(<constant>)` made (outside any loop: that is `constant_seeds`) in
        a function that runs repeatedly, and consumed there: every run draws the same."""
        if not self.active:
            return []
        out = []
        for call in self.index.calls:
            if random_function(self.index, call) not in ("key", "PRNGKey"):
                continue
            fn = self.index.enclosing_function(call)
            if fn is None or fn not in self.repeated or _innermost_loop(call) is not None:
                continue
            if not self._module_constant_seed(call):
                continue
            consumer = self._consumer_of_new_key(call, fn)
            if consumer is not None:
                out.append(FixedSeed(call, fn, consumer, self.repeated[fn]))
        return out

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
        parent = getattr(call, "jl_parent", None)
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
        name = parent.targets[0].id
        events = sorted(
            (
                n
                for n in _walk_function(fn)
                if isinstance(n, (ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign))
                and (n.lineno, n.col_offset) > (parent.lineno, parent.col_offset)
            ),
            key=lambda n: (n.end_lineno, n.end_col_offset, not isinstance(n, ast.Call)),
        )
        for node in events:
            if isinstance(node, ast.Call):
                if name in self.consumed_names(node):
                    return node
            elif name in _targets(node):
                return None
        return None

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
                if fn is not None and _in_test(fn):
                    continue
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
                else:
                    continue
                out.append(ModuleKeyUse(name, call, fn, binding, why))  # type: ignore[arg-type]
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
            if random_function(self.index, call) not in ("key", "PRNGKey"):
                continue
            loop = _innermost_loop(call)
            if loop is None or not _loop_invariant_seed(call, self._bound(loop)):
                continue
            if self._timed(loop):
                continue  # a benchmark loop: the same inputs for every configuration on purpose
            bound = self._bound(loop)
            parent = getattr(call, "jl_parent", None)
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
        `normal(k, (32, 1))` share their first values. For a `split`, look at its draws."""
        if random_function(self.index, consumer) == "split":
            parent = getattr(consumer, "jl_parent", None)
            if not isinstance(parent, ast.Assign):
                return False
            names = {n for t in parent.targets for n in _target_names(t)}
            draws = [
                node
                for node in _walk_function(loop)
                if isinstance(node, ast.Call)
                and random_function(self.index, node) not in (None, *NON_CONSUMING)
                and base_name(key_name(key_argument(node)) or "") in names
            ]
            return bool(draws) and all(self._per_configuration(d, loop, bound) for d in draws)
        key = key_argument(consumer)
        others = [a for a in consumer.args if a is not key] + [k.value for k in consumer.keywords]
        for arg in others:
            for node in ast.walk(arg):
                if (
                    isinstance(node, ast.Name)
                    and node.id in bound
                    and not isinstance(getattr(node, "jl_parent", None), ast.Attribute)
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
        child, cur = value, getattr(value, "jl_parent", None)
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
            child, cur = cur, getattr(cur, "jl_parent", None)
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
            names.update(n for n in _target_names(t) if "[" not in n and "." not in n)
        if isinstance(stmt, ast.AugAssign) and names - self._bound(loop):
            return True  # `total += draw` into a name from outside the loop
        if names & self._carried(loop):
            return True  # `state = step(state, key)`: the value lives on past the iteration
        after = (stmt.lineno, stmt.col_offset)
        for node in _walk_function(loop):
            if (
                isinstance(node, ast.Name)
                and node.id in names
                and isinstance(node.ctx, ast.Load)
                and (node.lineno, node.col_offset) > after
                and self._leaves_iteration(node, loop, depth + 1)
            ):
                return True
        return False

    def _step_call(self, call: ast.Call, loop: ast.AST) -> bool:
        """`state = step(state, batch)`: the call's result is carried into the next iteration
        (a training or simulation step). A call whose result is stored per configuration
        (`results[n] = bench(n)`) or dropped is not a step: each call may repeat its draws on
        purpose (a benchmark with a fixed seed)."""
        parent = getattr(call, "jl_parent", None)
        while isinstance(parent, (ast.Tuple, ast.Starred)):
            parent = getattr(parent, "jl_parent", None)
        if not isinstance(parent, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return False
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        names = {n for t in targets for n in _target_names(t) if n.isidentifier()}
        return bool(names & self._carried(loop))

    def _carried(self, loop: ast.AST) -> set[str]:
        """Names the loop assigns that are also used outside it (parameters of the function,
        names read before or after the loop): their values outlive one iteration."""
        key = id(loop)
        if key not in self._carried_cache:
            self._carried_cache[key] = self._find_carried(loop)
        return self._carried_cache[key]

    def _find_carried(self, loop: ast.AST) -> set[str]:
        """A name the loop assigns whose value is read before the loop assigns it again: in
        the next iteration (a read in the body before the assignment) or after the loop (the
        first mention after the loop is a read). `predictions = ...` in two loops one after
        the other is not carried."""
        fn = self.index.enclosing_function(loop)
        owner = fn if fn is not None else self.index.tree
        bound = self._bound(loop)
        events: dict[str, list[tuple[tuple[int, int], bool, bool]]] = {}
        inside = {id(n) for n in ast.walk(loop)}
        for node in _walk_function(owner):
            if isinstance(node, ast.Name) and node.id in bound:
                store = isinstance(node.ctx, ast.Store)
                where: ast.AST = node
                if store:  # an assignment happens after its value is computed
                    stmt = getattr(node, "jl_parent", None)
                    while stmt is not None and not isinstance(stmt, ast.stmt):
                        stmt = getattr(stmt, "jl_parent", None)
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
        """The first consumption of `name` after `after` in the loop, when `after` is the
        only place the loop binds `name` (a `fold_in(key, i)` rebinding makes it vary)."""
        found = None
        for node in _walk_function(loop):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node is not after:
                if name in _targets(node):
                    return None
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)):
                if name in _target_names(node.target):
                    return None
            elif (
                isinstance(node, ast.Call)
                and (node.lineno, node.col_offset) > (after.lineno, after.col_offset)
                and name in self.consumed_names(node)
                and (
                    found is None
                    or (node.lineno, node.col_offset) < (found.lineno, found.col_offset)
                )
            ):
                found = node
        return found


DERIVED = "\0derived:"
CLOCKS = frozenset(
    {
        "time.time",
        "time.perf_counter",
        "time.monotonic",
        "time.perf_counter_ns",
        "time.monotonic_ns",
        "time.time_ns",
        "timeit.default_timer",
        "timeit.timeit",
        "timeit.repeat",
        "datetime.datetime.now",
    }
)
# transforms that run the function they wrap once per call, with the same arguments
JIT_WRAPPERS = frozenset(
    {
        "jax.jit",
        "equinox.filter_jit",
        "flax.nnx.jit",
        "jax.checkpoint",
        "jax.remat",
        "jax.named_call",
    }
)
ACCUMULATING_METHODS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft", "put"}
)
RECORD_METHODS = frozenset({"replace", "_replace", "set"})
CONTAINER_CALLS = frozenset(
    {
        "dict",
        "list",
        "tuple",
        "set",
        "jax.numpy.asarray",
        "jax.numpy.array",
        "jax.numpy.stack",
        "jax.numpy.concatenate",
        "numpy.asarray",
        "numpy.array",
        "flax.core.freeze",
        "flax.core.FrozenDict",
    }
)
VIEW_ATTRS = frozenset({"T", "mT", "real", "imag"})
VIEW_METHODS = frozenset({"astype", "reshape", "transpose", "squeeze", "ravel", "flatten"})
# samplers that draw indices into a population (argument 1, or this keyword)
ALIGNABLE = {"choice": "a", "permutation": "x"}


def _draw_arguments(call: ast.Call, fn: str) -> dict[str, str] | None:
    """A sampler's non-key arguments by role (`population`, `arg2`, keywords), as AST dumps."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        kw.arg is None for kw in call.keywords
    ):
        return None
    out: dict[str, str] = {}
    for i, arg in enumerate(call.args[1:], start=1):
        out["population" if i == 1 else f"arg{i}"] = ast.dump(arg)
    for kw in call.keywords:
        if kw.arg == "key":
            continue
        out["population" if kw.arg == ALIGNABLE[fn] else kw.arg] = ast.dump(kw.value)  # type: ignore[index]
    return out


def _collide(kind_a: str, data_a: tuple, kind_b: str, data_b: tuple) -> bool:
    """Can these two derivations from one parent give the same key? `split(k, n)[i]` is
    `fold_in(k, i)` for i < n; `fold_in` twice with equal constants is the same key."""
    if kind_a == kind_b == "split":
        return False  # a second split is a reuse (JAX201), not a collision
    if kind_a == kind_b == "fold_in":
        return data_a[0] == data_b[0] == "const" and data_a[1] == data_b[1]
    split_data, fold_data = (data_a, data_b) if kind_a == "split" else (data_b, data_a)
    if fold_data[0] != "const":
        # `fold_in(k, n)` after `split(k, n)` (or `n + 1`, ...): past the split's indices
        if split_data[2] is not None and _at_least(fold_data[2], split_data[2]):
            return False
        return True  # `fold_in(k, step)`: step takes the split's indices sooner or later
    value, count = fold_data[1], split_data[1]
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return 0 <= value < (count if count is not None else 2)


def _at_least(expr: ast.AST, count: ast.AST) -> bool:
    """`expr` is `count`, or `count + c` with a constant `c >= 0` (the same expression text,
    so the same value when both are evaluated on one path without rebinding)."""
    target = ast.dump(count)
    if ast.dump(expr) == target:
        return True
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        for a, b in ((expr.left, expr.right), (expr.right, expr.left)):
            if (
                ast.dump(a) == target
                and isinstance(b, ast.Constant)
                and isinstance(b.value, int)
                and not isinstance(b.value, bool)
                and b.value >= 0
            ):
                return True
    return False


def _innermost_loop(node: ast.AST) -> ast.AST | None:
    """The loop (or comprehension) whose body holds `node`, within the same function."""
    below: ast.AST | None = None
    child = node
    cur = getattr(node, "jl_parent", None)
    while cur is not None and not isinstance(cur, FUNCTION_NODES):
        if isinstance(cur, (ast.For, ast.AsyncFor, ast.While)) and child in cur.body:
            return cur
        if isinstance(cur, COMPREHENSIONS):
            first = cur.generators[0]  # type: ignore[attr-defined]
            if not (child is first and below is first.iter):  # the first iterable runs once
                return cur
        below, child, cur = child, cur, getattr(cur, "jl_parent", None)
    return None


def _loop_invariant_seed(call: ast.Call, bound: set[str]) -> bool:
    """The seed is a literal or built from names the loop never rebinds (no calls)."""
    for arg in [*call.args, *(kw.value for kw in call.keywords)]:
        for node in ast.walk(arg):
            if isinstance(node, (ast.Call, ast.Await, ast.NamedExpr, *COMPREHENSIONS)):
                return False
            if isinstance(node, ast.Name) and node.id in bound:
                return False
    return True


def _in_test(fn: ast.AST) -> bool:
    """`fn` is (or is nested in) a test function or a method of a `Test*` class."""
    cur: ast.AST | None = fn
    while cur is not None:
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)) and cur.name.startswith(
            ("test", "setUp")
        ):
            return True
        if isinstance(cur, ast.ClassDef) and cur.name.startswith("Test"):
            return True
        cur = getattr(cur, "jl_parent", None)
    return False


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - only for messages
        return "..."


def _walk_function(fn: ast.AST):
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, FUNCTION_NODES):
            stack.extend(ast.iter_child_nodes(node))


def _target_names(t: ast.AST):
    """Names a target rebinds, including tracked containers: `self.key = ...` rebinds
    `self.key`, `rngs["dropout"] = ...` rebinds `rngs['dropout']`."""
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _target_names(e)
    elif isinstance(t, ast.Starred):
        yield from _target_names(t.value)
    elif isinstance(t, (ast.Attribute, ast.Subscript)):
        name = key_name(t)
        if name is not None:
            yield name


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        return [n for t in node.targets for n in _target_names(t)]
    return list(_target_names(node.target))  # type: ignore[attr-defined]


def _is_target(stmt: ast.AST, child: ast.AST) -> bool:
    if isinstance(stmt, ast.Assign):
        return child in stmt.targets
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return child is stmt.target and not isinstance(stmt, ast.AugAssign)
    return False


def _names_bound_in(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            out.update(_targets(sub))
        elif isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)):
            out.update(_target_names(sub.target))
        elif isinstance(sub, ast.NamedExpr):
            out.update(_target_names(sub.target))
    return out


class _KeyLattice:
    """Key name -> latest consumption on the path (missing: fresh), joined by "consumed
    on any path" (`KeyFlow._join`: the first state's consumption wins, so the cited earlier
    call is the one on the first arm, as the walker joins arms in source order)."""

    def copy(self, state: dict) -> dict:
        return dict(state)

    def join(self, a: dict, b: dict) -> dict:
        KeyFlow._join(a, [b])
        return a

    def equal(self, a: dict, b: dict) -> bool:
        return a == b


class _KeyWalker(ForwardWalker[dict]):
    """The shared walker with key flow's transfer functions.

    One pass per loop (`max_loop_passes = 1`): reuse across iterations is decided from what
    the loop rebinds (`KeyFlow._consume`), not by walking the body again, which would report
    each consumption in the body as a second one of itself. Dead code after `return` & co. is
    not walked. A `while` test is evaluated in the enclosing loops only, and `with` targets,
    `except` names and `case` patterns bind nothing, as before the port.
    """

    max_loop_passes = 1
    walk_dead_code = False

    def __init__(self, flow: KeyFlow) -> None:
        super().__init__(_KeyLattice())
        self.flow = flow
        self.fn: ast.AST | None = None

    def transfer(self, node: ast.stmt, state: dict) -> None:
        self.flow._simple(node, state, self.loop_nodes, self.fn)

    def branch_test(self, test: ast.expr, state: dict) -> tuple[dict, dict, bool, bool]:
        self.flow._expr(test, state, self.loop_nodes, self.fn)
        return dict(state), dict(state), True, True

    def loop_test(self, test: ast.expr, state: dict) -> None:
        self.flow._expr(test, state, self.loop_nodes[:-1], self.fn)

    def for_iter(self, node: ast.For | ast.AsyncFor, state: dict) -> None:
        self.flow._expr(node.iter, state, self.loop_nodes, self.fn)

    def for_target(self, node: ast.For | ast.AsyncFor, state: dict) -> None:
        for t in _target_names(node.target):
            KeyFlow._rebind(state, t)

    def with_items(self, node: ast.With | ast.AsyncWith, state: dict) -> None:
        for item in node.items:
            self.flow._expr(item.context_expr, state, self.loop_nodes, self.fn)

    def match_subject(self, node: ast.Match, state: dict) -> None:
        self.flow._expr(node.subject, state, self.loop_nodes, self.fn)
