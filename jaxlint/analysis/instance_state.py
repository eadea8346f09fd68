"""Which attributes of a plain class's instances change after construction, and which of them a
method reads.

Why: a method jitted with `self` static (`@partial(jax.jit, static_argnums=0)`) hashes `self` by
identity, so a compiled result goes stale only when an attribute *that the method reads* is
reassigned *after* the object is built. Counting every attribute store outside `__init__` also
flags classes whose changing state never reaches the jitted method (a step counter bumped in
`train()` while `_train_step` reads only the config; parameters stored by `update_params()`
while `act` takes them as an argument) and classes that finish their construction in a private
helper called from `__init__` (`self._precompute(area)` filling lookup tables). Both were false
positives on real code (JaxCQL, JaxMARL; tests/regressions/realworld/fp24).

    attributes_set_after_init(cls)      # {"_total_steps", ...}
    self_attributes_read(cls, method)   # {"config", "policy", ...}, or None when unknown

Only the class body is read: the callers decide whether that is enough (JAX409 asks only about
classes whose bases are `object`, so no inherited method can read or write an attribute).
"""

from __future__ import annotations

import ast

CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__"})


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {s.name: s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _self_name(method: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    args = method.args.posonlyargs + method.args.args
    if not args or any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
        for d in method.decorator_list
    ):
        return None
    return args[0].arg


def _self_attributes(method: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Attribute]:
    """The `self.<name>` nodes of `method` (nested functions included)."""
    me = _self_name(method)
    return [
        node
        for node in ast.walk(method)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == me
    ]


def _construction_helpers(
    cls: ast.ClassDef, public: frozenset[str] = frozenset(), setup: frozenset[str] = frozenset()
) -> set[str]:
    """Private methods called only while the object is being built: from a constructor, or
    from another such helper. A public method, or one referenced any other way (passed as a
    callback, called from a regular method), may run later and does not count, unless it is
    in `public`: the public methods the project index found no call of outside the class
    (`construction_only`); one in `setup` that the class never calls is a set-up step that
    the project calls only right after building an object (analysis/construction.py). A
    name-mangled `__init_optimizer` is private too (only special
    methods, `__call__`, are left out: v30 DIffUCO train.py:257-266, JAX409)."""
    methods = _methods(cls)
    callers: dict[str, set[str]] = {name: set() for name in methods}
    referenced_otherwise: set[str] = set()
    for name, method in methods.items():
        callees = {
            id(node.func)
            for node in ast.walk(method)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        }
        for node in _self_attributes(method):
            if node.attr not in methods:
                continue
            if id(node) in callees:
                callers[node.attr].add(name)
            else:
                referenced_otherwise.add(node.attr)  # a callback, a bound method stored ...
    helpers = set(CONSTRUCTORS & methods.keys())
    # methods the class never calls that the project calls only right after building an
    # object (`setup`, analysis/construction.py): set-up steps of the construction
    helpers |= {n for n in setup if n in methods and not callers[n]} - referenced_otherwise
    grown = True
    while grown:
        grown = False
        for name in methods:
            if (
                name in helpers
                or not (name.startswith("_") or name in public)
                or (name.startswith("__") and name.endswith("__"))  # a special method
                or name in referenced_otherwise
                or not callers[name]
                or not callers[name] <= helpers
            ):
                continue
            helpers.add(name)
            grown = True
    return helpers


def construction_candidates(cls: ast.ClassDef) -> set[str]:
    """Public methods that the class itself calls only while the object is being built
    (`self.init_env()` from `__init__`): construction helpers too, if nothing outside the class
    calls them (which only the project can tell: `ModuleSummary.init_methods`). v21 and v23
    rows, JAX409: JAX-DIPS `initialize_*`, ac_jax `init_env`/`init_network_and_optimiser`."""
    public = frozenset(
        name for name in _methods(cls) if not name.startswith("_") and name not in CONSTRUCTORS
    )
    return _construction_helpers(cls, public) & public


def uncalled_public_methods(cls: ast.ClassDef) -> set[str]:
    """Public methods (not special ones) that no method of the class calls or refers to: only
    code outside the class runs them (`wf.build(key)`), which analysis/construction.py reads."""
    methods = _methods(cls)
    used = {node.attr for method in methods.values() for node in _self_attributes(method)}
    return {
        name
        for name in methods
        if not name.startswith("_") and name not in CONSTRUCTORS and name not in used
    }


def self_attribute_nodes(cls: ast.ClassDef) -> set[int]:
    """The ids of the `self.<name>` nodes of the class's methods (`self.init_env` in
    `self.init_env()` among them): what the class analysis reads of its own calls."""
    return {id(node) for method in _methods(cls).values() for node in _self_attributes(method)}


def attributes_set_after_init(cls: ast.ClassDef, public: frozenset[str] = frozenset()) -> set[str]:
    """Attributes assigned on `self` (`self.x = ...`, `self.x += ...`, `del self.x`) by a method
    that can run after construction (see `_construction_helpers`; `public`: the class's public
    methods that nothing outside it calls but in set-up calls: `ModuleFacts.construction_only`)."""
    helpers = _construction_helpers(cls, public, public)
    return {
        node.attr
        for name, method in _methods(cls).items()
        if name not in helpers
        for node in _self_attributes(method)
        if isinstance(node.ctx, (ast.Store, ast.Del))
    }


def self_attributes_read(
    cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef
) -> set[str] | None:
    """Attributes of `self` that `method` reads, following `self.m(...)` calls and properties
    to the class's own methods. None when `self` escapes (passed to a function, `getattr(self,
    ...)`, `self.__dict__`), since then any attribute may be read."""
    methods = _methods(cls)
    out: set[str] = set()
    seen: set[str] = set()
    todo = [method]
    while todo:
        fn = todo.pop()
        if fn.name in seen:
            continue
        seen.add(fn.name)
        me = _self_name(fn)
        if me is None:
            continue
        attrs = _self_attributes(fn)
        uses = sum(1 for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == me)
        if uses > len(attrs):
            return None  # `self` itself flows somewhere (an argument, `getattr(self, ...)`)
        for node in attrs:
            if node.attr.startswith("__"):
                return None  # `self.__dict__`, `self.__class__` ...
            if node.attr in methods:
                todo.append(methods[node.attr])
            elif isinstance(node.ctx, ast.Load):
                out.add(node.attr)
    return out
