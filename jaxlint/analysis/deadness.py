"""Dead results: a call whose value no code ever reads.

`value_is_dead(call)` is True when the call is a whole expression statement (its value is
discarded), or the whole right-hand side of an assignment to plain names that are, on every
path from the assignment, rebound (or deleted, or out of scope at the end of the function)
before anything reads them. The PRNG analysis uses it so that a key consumption whose result
is dead does not count as the first use of a "consumed twice" pair (JAX201): a discarded
`split` or sample correlates with nothing, so drawing from the same key again is harmless
(Mava's `eval_keys = split(key_e, n)` overwritten in the training loop before the evaluator
reads it; mctx's duplicated `a, b, c = split(key, 3)` line).

It is a conservative, purely syntactic answer (False whenever unsure): a name that is global
or nonlocal, read by a nested function or class (a closure reads it whenever it runs), stored
through an attribute or subscript, or reaching a `try`, `match`, `break` or `continue` that
reads or may skip the rebinding, counts as read. The end of the module counts as out of scope
only for code paths the module itself can reach; a name still bound there may be imported, so
it is read. A loop body is assumed to run only when the loop iterates over a non-empty literal
(`range(3)`, `[a, b]`); otherwise the path that skips the loop is followed too. Nodes need the
`jl_parent` links that `ModuleIndex` sets; without them the answer is False.
"""

from __future__ import annotations

import ast
import enum

from jaxlint.analysis import syntax
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors


class _Flow(enum.Enum):
    READ = "read"  # the incoming value may be read
    KILLED = "killed"  # every path rebinds (or drops) the name before reading it
    OPEN = "open"  # falls through without reading it, still bound to the incoming value


def value_is_dead(call: ast.AST) -> bool:
    """True when nothing can read the value `call` evaluates to (see the module docstring)."""
    parent = syntax.parent(call)
    if isinstance(parent, ast.Expr) and parent.value is call:
        return True
    if isinstance(parent, ast.Assign) and parent.value is call:
        targets = parent.targets
    elif isinstance(parent, ast.AnnAssign) and parent.value is call:
        targets = [parent.target]
    else:
        return False
    names: list[str] = []
    for t in targets:
        found = syntax.plain_target_names(t)
        if found is None:
            return False  # stored into an object: whoever holds it may read it
        names.extend(found)
    return bool(names) and all(_dead_after(parent, n) for n in names)


def result_never_read(call: ast.AST, module: ast.Module) -> bool:
    """`value_is_dead(call)`, or the call is the whole right-hand side of `self._x = call`
    (a private attribute, not a dunder) and nothing in `module` loads an attribute `_x`:
    a jit wrapper built in `__init__` and never called (MLLM-JAX's gemma sampler, whose
    `self._compiled_sample_fn = jax.jit(self._sample_fn)` has its calls commented out)."""
    if value_is_dead(call):
        return True
    parent = syntax.parent(call)
    if not (isinstance(parent, ast.Assign) and parent.value is call and len(parent.targets) == 1):
        return False
    target = parent.targets[0]
    if not (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
        and target.attr.startswith("_")
        and not target.attr.startswith("__")
    ):
        return False
    attr = target.attr
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, ast.Constant) and node.value == attr:
            return False  # `getattr(self, "_x")`
    return True


def names_dead_after(stmt: ast.stmt, names: list[str]) -> bool:
    """True when each of `names`, bound by `stmt`, is dead after it (as for `value_is_dead`);
    for a call whose value is bound only in part (analysis/flow/key_products.py)."""
    return all(_dead_after(stmt, n) for n in names)


def _scope_of(node: ast.AST) -> ast.AST | None:
    p = syntax.parent(node)
    while p is not None and not isinstance(p, (*FUNCTION_NODES, ast.Module, ast.ClassDef)):
        p = syntax.parent(p)
    return p


