"""Version guards: code that exists only for an older JAX.

Libraries that support several JAX versions keep the old spelling in a branch that only old
JAX runs:

    if hasattr(jax.extend.core, "mapped_aval"): new          else: old
    if jax.__version_info__ >= (0, 4, 30):      new          else: old
    if Version(jax.__version__) < Version("0.5"): old
    try: from jax.extend.core import X          except ImportError: from jax.core import X
    try: from jax.experimental.maps import xmap except ImportError: xmap = None
    new if hasattr(jax, "typeof") else jax.core.get_aval(x)

A removed-API finding there is a false positive, and its rename fix makes both branches
identical, so the fallback then fails on the very JAX it exists for (ux-review B1). This module
decides, once per node, whether it sits in such an old-JAX branch; the JAX8xx rules are silent
there.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax

# exceptions whose handler is a fallback for a missing (new or old) JAX API
_FALLBACK_ERRORS = frozenset(
    {"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "NameError"}
)
# what a compatibility shim's `try` body holds (`_shim_attempt`)
_SHIM_STATEMENTS = (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Pass)
_VERSION_ATTRS = ("__version__", "__version_info__", "_version", "version_info")
_VERSION_CALLS = frozenset(
    {
        "packaging.version.parse",
        "packaging.version.Version",
        "distutils.version.LooseVersion",
        "distutils.version.StrictVersion",
        "pkg_resources.parse_version",
        "importlib.metadata.version",
        "tuple",
        "map",
        "int",
        "str",
        "list",
    }
)


class VersionGuards:
    """Answers "is this node in a branch that only an older JAX runs?" for one module."""

    def __init__(self, index) -> None:  # noqa: ANN001 - analysis.imports.ModuleIndex
        self.index = index
        self._memo: dict[int, bool] = {}
        self._version_names = self._names_bound_to_versions()

    def in_old_jax_branch(self, node: ast.AST) -> bool:
        """True when `node` runs only where a newer JAX API is missing (or JAX is older), or
        is a reference to exactly the attribute an enclosing `hasattr` proved present."""
        return self._in_old_branch(node) or self._proved_by_hasattr(node)

    def _proved_by_hasattr(self, node: ast.AST) -> bool:
        """`if hasattr(jax.core, "get_aval"): jax.core.get_aval(x)`: the old API, checked."""
        q = self.index.qualname(node) if isinstance(node, (ast.Attribute, ast.Name)) else None
        if q is None:
            return False
        child: ast.AST = node
        parent = syntax.parent(node)
        while parent is not None and not isinstance(parent, ast.Module):
            if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
                in_body = (
                    child is parent.body if isinstance(parent, ast.IfExp) else child in parent.body
                )
                for test in _conjuncts(parent.test) if in_body else ():
                    parts = syntax.hasattr_parts(test)
                    if parts is not None and self.index.qualname(test.func) == "hasattr":  # type: ignore[attr-defined]
                        owner = self.index.qualname(parts[0])
                        if owner and q == f"{owner}.{parts[1]}":
                            return True
            child, parent = parent, syntax.parent(parent)
        return False

    def _in_old_branch(self, node: ast.AST) -> bool:
        child: ast.AST = node
        parent = syntax.parent(node)
        chain: list[int] = []
        result = False
        while parent is not None and not isinstance(parent, ast.Module):
            key = id(child)
            if key in self._memo:
                result = self._memo[key]
                break
            chain.append(key)
            if self._old_branch(parent, child):
                result = True
                break
            child, parent = parent, syntax.parent(parent)
        for key in chain:
            self._memo[key] = result
        return result

    # -- one step up -------------------------------------------------------------------------
    def _old_branch(self, parent: ast.AST, child: ast.AST) -> bool:
        if isinstance(parent, ast.Try) and child in parent.body:
            return self._shim_attempt(parent)
        if isinstance(parent, ast.ExceptHandler):
            return (
                child is not parent.type
                and _catches_fallback(parent)
                and self._try_uses_jax(syntax.parent(parent))
            )
        if isinstance(parent, (ast.If, ast.IfExp, ast.While)):
            if child is parent.test:
                return False
            newer = self._newer_jax_when_true(parent.test)
            if newer is None:
                return False
            in_body = (
                child is parent.body if isinstance(parent, ast.IfExp) else child in parent.body
            )
            return in_body != newer
        return False

    def _newer_jax_when_true(self, test: ast.AST) -> bool | None:
        """True: the test holds on newer JAX; False: on older JAX; None: not a version guard."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._newer_jax_when_true(test.operand)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            found = {self._newer_jax_when_true(v) for v in test.values} - {None}
            return found.pop() if len(found) == 1 else None
        if isinstance(test, ast.Call) and self.index.qualname(test.func) == "hasattr":
            if len(test.args) == 2 and self._is_jax(test.args[0]):
                return True  # the newer JAX has the attribute
            return None
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left, right, op = test.left, test.comparators[0], test.ops[0]
            if self._is_version(left):
                flip = False
            elif self._is_version(right):
                flip = True
            else:
                return None
            if isinstance(op, (ast.Gt, ast.GtE)):
                return not flip
            if isinstance(op, (ast.Lt, ast.LtE)):
                return flip
        return None

    def _shim_attempt(self, node: ast.Try) -> bool:
        """`try: from jax.experimental.maps import xmap` / `except ImportError: xmap = None`:
        a compatibility shim that tries the old API and falls back where it is gone, so the
        attempt is the code that runs only on an older JAX. A shim's shape: a few imports and
        assignments naming JAX, each handler a fallback for a missing API (a new user's report,
        stop 52: JAX804 in the default selection on such an import). A `try` around other code
        (a loop, a call for its effect, a def) is no shim: what fails there is reported."""
        if not node.handlers or len(node.body) > 4:
            return False
        if not all(isinstance(s, _SHIM_STATEMENTS) for s in node.body):
            return False
        return all(_catches_fallback(h) for h in node.handlers) and self._try_uses_jax(node)

    def _try_uses_jax(self, node: ast.AST | None) -> bool:
        """The `try` body names a JAX API: its handler is a fallback for a missing one (a
        handler of unrelated code is not compatibility code)."""
        if not isinstance(node, ast.Try):
            return False
        for stmt in node.body:
            for n in ast.walk(stmt):
                if isinstance(n, (ast.Import, ast.ImportFrom)):
                    names = [n.module or ""] if isinstance(n, ast.ImportFrom) else []
                    names += [a.name for a in n.names]
                    if any(m == "jax" or m.startswith(("jax.", "jaxlib")) for m in names):
                        return True
                elif isinstance(n, (ast.Attribute, ast.Name)) and self._is_jax(n):
                    return True
        return False

    # -- what counts as JAX / a JAX version ---------------------------------------------------
    def _is_jax(self, node: ast.AST) -> bool:
        q = self.index.qualname(node)
        return q is not None and (q == "jax" or q.startswith(("jax.", "jaxlib", "flax", "optax")))

    def _is_version(self, node: ast.AST, depth: int = 0) -> bool:
        """`jax.__version__`, `jax.__version_info__`, `Version(jax.__version__)`,
        `tuple(map(int, jax.__version__.split(".")[:2]))`, or a name bound to one of these."""
        if depth > 6:
            return False
        if isinstance(node, ast.Attribute):
            if node.attr in _VERSION_ATTRS and self._is_jax(node.value):
                return True
            return self._is_version(node.value, depth + 1)  # `.release`, `.major`, ...
        if isinstance(node, ast.Subscript):
            return self._is_version(node.value, depth + 1)
        if isinstance(node, ast.Call):
            q = self.index.qualname(node.func)
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("split", "partition"):
                return self._is_version(node.func.value, depth + 1)
            if q == "importlib.metadata.version" or (
                isinstance(node.func, ast.Attribute) and node.func.attr == "version"
            ):
                return any(
                    isinstance(a, ast.Constant) and a.value in ("jax", "jaxlib") for a in node.args
                )
            if q in _VERSION_CALLS or _callee_name(node) in ("Version", "parse_version", "parse"):
                return any(self._is_version(a, depth + 1) for a in node.args)
            return False
        if isinstance(node, ast.Name):
            return node.id in self._version_names
        return False

    def _names_bound_to_versions(self) -> frozenset[str]:
        """Names assigned a JAX version (`_JAX_VERSION = Version(jax.__version__)`), and names
        built from those, to a fixed point. The candidates are the index's single-name
        assignments (`x = ...` in any scope), not a walk of the module: two walks were a
        sixth of the lint of a 3,000-line module, for a handful of assignments."""
        candidates = [
            (name, b.node.value)
            for scope in self.index.scopes.values()
            for name, bindings in scope.bindings.items()
            for b in bindings
            if b.kind == "assign" and isinstance(b.node, ast.Assign)
        ]
        names: set[str] = set()
        changed = True
        while changed:  # a name built from another version name
            changed = False
            for name, value in candidates:
                if name not in names:
                    self._version_names = frozenset(names)
                    if self._is_version(value):
                        names.add(name)
                        changed = True
        return frozenset(names)


def _conjuncts(test: ast.AST) -> list[ast.AST]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return list(test.values)
    return [test]


def _callee_name(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


def _catches_fallback(handler: ast.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(
        (isinstance(n, ast.Name) and n.id in _FALLBACK_ERRORS)
        or (isinstance(n, ast.Attribute) and n.attr in _FALLBACK_ERRORS)
        for n in names
    )
