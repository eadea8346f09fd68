"""Plain questions about the syntax tree, answered once: where a node sits (parent,
ancestors, statement, enclosing function), which names a target binds, which argument of a
call a parameter gets, and what a literal holds.

Why a module of its own: every analysis (and many rules) asked these questions with its own
copy of a five-line helper, and the copies drifted (a dead last line here, `self` skipped
there). These know no JAX and no rule; the JAX vocabulary is `analysis/jax_api.py`.

Parent links are the `jl_parent` attributes `ModuleIndex` sets on every node when it indexes a
module (not on the `ctx`/`op`/`ops` singletons, `Load`, `Add`, ..., which `ast.parse` shares
between trees); on a tree that was never indexed, `parent` is None and the walks upward stop at
once.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
LOOP_STATEMENTS = (ast.For, ast.AsyncFor, ast.While)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# what `walk_scope` does not enter: the bodies of these run in a scope of their own
SCOPE_BOUNDARIES = (*FUNCTION_NODES, ast.ClassDef)


# -- which fields hold nodes ------------------------------------------------------------------


def _may_hold_nodes(annotation: object) -> bool:
    if isinstance(annotation, type):
        return annotation not in (str, int, object)  # `object`: a Constant's value
    args = getattr(annotation, "__args__", None)  # `ast.expr | None`, `list[ast.stmt]`
    if args is None:
        return True  # unknown: may
    return any(_may_hold_nodes(a) for a in args if a is not type(None))


_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


def node_fields(cls: type) -> tuple[str, ...]:
    """The fields of the node class `cls` that may hold nodes, in `_fields` order: the
    hot walks (the module index, the engine) skip names, numbers and constants' values
    without looking (`_field_types`, Python 3.13+; every field before). Kept per class."""
    found = _NODE_FIELDS.get(cls)
    if found is None:
        found = _NODE_FIELDS[cls] = _node_fields(cls)
    return found


def _node_fields(cls: type) -> tuple[str, ...]:
    types = getattr(cls, "_field_types", None)
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    if not isinstance(types, dict):
        return fields
    return tuple(f for f in fields if f not in types or _may_hold_nodes(types[f]))


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_AST, _RETURN = ast.AST, ast.Return
_NAME, _TUPLE, _LIST, _STARRED = ast.Name, ast.Tuple, ast.List, ast.Starred
_CLAUSES = frozenset((ast.ExceptHandler, ast.match_case))  # in statement lists, no statements
_DEFS = frozenset((ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))


# the fields that hold only field-less singletons (`ctx`: expr_context; `op`: boolop,
# operator, unaryop; `ops`: a list of cmpop), which `child_nodes` leaves out
SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` as a list, in the same order, less the field-less
    singletons of `SINGLETON_FIELDS` (`Load`, `Add`, `Eq`, ...: nothing is under them, and
    no caller asks for them), looking only at the fields that may hold nodes
    (`node_fields`): the generic walk asks every field of every node."""
    cls = type(node)
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _CHILD_FIELDS[cls] = tuple(
            f for f in node_fields(cls) if f not in SINGLETON_FIELDS
        )
    out: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if type(value) is list:  # a list of nodes (or of `None`s, in `Dict.keys`)
            out.extend(v for v in value if isinstance(v, _AST))
        elif isinstance(value, _AST):
            out.append(value)
    return out


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk(node)` (breadth first, the same order) less the field-less singletons
    `child_nodes` leaves out, for callers that look for other kinds of node."""
    todo = deque([node])
    pop, extend = todo.popleft, todo.extend
    while todo:
        cur = pop()
        extend(child_nodes(cur))
        yield cur


# The fields of a statement (or of an `except` / `case` clause) that hold statements, in the
# order of every such class's `_fields`. No expression holds a statement, so a walk for
# statements (`return`, `global`) needs only these.
STATEMENT_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")
_STATEMENT_FIELDS_OF: dict[type, tuple[str, ...]] = {}


def statement_fields(cls: type) -> tuple[str, ...]:
    """The `STATEMENT_FIELDS` a node class has (most statements: none), in that order."""
    found = _STATEMENT_FIELDS_OF.get(cls)
    if found is None:
        own = getattr(cls, "_fields", ())
        found = _STATEMENT_FIELDS_OF[cls] = tuple(f for f in STATEMENT_FIELDS if f in own)
    return found


def nested_statements(node: ast.AST) -> Iterator[ast.AST]:
    """Every statement under `node` (a statement), nested functions and classes included."""
    stack: list[ast.AST] = [node]
    fields_of = _STATEMENT_FIELDS_OF
    while stack:
        cur = stack.pop()
        fields = fields_of.get(type(cur))
        for name in statement_fields(type(cur)) if fields is None else fields:
            items = getattr(cur, name, None)
            if type(items) is list:
                # these lists hold statements and `except` / `case` clauses only (exact
                # classes: the parser makes no subclasses)
                for item in items:
                    if type(item) not in _CLAUSES:
                        yield item
                stack.extend(items)


def dump_mentions(node: ast.AST, word: str) -> bool:
    """`word in ast.dump(node)`, for a word of identifier characters that no node class or
    field name contains (`ClassVar`), without building the dump. `ast.dump` writes each field
    value that is no node with `repr`, between delimiters (`=`, `(`, `,`, quotes), so the
    word is in the dump exactly when it is in one such `repr`; the `repr` of a string only
    adds escapes, each with a backslash, so it holds the word exactly when the string does."""
    stack = [node]
    while stack:
        cur = stack.pop()
        for name in cur._fields:
            value = getattr(cur, name, None)
            for item in value if type(value) is list else (value,):
                if isinstance(item, _AST):
                    stack.append(item)
                elif type(item) is str:
                    if word in item:
                        return True
                elif item is not None and word in repr(item):
                    return True
    return False


# -- where a node sits ------------------------------------------------------------------------


def parent(node: ast.AST) -> ast.AST | None:
    """The node holding `node` (None at the module, or before the tree is indexed)."""
    return getattr(node, "jl_parent", None)


def ancestors(node: ast.AST, stop: ast.AST | None = None) -> Iterator[ast.AST]:
    """The nodes holding `node`, innermost first, up to the module (or up to, and without,
    `stop`)."""
    p = getattr(node, "jl_parent", None)
    while p is not None and p is not stop:
        yield p
        p = getattr(p, "jl_parent", None)


def contains(tree: ast.AST, node: ast.AST) -> bool:
    """`node` is `tree` or inside it (by parent links: no walk of `tree`)."""
    cur: ast.AST | None = node
    while cur is not None:
        if cur is tree:
            return True
        cur = parent(cur)
    return False


def statement_of(node: ast.AST) -> ast.stmt | None:
    """The innermost statement holding `node` (`node` itself if it is one)."""
    cur: ast.AST | None = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = parent(cur)
    return cur


def enclosing_function(node: ast.AST, *, stop_at_class: bool = False) -> ast.AST | None:
    """The innermost function or lambda holding `node`. With `stop_at_class`, None for code
    in a class body (a method's body still has its method)."""
    for cur in ancestors(node):
        if isinstance(cur, FUNCTION_NODES):
            return cur
        if stop_at_class and isinstance(cur, ast.ClassDef):
            return None
    return None


def walk_scope(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and its descendants, not entering nested functions, lambdas or classes (the
    def itself is yielded: it binds its name)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, SCOPE_BOUNDARIES):
                stack.append(child)
            else:
                yield child


def own_returns(fn: ast.AST) -> list[ast.Return]:
    """The `return` statements of `fn` itself (not of functions nested in it), in the order
    of a depth-first walk from the last statement. Only statements are walked (a `return`
    is one, and no expression holds one: `STATEMENT_FIELDS`); walking every expression too
    made this a third of the project summaries' cost. Kept on the node after the first
    walk (the summary asks it of each top-level function three times; a tree is never
    changed in place): the list is shared, do not change it."""
    found = getattr(fn, "__dict__", {}).get("_jaxlint_returns")
    if found is None:
        found = _own_returns(fn)
        try:
            fn._jaxlint_returns = found  # type: ignore[attr-defined]
        except AttributeError:  # not a node
            pass
    return found


def _own_returns(fn: ast.AST) -> list[ast.Return]:
    out: list[ast.Return] = []
    body = getattr(fn, "body", None)
    stack: list[ast.AST] = list(body) if isinstance(body, list) else []
    fields_of = _STATEMENT_FIELDS_OF
    while stack:
        cur = stack.pop()
        cls = type(cur)  # exact classes: the parser makes no subclasses
        if cls is _RETURN:
            out.append(cur)  # type: ignore[arg-type]
            continue
        if cls in _DEFS:
            continue
        fields = fields_of.get(cls)
        for name in statement_fields(cls) if fields is None else fields:
            items = getattr(cur, name, None)
            if items:
                stack.extend(items)
    return out


# -- names ------------------------------------------------------------------------------------


def target_names(target: ast.AST) -> Iterator[str]:
    """The names an assignment target binds: `a`, `a, (b, *c)`; none for `x.attr`/`x[i]`."""
    cls = type(target)  # exact classes: the parser makes no subclasses
    if cls is _NAME:
        yield target.id  # type: ignore[attr-defined]
    elif cls is _TUPLE or cls is _LIST:
        for elt in target.elts:  # type: ignore[attr-defined]
            yield from target_names(elt)
    elif cls is _STARRED:
        yield from target_names(target.value)  # type: ignore[attr-defined]


def name_stores(node: ast.AST, name: str) -> list[ast.Name]:
    """Every `Name` node under `node` that binds or deletes `name` (nested scopes included)."""
    return [
        n
        for n in walk(node)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del))
    ]


def plain_target_names(target: ast.AST) -> list[str] | None:
    """The names a target binds when it binds only names (`a`, `a, *b`), else None (a target
    with `x.attr` or `x[i]` in it)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return plain_target_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[str] = []
        for e in target.elts:
            sub = plain_target_names(e)
            if sub is None:
                return None
            out.extend(sub)
        return out
    return None


def mentions(node: ast.AST, names: set[str] | frozenset[str]) -> bool:
    """`node` reads one of `names` (a Name load anywhere inside it)."""
    return any(
        isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)
        for n in ast.walk(node)
    )


# -- calls and parameters ---------------------------------------------------------------------


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    """The value of keyword argument `name=` (None if not given by name)."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    """The argument a parameter gets: at `position` (unless a `*args` is there) or `name=`."""
    if position < len(call.args) and not isinstance(call.args[position], ast.Starred):
        return call.args[position]
    return keyword(call, name)


def positional_params(fn: ast.AST, *, bound: bool = False) -> list[str]:
    """Names of `fn`'s positional parameters. `bound`: called through an instance or class
    (`obj.method(...)`), so a leading `self`/`cls` takes no argument and is left out."""
    args = fn.args  # type: ignore[attr-defined]
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    if bound and names and names[0] in ("self", "cls"):
        return names[1:]
    return names


def all_params(fn: ast.AST) -> list[str]:
    """Every parameter name of `fn`: positional, keyword-only, `*args`, `**kwargs`."""
    args = fn.args  # type: ignore[attr-defined]
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return names


def param_defaults(fn: ast.AST) -> dict[str, ast.expr]:
    """Each parameter of `fn` that has a default, to its default expression (positional and
    keyword-only); empty for a node without parameters."""
    args = getattr(fn, "args", None)
    if args is None:
        return {}
    positional = [*args.posonlyargs, *args.args]
    out = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
    )
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        if d is not None:
            out[a.arg] = d
    return out


def bind_arguments(
    call: ast.Call, fn: ast.AST, *, bound: bool | None = None
) -> dict[str, ast.expr]:
    """Parameter name -> argument expression at one call site, for plain positional and
    keyword arguments (positions stop at the first `*args`; `**kwargs` binds nothing).
    `bound` (default: the call's function is an attribute, `obj.f(...)`) skips a leading
    `self`/`cls`."""
    if bound is None:
        bound = isinstance(call.func, ast.Attribute)
    params = positional_params(fn, bound=bound)
    out: dict[str, ast.expr] = {}
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if i < len(params):
            out[params[i]] = arg
    for kw in call.keywords:
        if kw.arg:
            out[kw.arg] = kw.value
    return out


# -- literals ---------------------------------------------------------------------------------


def is_none_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def literal_truth(test: ast.AST) -> bool | None:
    """The truth of a test written as a literal, which the author edits to switch an arm off:
    `if False:`, `if 0:`, `if (train_ae_only := False):` (the walrus still binds; the arm
    never runs: v32 row, tuning material, zd_policy scripts/my_train.py:356, JAX201), `not` of
    one. None for any other test. CPython itself drops such an arm when it compiles, so the
    flow graph gives it no path and the dataflow walker drops its end state."""
    if isinstance(test, ast.NamedExpr):
        test = test.value
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = literal_truth(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.Constant) and test.value is not Ellipsis:
        return bool(test.value)
    return None


def literal_ints(node: ast.AST | None) -> tuple[int, ...] | None:
    """An int or a tuple/list of ints written literally (`()` for a missing node; None when
    the value is not such a literal), or a `range` of int literals, bare or in `tuple(...)` /
    `list(...)` (`static_argnums=tuple(range(12, 21))`: v40 tmdsimpy, JAX110 read FP)."""
    if node is None:
        return ()
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("tuple", "list")
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "range"
        and 1 <= len(node.args) <= 3
        and not node.keywords
    ):
        bounds = [literal_ints(a) for a in node.args]
        if all(
            b is not None and len(b) == 1 and isinstance(a, ast.Constant)
            for a, b in zip(node.args, bounds)
        ):
            return tuple(range(*(b[0] for b in bounds)))  # type: ignore[index]
        return None
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) for v in value):
        return tuple(value)
    return None


def literal_strs(node: ast.AST | None) -> tuple[str, ...] | None:
    """A str or a tuple/list of strs written literally (as `literal_ints`)."""
    if node is None:
        return ()
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (tuple, list)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def rows_of(display: ast.List | ast.Tuple, width: int) -> bool:
    """Every element of a literal list/tuple is a tuple/list display of `width` elements, none
    starred (rows that a loop target of that width unpacks position by position)."""
    return bool(display.elts) and all(
        isinstance(row, (ast.Tuple, ast.List))
        and len(row.elts) == width
        and not any(isinstance(e, ast.Starred) for e in row.elts)
        for row in display.elts
    )


def attribute_root(node: ast.AST) -> ast.AST:
    """The head of an attribute chain: `a` of `a.b.c`, the call of `f().m` (a node that is
    not an attribute is its own root)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


def hasattr_parts(node: ast.AST) -> tuple[ast.expr, str] | None:
    """`(obj, "name")` of a call shaped `f(obj, "name")` (a `hasattr` test, once the caller
    has checked that `f` is the builtin); None for any other node."""
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 2
        and not node.keywords
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[0], node.args[1].value
    return None


def is_main_guard(stmt: ast.AST) -> bool:
    """`stmt` is `if __name__ == "__main__":`."""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )
