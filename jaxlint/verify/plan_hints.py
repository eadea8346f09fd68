"""Facts about a finding that one verifier kind needs besides the entry: the kind hints.

`import` gets the dotted JAX names and config options used at the finding, `retrace-static` the
suspect parameters, `execcount` whether the line prints, `numeric` the module globals it reads,
`lower` the called function and its donated arguments, JAX301/JAX303 the pmapped / shard_mapped
name; `enclosing_loop_lines` gives every kind the body of the loop around the finding. Each is
computed here from the analysis facts, so the child never re-runs the linter. Static: no JAX.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.imports import dotted
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors
from jaxlint.verify.plan_locate import Located, def_qualname, positional_params

# --------------------------------------------------------------------------- kind hints


def _names_at(loc: Located, facts: ModuleFacts) -> tuple[list[str], list[str]]:
    """Dotted JAX names used at the finding (for `import`), and config options it names."""
    if loc.node is None:
        return [], []
    return _names_in([loc.node], facts.index, loc.tree)


def _names_in(
    roots: Sequence[ast.AST], index: Any, tree: ast.Module, *, unique: bool = True
) -> tuple[list[str], list[str]]:
    names: list[str] = []
    options: list[str] = []
    for root in roots:
        for sub in ast.walk(root):
            if isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
                for alias in sub.names:
                    if alias.name != "*":
                        names.append(f"{sub.module}.{alias.name}")
            elif isinstance(sub, ast.Import):
                for alias in sub.names:
                    names.append(alias.name)
                    if alias.asname:  # `import a.b as m`: what the file reads through `m`
                        names += _alias_uses(tree, alias.asname, alias.name)
            elif isinstance(sub, (ast.Attribute, ast.Name)):
                parent = getattr(sub, "jl_parent", None)
                if isinstance(parent, ast.Attribute) and parent.value is sub:
                    continue
                q = index.qualname(sub)
                if q and (q == "jax" or q.startswith(("jax.", "jaxlib.", "flax.", "equinox."))):
                    names.append(q)
            elif isinstance(sub, ast.Call):
                q = index.qualname(sub.func) or ""
                if q.endswith("config.update") and sub.args:
                    first = sub.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        options.append(first.value)
            elif isinstance(sub, ast.Subscript) and (index.qualname(sub.value) or "") in (
                "os.environ",
            ):
                key = sub.slice
                if isinstance(key, ast.Constant) and str(key.value).startswith("JAX_"):
                    options.append(str(key.value).lower())
    # the name itself at a bare reference: prefer the longest (most specific) names
    longest = [n for n in names if not any(o != n and o.startswith(n + ".") for o in names)]
    if not unique:
        return longest, options
    return list(dict.fromkeys(longest)), list(dict.fromkeys(options))


def line_names(text: str, lines: Sequence[int], *, unique: bool = True) -> list[str]:
    """JAX names and config options used by the statements on `lines` of `text`."""
    from jaxlint.analysis.imports import ModuleIndex

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    index = ModuleIndex(tree)
    wanted = set(lines)
    roots = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and wanted & set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        and not any(isinstance(c, ast.stmt) for c in ast.iter_child_nodes(node))
    ]
    roots += [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and wanted & {node.lineno}
    ]
    headers = []
    for node in roots:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            headers += [
                *node.decorator_list,
                *[a.annotation for a in node.args.args if a.annotation],
            ]
            if node.returns is not None:
                headers.append(node.returns)
        else:
            headers.append(node)
    names, options = _names_in(headers, index, tree, unique=unique)
    return names + options


def _alias_uses(tree: ast.Module, alias: str, module: str) -> list[str]:
    """`m.attr` reads anywhere in the module for `import module as m` -> `module.attr`."""
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == alias
        ):
            out.append(f"{module}.{node.attr}")
    return list(dict.fromkeys(out))


def _suspects(loc: Located, fn: ast.AST | None) -> list[str]:
    if fn is None or loc.node is None:
        return []
    params = {a.arg for a in positional_params(fn)} | {a.arg for a in fn.args.kwonlyargs}  # type: ignore[attr-defined]
    found = []
    node = loc.node
    if isinstance(node, (ast.If, ast.While)):
        node = node.test
    elif isinstance(node, ast.For):
        node = node.iter
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in params and sub.id not in found:
            found.append(sub.id)
    return found


def _prints(loc: Located, facts: ModuleFacts) -> bool:
    node = loc.node
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)] if node is not None else []
    return any(facts.index.qualname(c.func) == "print" for c in calls)


def pmap_target_of(loc: Located, tree: ast.Module) -> str | None:
    """The module-level name a flagged `pmap` produces: the decorated def or assigned name."""
    node = loc.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return def_qualname(node, tree)
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    ):
        return node.targets[0].id
    cur = node
    while cur is not None and getattr(cur, "jl_parent", None) is not None:
        parent = cur.jl_parent  # type: ignore[attr-defined]
        if (
            isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
            and cur in parent.decorator_list
        ):
            return def_qualname(parent, tree)
        if isinstance(parent, ast.Assign) and getattr(parent, "jl_parent", None) is tree:
            target = parent.targets[0]
            return target.id if isinstance(target, ast.Name) else None
        if isinstance(parent, ast.stmt):
            return None
        cur = parent
    return None


def axis_name_of(loc: Located) -> str | None:
    """`axis_name=` of the flagged pmap (the call around the flagged name, or inside it)."""
    node = loc.node
    roots = [node] if node is not None else []
    cur = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = getattr(cur, "jl_parent", None)
        if isinstance(cur, ast.Call):
            roots.append(cur)
    for root in roots:
        for sub in ast.walk(root):
            if isinstance(sub, ast.Call):
                for kw in sub.keywords:
                    if kw.arg == "axis_name" and isinstance(kw.value, ast.Constant):
                        return str(kw.value.value)
    return None


def _module_globals(loc: Located, facts: ModuleFacts, tree: ast.Module) -> list[str]:
    """Module-level variables (assigned, not defs or imports) read at the finding."""
    if loc.node is None:
        return []
    module_scope = facts.index.scopes.get(tree)
    out = []
    for sub in ast.walk(loc.node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and module_scope is not None:
            found = facts.index.lookup(sub.id, facts.index.scope_of(sub))
            bindings = module_scope.bindings.get(sub.id) or []
            if found and found is bindings and all(b.kind in ("assign", "local") for b in bindings):
                if sub.id not in out:
                    out.append(sub.id)
    return out


def pmap_function(loc: Located, tree: ast.Module, target: str | None) -> ast.AST | None:
    """The def a flagged pmap maps: the decorated def, or `f` in `g = pmap(f)`."""
    if target is None:
        return None
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == target:
            return stmt
    node = loc.node
    call = node if isinstance(node, ast.Call) else None
    parent = getattr(node, "jl_parent", None)
    if call is None and isinstance(parent, ast.Call) and parent.func is node:
        call = parent
    if call is None:
        for sub in ast.walk(node) if node is not None else []:
            if isinstance(sub, ast.Call):
                call = sub
                break
    if call is not None and call.args and isinstance(call.args[0], ast.Name):
        for stmt in tree.body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == call.args[0].id
            ):
                return stmt
    return None


def enclosing_loop_lines(loc: Located) -> list[int] | None:
    """Body lines of the innermost loop around the finding, inside the same function. For a
    decorator of a def nested in a function (`@jax.jit` on a def built per call), the body of
    that function: the jitted def compiles where it is called there, not on the decorator line."""
    node = loc.node
    if node is None:
        return None
    for parent in ancestors(node):
        if isinstance(parent, FUNCTION_NODES):
            decorators = getattr(parent, "decorator_list", ())
            if any(node is d or any(node is n for n in ast.walk(d)) for d in decorators):
                outer = next((a for a in ancestors(parent) if isinstance(a, FUNCTION_NODES)), None)
                if outer is not None and getattr(outer, "body", None):
                    first = outer.body[0].lineno
                    last = max((getattr(b, "end_lineno", None) or b.lineno) for b in outer.body)
                    return [first, last]
            return None
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and parent.body:
            first = parent.body[0].lineno
            last = max((getattr(b, "end_lineno", None) or b.lineno) for b in parent.body)
            if first <= loc.lines[0] <= last:
                return [first, last]
    return None


def _call_hint(loc: Located, facts: ModuleFacts) -> dict[str, Any] | None:
    """The function called at the finding and which arguments its statement reassigns
    (`params = step(params, g)` -> donate 0)."""
    node = loc.node
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)] if node is not None else []
    if not calls:
        return None
    call = calls[0]
    callee = dotted(call.func)
    if callee is None:
        return None
    targets: set[str] = set()
    stmt = loc.stmt
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Name):
                    targets.add(sub.id)
    donate = [i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id in targets]
    return {"callee": callee, "donate": donate, "line": call.lineno}


def sharded_name(loc: Located, tree: ast.Module) -> tuple[str | None, ast.AST | None]:
    """The module-level name under which the function around the finding is shard_mapped/pmapped:
    the decorated def itself, or `name = shard_map(fn, ...)`."""
    tops = [f for f in loc.functions if def_qualname(f, tree) is not None]
    if not tops:
        return None, None
    top = tops[-1]
    if getattr(top, "decorator_list", None):
        return def_qualname(top, tree), top
    name = getattr(top, "name", None)
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            if any(isinstance(sub, ast.Name) and sub.id == name for sub in ast.walk(stmt.value)):
                return stmt.targets[0].id, top
    return None, None


# --------------------------------------------------------------------------- one builder per kind


def _import_hint(loc: Located, facts: ModuleFacts, entry: ast.AST | None) -> dict[str, Any]:
    names, options = _names_at(loc, facts)
    return {"names": names, "config_options": options}


def _retrace_static_hint(loc: Located, facts: ModuleFacts, entry: ast.AST | None) -> dict[str, Any]:
    return {"suspects": _suspects(loc, entry)}


def _execcount_hint(loc: Located, facts: ModuleFacts, entry: ast.AST | None) -> dict[str, Any]:
    return {"prints": _prints(loc, facts)}


def _numeric_hint(loc: Located, facts: ModuleFacts, entry: ast.AST | None) -> dict[str, Any]:
    return {"globals": _module_globals(loc, facts, loc.tree)}


def _lower_hint(loc: Located, facts: ModuleFacts, entry: ast.AST | None) -> dict[str, Any]:
    return {"call": _call_hint(loc, facts)}


# kind -> the job keys its verifier reads besides the entry, built from the finding, the module's
# facts and the chosen entry's def (None when no entry was found); in the order they are added
KIND_HINTS: dict[str, Callable[[Located, ModuleFacts, ast.AST | None], dict[str, Any]]] = {
    "import": _import_hint,
    "retrace-static": _retrace_static_hint,
    "execcount": _execcount_hint,
    "numeric": _numeric_hint,
    "lower": _lower_hint,
}