def _dead_after(stmt: ast.stmt, name: str) -> bool:
    scope = _scope_of(stmt)
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        return False  # class bodies (attributes) and lambdas: not followed
    if _declared_shared(scope, name) or _closure_reads(scope, name):
        return False
    for outer in ancestors(stmt, stop=scope):
        if isinstance(outer, ast.ExceptHandler):
            outer = syntax.parent(outer)
        if isinstance(outer, (ast.Try, _TRY_STAR)):
            if any(_loads(part, name) for part in _try_rest(outer)):
                return False  # a handler or `finally` may run after any point of the body
    node: ast.AST = stmt
    while True:
        parent = syntax.parent(node)
        if parent is None:
            return False
        block = _block_holding(parent, node)
        if block is None:
            return False
        after = block[block.index(node) + 1 :]
        flow = _scan(after, name)
        if flow is not _Flow.OPEN:
            return flow is _Flow.KILLED
        if parent is scope:
            # the end of the function: the name goes out of scope; the end of the module: the
            # name stays bound and may be imported
            return not isinstance(scope, ast.Module)
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and block is parent.body:
            # the next iteration runs the loop header and the body from its start again
            if isinstance(parent, ast.While):
                if _loads(parent.test, name):
                    return False
                if _scan(parent.body, name) is _Flow.READ:
                    return False
            elif name not in _bound_names(parent.target):
                if _scan(parent.body, name) is _Flow.READ:
                    return False
            flow = _scan(parent.orelse, name)
            if flow is not _Flow.OPEN:
                return flow is _Flow.KILLED
        elif isinstance(parent, ast.ExceptHandler):
            parent = syntax.parent(parent)  # its `try` was checked above
            if parent is None:
                return False
        elif isinstance(parent, ast.match_case):
            parent = syntax.parent(parent)
            if parent is None:
                return False
        elif not isinstance(
            parent,
            (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, _TRY_STAR),
        ):
            return False
        node = parent


_TRY_STAR = getattr(ast, "TryStar", ast.Try)


def _try_rest(node: ast.AST) -> list[ast.AST]:
    """The parts of a `try` that may run after a statement of its body or a handler."""
    return [*node.handlers, *node.orelse, *node.finalbody]  # type: ignore[attr-defined]


def _block_holding(parent: ast.AST, node: ast.AST) -> list | None:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(s is node for s in block):
            return block
    return None


def _declared_shared(scope: ast.AST, name: str) -> bool:
    """`global name` / `nonlocal name` in the scope itself: other code shares the binding."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        cur = stack.pop()
        if isinstance(cur, (ast.Global, ast.Nonlocal)) and name in cur.names:
            return True
        if not isinstance(cur, (*FUNCTION_NODES, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(cur))
    return False


def _closure_reads(scope: ast.AST, name: str) -> bool:
    """A function nested in the scope (at any depth) that reads `name` without binding its
    own: it may run at any time after the assignment and read the value."""
    for sub in ast.walk(scope):
        if sub is scope or not isinstance(sub, FUNCTION_NODES):
            continue
        if _loads_anywhere(sub, name) and name not in _local_names(sub):
            return True
    return False


def _local_names(fn: ast.AST) -> set[str]:
    out = {a.arg for a in _all_args(fn.args)}  # type: ignore[attr-defined]
    if isinstance(fn, ast.Lambda):
        return out
    stack = list(fn.body)  # type: ignore[attr-defined]
    while stack:
        cur = stack.pop()
        if isinstance(cur, (ast.Global, ast.Nonlocal)):
            out.difference_update(cur.names)
            continue
        if isinstance(cur, ast.Name) and isinstance(cur.ctx, (ast.Store, ast.Del)):
            out.add(cur.id)
        if not isinstance(cur, FUNCTION_NODES):
            stack.extend(ast.iter_child_nodes(cur))
    return out


def _loads(node: ast.AST, name: str) -> bool:
    """`node` reads `name` when it runs. Of a nested function only what its definition
    evaluates counts (decorators, defaults, annotations): `_closure_reads` covers its body."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Name):
            if cur.id == name and isinstance(cur.ctx, ast.Load):
                return True
        elif isinstance(cur, FUNCTION_NODES):
            args = cur.args
            stack.extend(d for d in (*args.defaults, *args.kw_defaults) if d is not None)
            if not isinstance(cur, ast.Lambda):
                stack.extend(cur.decorator_list)
                stack.extend(a.annotation for a in _all_args(args) if a.annotation is not None)
                if cur.returns is not None:
                    stack.append(cur.returns)
        else:
            stack.extend(ast.iter_child_nodes(cur))
    return False


def _loads_anywhere(node: ast.AST, name: str) -> bool:
    return any(
        isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load)
        for sub in ast.walk(node)
    )


def _all_args(args: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


def _bound_names(target: ast.AST) -> set[str]:
    return {
        sub.id
        for sub in ast.walk(target)
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)
    }


def _scan(stmts: list[ast.stmt], name: str) -> _Flow:
    for stmt in stmts:
        flow = _effect(stmt, name)
        if flow is not _Flow.OPEN:
            return flow
    return _Flow.OPEN


def _runs_at_least_once(loop: ast.For | ast.AsyncFor) -> bool:
    it = loop.iter
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
        return bool(it.elts) and not any(isinstance(e, ast.Starred) for e in it.elts)
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
        and len(it.args) == 1
        and not it.keywords
    ):
        arg = it.args[0]
        return isinstance(arg, ast.Constant) and type(arg.value) is int and arg.value > 0
    return False


def _effect(stmt: ast.stmt, name: str) -> _Flow:  # noqa: C901 - one case per statement kind
    """What one statement does to the incoming binding of `name`."""
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        if _loads(stmt, name):
            return _Flow.READ  # also `name.x = ...` and `d[name] = ...`
        if stmt.value is None:
            return _Flow.OPEN  # a bare annotation binds nothing
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        return _Flow.KILLED if any(name in _bound_names(t) for t in targets) else _Flow.OPEN
    if isinstance(stmt, ast.Delete):
        if _loads(stmt, name):
            return _Flow.READ
        return _Flow.KILLED if any(name in _bound_names(t) for t in stmt.targets) else _Flow.OPEN
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        if _loads(stmt, name):
            return _Flow.READ  # decorators, defaults, annotations, bases, a class body
        return _Flow.KILLED if stmt.name == name else _Flow.OPEN
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        bound = {(a.asname or a.name).split(".")[0] for a in stmt.names}
        return _Flow.KILLED if name in bound else _Flow.OPEN
    if isinstance(stmt, ast.If):
        if _loads(stmt.test, name):
            return _Flow.READ
        return _either(_scan(stmt.body, name), _scan(stmt.orelse, name))
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
        head = stmt.test if isinstance(stmt, ast.While) else stmt.iter
        if _loads(head, name):
            return _Flow.READ
        rebinds = not isinstance(stmt, ast.While) and name in _bound_names(stmt.target)
        body = _Flow.KILLED if rebinds else _scan(stmt.body, name)
        if body is _Flow.READ:
            return _Flow.READ
        if body is _Flow.KILLED and not isinstance(stmt, ast.While) and _runs_at_least_once(stmt):
            return _Flow.KILLED
        return _scan(stmt.orelse, name)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        if any(_loads(item.context_expr, name) for item in stmt.items):
            return _Flow.READ
        if any(
            v is not None and name in _bound_names(v) for v in (i.optional_vars for i in stmt.items)
        ):
            return _Flow.KILLED
        return _scan(stmt.body, name)
    if isinstance(stmt, (ast.Break, ast.Continue)):
        return _Flow.READ  # jumps past or back over code not followed here: assume read
    if isinstance(stmt, (ast.Global, ast.Nonlocal, ast.Pass)):
        return _Flow.OPEN
    if isinstance(stmt, (ast.Expr, ast.Return, ast.Raise, ast.Assert, ast.AugAssign)):
        if _loads(stmt, name) or (
            isinstance(stmt, ast.AugAssign) and name in _bound_names(stmt.target)
        ):
            return _Flow.READ
        return _Flow.KILLED if isinstance(stmt, ast.Return) else _Flow.OPEN
    # try, match and anything newer: read if it mentions the name at all
    return _Flow.READ if _loads(stmt, name) or _mentions(stmt, name) else _Flow.OPEN


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(sub, ast.Name) and sub.id == name for sub in ast.walk(node))


def _either(a: _Flow, b: _Flow) -> _Flow:
    if _Flow.READ in (a, b):
        return _Flow.READ
    return _Flow.KILLED if a is b is _Flow.KILLED else _Flow.OPEN
