"""What a name bound to a container holds, part by part: loop targets over containers, and the
entries of a dict by constant key.

A dict display is a container of kinds, not one kind: `{"mse": jnp.mean(d), "usage":
len(codes) / n}` holds a traced array under "mse" and a Python float under "usage", so
`metrics["usage"] > 0.5` is a Python comparison. The taint state keeps, beside a name bound
to a display whose keys are all string constants (or to the call of a function of this module
whose every `return` is one), the level of each entry (`KEY` entries) and a `KEYED` mark; a
binding of another kind leaves an `UNKEYED` mark (only for names the function reads by a
constant key, so the state stays small). Both marks join like levels, so after a join the
entries count only where every path bound a keyed display. A store by a constant key updates
one entry; any other store into the dict (`d[k] = v`, `d.update(...)`, `d |= ...`) makes it
unkeyed. Tuning pool anachroni-co/capibaraGPT_v3 `core/cot/enhanced_cot_module.py:147`
(`step_output["step_reward"]`, a `float(...)` returned beside an array: JAX110, read false).

Why a module of its own: `flow/taint.py` holds the transfer functions of single values; how a
binding's parts get their levels is this mixin's (`TaintAnalysis` inherits it).
"""

from __future__ import annotations

import ast
import weakref
from typing import TYPE_CHECKING

from jaxlint.analysis.flow.levels import Level, part_of
from jaxlint.analysis.syntax import rows_of

if TYPE_CHECKING:
    from jaxlint.analysis.calls import CallGraph
    from jaxlint.analysis.imports import ModuleIndex

__all__ = ["ContainerBinds"]

KEYED, UNKEYED, KEY = "\x00keyed:", "\x00unkeyed:", "\x00key:"
# methods that put entries into a dict (by keys this cannot follow)
_DICT_STORES = frozenset({"update", "setdefault", "__setitem__", "__ior__"})
Keys = dict[str, Level]
# a function -> the names it reads by a constant key (`ContainerBinds.start_keys`, per walk)
_READ_BY_KEY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _constant_keys(node: ast.AST | None) -> list[str] | None:
    """The keys of a dict display when every one is a string constant (no `**other`)."""
    if not isinstance(node, ast.Dict):
        return None
    out = []
    for k in node.keys:
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            return None
        out.append(k.value)
    return out


def _constant_key(node: ast.Subscript) -> str | None:
    s = node.slice
    return s.value if isinstance(s, ast.Constant) and isinstance(s.value, str) else None


class ContainerBinds:
    """Mixin of `TaintAnalysis` (flow/taint.py): bindings of loop targets and dict entries."""

    index: ModuleIndex
    calls: CallGraph
    return_keys: dict[ast.AST, Keys | None]
    _ret_keys: Keys | None  # per key, for a function whose every return is a keyed dict
    _keyed_names: frozenset[str]  # the function's names read by a constant key

    if TYPE_CHECKING:  # TaintAnalysis's and TaintQueries' (a stub here would shadow them)

        def bind(
            self, target: ast.AST, value_node: ast.AST | None, level: Level, env: dict[str, Level]
        ) -> None: ...

        def level(self, node: ast.AST) -> Level: ...

    # -- dict entries ------------------------------------------------------------------------
    def start_keys(self, fn: ast.AST, env: dict[str, Level]) -> None:
        """Before a walk of `fn`: the names it reads by a constant key; the parameters among
        them hold what the caller gave (unkeyed)."""
        names = _READ_BY_KEY.get(fn)
        if names is None:
            names = _READ_BY_KEY[fn] = frozenset(
                node.value.id
                for node in ast.walk(fn)
                if isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and _constant_key(node) is not None
            )
        self._keyed_names = names
        self._ret_keys = {}
        args = getattr(fn, "args", None)
        if args is not None:
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                if a.arg in names:
                    env[UNKEYED + a.arg] = Level.CONTAINER

    def finish_keys(self, fn: ast.AST) -> bool:
        """After a walk of `fn`: its returned dict's entries, joined with earlier walks';
        whether they changed (its callers then read them again)."""
        keys = self._ret_keys or None
        prev = self.return_keys.get(fn)
        if prev is not None and keys is not None:
            keys = {k: max(keys.get(k, Level.NONE), prev.get(k, Level.NONE)) for k in keys | prev}
        elif fn in self.return_keys and keys != prev:
            keys = None  # returns of another kind on another walk: not per key
        changed = keys != prev and (keys is not None or fn in self.return_keys)
        self.return_keys[fn] = keys
        return changed

    def returned_keys(self, value: ast.AST | None, env: dict[str, Level]) -> None:
        """A `return`: per key when it returns a keyed dict (a display, or a keyed name)."""
        if self._ret_keys is None:
            return
        keys = self._keys_of(value, env)
        if keys is None:
            self._ret_keys = None
            return
        for k, lv in keys.items():
            self._ret_keys[k] = max(lv, self._ret_keys.get(k, Level.NONE))
        for k in keys.keys() - self._ret_keys.keys():
            self._ret_keys[k] = keys[k]

    def _keys_of(self, value: ast.AST | None, env: dict[str, Level]) -> Keys | None:
        names = _constant_keys(value)
        if names is not None:
            return {k: self.level(v) for k, v in zip(names, value.values)}  # type: ignore[union-attr]
        if isinstance(value, ast.Name):
            if KEYED + value.id in env and UNKEYED + value.id not in env:
                prefix = f"{KEY}{value.id}\x00"
                return {k[len(prefix) :]: lv for k, lv in env.items() if k.startswith(prefix)}
            return None
        if isinstance(value, ast.Call):
            callee = self.calls.function(value)
            return self.return_keys.get(callee) if callee is not None else None
        return None

    def bind_keys(self, name: str, value_node: ast.AST | None, env: dict[str, Level]) -> None:
        """`name = value`: keyed when the value is a keyed dict, unkeyed otherwise."""
        if name not in self._keyed_names:
            return
        self._drop_keys(name, env)
        keys = self._keys_of(value_node, env) if value_node is not None else None
        if keys is None:
            env[UNKEYED + name] = Level.CONTAINER
            env.pop(KEYED + name, None)
            return
        env.pop(UNKEYED + name, None)
        env[KEYED + name] = Level.CONTAINER
        for k, lv in keys.items():
            if lv > Level.NONE:
                env[f"{KEY}{name}\x00{k}"] = lv

    def unkey(self, name: str, env: dict[str, Level]) -> None:
        """A store into `name` by a key this cannot follow."""
        if name in self._keyed_names:
            env[UNKEYED + name] = Level.CONTAINER

    def store_key(self, target: ast.Subscript, level: Level, env: dict[str, Level]) -> None:
        """`d["k"] = value`: that entry's level; another subscript store: unkeyed."""
        if not isinstance(target.value, ast.Name) or target.value.id not in self._keyed_names:
            return
        name, key = target.value.id, _constant_key(target)
        if key is None:
            self.unkey(name, env)
        elif level > Level.NONE:
            env[f"{KEY}{name}\x00{key}"] = level
        else:
            env.pop(f"{KEY}{name}\x00{key}", None)

    def stores_into(self, call: ast.Call, env: dict[str, Level]) -> None:
        """`d.update(...)` / `d.setdefault(...)`: entries this cannot follow."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _DICT_STORES:
            if isinstance(func.value, ast.Name):
                self.unkey(func.value.id, env)

    def key_level(self, node: ast.Subscript, env: dict[str, Level]) -> Level | None:
        """`d["k"]` of a keyed dict, or `f(...)["k"]` of a function returning one: that
        entry's level; None when not known per key."""
        key = _constant_key(node)
        if key is None:
            return None
        base = node.value
        if isinstance(base, ast.Name):
            if KEYED + base.id not in env or UNKEYED + base.id in env:
                return None
            return env.get(f"{KEY}{base.id}\x00{key}", Level.NONE)
        if isinstance(base, ast.Call):
            callee = self.calls.function(base)
            keys = self.return_keys.get(callee) if callee is not None else None
            return None if keys is None else keys.get(key, Level.NONE)
        return None

    def _drop_keys(self, name: str, env: dict[str, Level]) -> None:
        if KEYED + name in env:
            prefix = f"{KEY}{name}\x00"
            for k in [k for k in env if k.startswith(prefix)]:
                del env[k]

    # -- loop targets ------------------------------------------------------------------------
    def bind_loop_target(
        self, target: ast.AST, iter_node: ast.AST, level: Level, env: dict[str, Level]
    ) -> None:
        """Loop variables: only provably traced when iterating a literal list of traced values.

        Iterating a traced argument may yield dict keys (static) or rows (traced): unknown,
        so silent. `zip`/`enumerate` pass through; `.items()` yields (static key, traced value).
        """
        if isinstance(iter_node, ast.Call):
            q = self.index.qualname(iter_node.func)
            if q in ("enumerate",) and iter_node.args and isinstance(target, ast.Tuple):
                self.bind(target.elts[0], None, Level.NONE, env)
                if len(target.elts) > 1:
                    inner = self.level(iter_node.args[0])
                    self.bind_loop_target(target.elts[1], iter_node.args[0], inner, env)
                return
            if (
                q == "zip"
                and isinstance(target, ast.Tuple)
                and len(target.elts) == len(iter_node.args)
            ):
                for t, a in zip(target.elts, iter_node.args):
                    self.bind_loop_target(t, a, self.level(a), env)
                return
            if (
                isinstance(iter_node.func, ast.Attribute)
                and iter_node.func.attr == "items"
                and isinstance(target, ast.Tuple)
                and len(target.elts) == 2
            ):
                self.bind(target.elts[0], None, Level.NONE, env)
                owner = self.level(iter_node.func.value)
                self.bind(target.elts[1], None, part_of(owner), env)
                return
        if isinstance(iter_node, (ast.List, ast.Tuple)) and level >= Level.CONTAINER:
            if isinstance(target, (ast.Tuple, ast.List)) and rows_of(iter_node, len(target.elts)):
                # `for name, value in (("single", x), ("pair", z)):` each position of the rows
                # binds its own elements: `name` is a str on every step
                for i, t in enumerate(target.elts):
                    part = max(self.level(row.elts[i]) for row in iter_node.elts)  # type: ignore[attr-defined]
                    self.bind(t, None, part, env)
                return
            elt = max((self.level(e) for e in iter_node.elts), default=Level.NONE)
            self.bind(target, None, elt, env)
            return
        if isinstance(iter_node, ast.Name) and env.get(iter_node.id) == Level.CONTAINER:
            self.bind(target, None, Level.TREE, env)
            return
        self.bind(target, None, Level.NONE, env)
