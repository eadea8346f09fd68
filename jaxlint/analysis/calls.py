"""The call graph of one module: every call site resolved once to what it runs.

`ModuleFacts.calls` (one object per module, shared by check, flake8, the LSP and verify, which
all go through `ModuleFacts`). A call resolves to one `CallTarget` (frozen) or to nothing:

- `FUNCTION`: a def of this module named by the call (`helper(x)`, a closure factory's
  product, a re-wrapped def: `analysis/imports.py`'s `resolve_function`);
- `METHOD`: a method of a class of this module: `self.m(x)` / `cls.m(x)`, or through an
  instance whose class is known (`obj.m(x)` with `obj = Cls(...)`, `self.enc.m(x)` with
  `self.enc = Enc(...)` in the class);
- `MODULE_CALL`: the `__call__` of an instance of a flax/equinox Module or of a plain class
  of this module: `Block(...)(x)`, `blk(x)` with `blk = Block(...)`, `self.blk(x)` with
  `self.blk = Block(...)`, and two attribute levels: `self.model.visual(x)` where the class
  sets `self.model = Inner()` and `Inner.__init__` sets `self.visual = Vision()`;
- `CONSTRUCTOR`: `Cls(...)` for a class of this module: its `__init__`;
- `TRANSFORMED`: a def run under a transform: `jax.grad(loss)(p)`, `g(p)` with
  `g = jax.jit(step)` (`transform` says which; `through_name` whether it went through a name),
  or through a jit factory of this module (`g = apply(f)`, `transform` None);
- `PARTIAL`: `functools.partial(f, a)(x)` or `p(x)` with `p = partial(f, a)`: `f` gets the
  bound arguments first (`partial_args`, `partial_keywords`);
- `MAPPED`: `jax.tree.map(f, tree)`: `f` runs on the leaves of the other arguments;
- `EXTERNAL`: a function of another module, by its qualified name (`qualname`); what the
  project knows about it is the project index's (analysis/project.py).

Consumers pick the kinds they act on (the traced-function pipeline does not make a class's
`__init__` traced, the key flow does follow it), so what a call runs is decided here once.
"""

from __future__ import annotations

import ast
import enum
from collections import deque
from dataclasses import dataclass
from functools import cached_property

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex, Scope
from jaxlint.analysis.jax_api import PARTIAL, TREE_MAP
from jaxlint.analysis.syntax import bind_arguments
from jaxlint.analysis.transforms import Transforms, function_args

__all__ = ["CallGraph", "CallKind", "CallTarget"]

# wrappers that run the function once per call with the same arguments, not transforms
# (`jax.named_call(f, name=...)`): resolved like one (`TRANSFORMED`, `transform` says which)
_SAME_CALL_WRAPPERS = frozenset({"jax.named_call"})
_MAX_ATTRIBUTE_LEVELS = 2  # `self.model.visual`: an attribute of an attribute of `self`


class CallKind(enum.Enum):
    FUNCTION = "function"
    METHOD = "method"
    MODULE_CALL = "module_call"
    CONSTRUCTOR = "constructor"
    TRANSFORMED = "transformed"
    PARTIAL = "partial"
    MAPPED = "mapped"
    EXTERNAL = "external"


LOCAL_DEFS = frozenset({CallKind.FUNCTION, CallKind.METHOD})  # what `resolve_function` finds


@dataclass(frozen=True)
class CallTarget:
    """What one call runs. `function` is the def of this module (None for `EXTERNAL`);
    `args`/`keywords` are the arguments that def receives from this call (the partial-bound
    ones first; for `MAPPED` the trees, not the function); `bound_self` says its first
    parameter is bound (a method through an attribute, a `__call__`, an `__init__`)."""

    kind: CallKind
    call: ast.Call
    function: ast.AST | None
    qualname: str | None
    bound_self: bool
    args: tuple[ast.expr, ...]
    keywords: tuple[tuple[str, ast.expr], ...]
    partial_args: tuple[ast.expr, ...] = ()
    partial_keywords: tuple[tuple[str, ast.expr], ...] = ()
    transform: str | None = None  # the transform's qualified name (`TRANSFORMED`)
    through_name: bool = False  # `g = jax.grad(f); g(x)`, not `jax.grad(f)(x)`

    @property
    def keyword_map(self) -> dict[str, ast.expr]:
        return dict(self.keywords)


class CallGraph:
    """The call targets of one module's calls (each resolved once, on first query)."""

    def __init__(self, index: ModuleIndex, transforms: Transforms) -> None:
        self.index = index
        self.transforms = transforms
        self._targets: dict[ast.Call, CallTarget | None] = {}
        self._self_values: dict[ast.ClassDef, dict[str, list[ast.expr | None]]] = {}
        self._may_run: dict[ast.AST, set[ast.AST]] = {}
        self._reads: dict[tuple[ast.AST, str], bool] = {}  # `ignored_argument`'s walks

    # -- queries -----------------------------------------------------------------------
    def target(self, call: ast.Call) -> CallTarget | None:
        """What `call` runs, or None where nothing of this module is known to run."""
        if call in self._targets:
            return self._targets[call]
        found = self._resolve(call)
        self._targets[call] = found
        return found

    def function(self, call: ast.Call, kinds: frozenset[CallKind] = LOCAL_DEFS) -> ast.AST | None:
        """The def of this module `call` runs, if its target is one of `kinds`."""
        t = self.target(call)
        return t.function if t is not None and t.kind in kinds else None

    @cached_property
    def all(self) -> dict[ast.Call, CallTarget]:
        """Every resolved call of the module (for inspection and tests)."""
        out: dict[ast.Call, CallTarget] = {}
        for call in self.index.calls:
            t = self.target(call)
            if t is not None:
                out[call] = t
        return out

    def callers(self, fn: ast.AST) -> list[CallTarget]:
        """The resolved calls that run `fn`, in source order."""
        return list(self._by_function.get(fn, ()))

    @cached_property
    def _by_function(self) -> dict[ast.AST, list[CallTarget]]:
        """`all` grouped by the def each call runs: one pass, however many defs are asked
        about (a question per def over every call grew with the square of the module)."""
        out: dict[ast.AST, list[CallTarget]] = {}
        for t in self.all.values():
            if t.function is not None:
                out.setdefault(t.function, []).append(t)
        return out

    def parameter_arguments(self, fn: ast.AST, name: str) -> list[ast.expr] | None:
        """The arguments the visible calls of the function `fn` bind to its parameter `name`
        (`benchmark(forward_dynamics, q, qd)` binds `fn` of `def benchmark(fn, *args)`); None
        when `fn` is used other than called by name (passed on, stored: its callers are
        unknown), when nothing calls it, or when a call leaves `name` to its default."""
        own = getattr(fn, "name", None)
        if own is None:
            return None
        out: list[ast.expr] = []
        for ref in self.index.names.get(own, ()):
            if not isinstance(ref.ctx, ast.Load) or self.index.resolve_function(ref) is not fn:
                continue
            call = syntax.parent(ref)
            if not (isinstance(call, ast.Call) and call.func is ref):
                return None
            arg = bind_arguments(call, fn, bound=False).get(name)
            if arg is None:
                return None
            out.append(arg)
        return out or None

    def callable_argument(self, call: ast.Call) -> ast.AST | None:
        """`fn(...)` where `fn` is a parameter of the function the call is in, and every call
        of that function this module resolves (`handler.sample(student_t, 3.0)` through the
        instance; recall case seed_handler_rng, numpyro#263) passes the same def of this
        module there: the def the call runs. None when a call passes something else, leaves
        it to its default, or nothing resolves a call."""
        func = call.func
        owner = self.index.enclosing_function(call)
        if not isinstance(func, ast.Name) or not isinstance(
            owner, (ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            return None
        b = self.index.binding(func.id, self.index.scope_of(func))
        if b is None or b.kind != "param":
            return None
        found: set[ast.AST] = set()
        for t in self.callers(owner):
            if t.kind not in LOCAL_DEFS:
                return None
            arg = bind_arguments(t.call, owner, bound=t.bound_self).get(func.id)
            target = self.index.resolve_function(arg) if arg is not None else None
            if target is None or isinstance(target, ast.Lambda):
                return None
            found.add(target)
        return found.pop() if len(found) == 1 else None

    def ignored_argument(self, arg: ast.expr) -> bool:
        """`arg` is an argument of a resolved call, bound to a parameter its def never reads
        (`jax.vmap(reset)(keys)` with `def reset(key): return State(...)`): nothing the
        callee does depends on the value passed there (v20 rows, tuning material: qdx
        ours_vs_stim.ipynb, a `reset` that ignores its key, JAX201). False for an argument
        that reaches `*args`/`**kwargs`, or a def that can read its locals by name."""
        call = syntax.parent(arg)
        if isinstance(call, ast.keyword):
            call = syntax.parent(call)
        if not isinstance(call, ast.Call) or arg is call.func:
            return False
        t = self.target(call)
        if t is None or t.function is None or t.kind is CallKind.MAPPED:
            return False
        fn = t.function
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        params = syntax.positional_params(fn, bound=t.bound_self)
        name: str | None = None
        args = (*t.partial_args, *t.args)
        for i, a in enumerate(args):
            if isinstance(a, ast.Starred):
                break
            if a is arg:
                name = params[i] if i < len(params) else None
                break
        else:
            kw = dict((*t.partial_keywords, *t.keywords))
            name = next((k for k, v in kw.items() if v is arg), None)
            if name is not None and name not in syntax.all_params(fn):
                name = None  # it goes to `**kwargs`
        if name is None:
            return False
        read = self._reads.get((fn, name))
        if read is None:
            read = self._reads[fn, name] = _reads_name(fn, name)
        return not read

    def may_run(self, fn: ast.AST) -> set[ast.AST]:
        """The functions of this module whose bodies may run `fn`: `fn` itself and every
        function holding a resolved call of `fn` or of one of those, to a fixed point
        (`_loss_fn = jit(loss_fn)` calls run `loss_fn`; so does anything that calls them).
        Unresolved calls add nothing: a caller asking "can this call run `fn`?" stays
        silent when the answer depends on them (it gets no)."""
        reach = self._may_run.get(fn)
        if reach is not None:
            return reach
        callers_of = self._calling_functions
        reach = {fn}
        todo = [fn]
        while todo:
            cur = todo.pop()
            for caller in callers_of.get(cur, ()):
                if caller is not None and caller not in reach:
                    reach.add(caller)
                    todo.append(caller)
        self._may_run[fn] = reach
        return reach

    @cached_property
    def _calling_functions(self) -> dict[ast.AST, set[ast.AST | None]]:
        """Each def of this module -> the functions holding a resolved call of it (None:
        module level), built once for every `may_run` question."""
        out: dict[ast.AST, set[ast.AST | None]] = {}
        for t in self.all.values():
            if t.function is not None:
                out.setdefault(t.function, set()).add(self.index.enclosing_function(t.call))
        return out

    def instance_class(self, expr: ast.AST, _levels: int = 0) -> ast.ClassDef | None:
        """The class of this module `expr` is an instance of: `Cls(...)`, a name bound once to
        `Cls(...)`, `self` in a method, or `self.attr` / `self.attr.sub` assigned once from a
        constructor (in the class, then in the attribute's class)."""
        if isinstance(expr, ast.Call):
            return self.class_named(expr.func)
        if isinstance(expr, ast.Name):
            if expr.id == "self":
                return self._enclosing_class(expr)
            b = self.index.binding(expr.id, self.index.scope_of(expr))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                return self.class_named(b.value.func)
            if b is not None and b.kind == "param" and isinstance(b.node, ast.arg):
                return self._annotated_class(b.node.annotation)
            return None
        if isinstance(expr, ast.Attribute) and _levels < _MAX_ATTRIBUTE_LEVELS:
            owner = self.instance_class(expr.value, _levels + 1)
            if owner is None:
                return None
            values = self.self_assignments(owner).get(expr.attr, [])
            if len(values) == 1 and isinstance(values[0], ast.Call):
                return self.class_named(values[0].func)
            if len(values) == 1 and isinstance(values[0], ast.Name) and values[0].id != "self":
                # `self.learner = learner` from `__init__(self, learner: Learner)`
                return self.instance_class(values[0], _levels + 1)
        return None

    def _annotated_class(self, annotation: ast.expr | None) -> ast.ClassDef | None:
        """The class of this module a parameter annotation names: `Learner`, `Learner | None`
        or `Optional[Learner]` (a value annotated with a class is an instance of it, or of a
        subclass, which the call graph treats the same: it resolves methods through the
        class's own body). A string annotation, a generic or anything else: None."""
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            sides = [annotation.left, annotation.right]
            named = [a for a in sides if not (isinstance(a, ast.Constant) and a.value is None)]
            return self.class_named(named[0]) if len(named) == 1 else None
        if (
            isinstance(annotation, ast.Subscript)
            and (self.index.qualname(annotation.value) or "") == "typing.Optional"
        ):
            return self.class_named(annotation.slice)
        return self.class_named(annotation) if annotation is not None else None

    def in_place_method(self, call: ast.Call) -> bool:
        """`call` runs a method of a class of this module whose body returns no value: it
        works by changing its object, so its result is None by construction, not an update
        someone dropped (v38 Robot-Trains-Robot `finetuning/abppo.py:430`: a learner's own
        `replace(index=...)`, JAX504 x2, tuning material)."""
        t = self.target(call)
        if t is None or t.kind is not CallKind.METHOD or t.function is None:
            return False
        return all(r.value is None for r in syntax.own_returns(t.function))

    # -- resolution --------------------------------------------------------------------
    def _resolve(self, call: ast.Call) -> CallTarget | None:
        func = call.func
        index = self.index
        args = tuple(call.args)
        kws = tuple((kw.arg, kw.value) for kw in call.keywords if kw.arg)
        if isinstance(func, ast.Call):
            inner_q = index.qualname(func.func)
            if self._is_transform(inner_q) and inner_q is not None:
                fn_args = function_args(func, self.transforms.fn_spec(inner_q))
                fn = index.resolve_function(fn_args[0]) if fn_args else None
                if fn is not None:
                    return CallTarget(
                        CallKind.TRANSFORMED,
                        call,
                        fn,
                        None,
                        isinstance(fn_args[0], ast.Attribute),
                        args,
                        kws,
                        transform=inner_q,
                    )
                return None
            if inner_q in PARTIAL:
                return self._partial(call, func, through_name=False)
            return self._instance_call(call, func)
        q = index.qualname(func)
        if q in TREE_MAP and call.args:
            fn = index.resolve_function(call.args[0])
            if fn is not None:
                return CallTarget(
                    CallKind.MAPPED,
                    call,
                    fn,
                    None,
                    isinstance(call.args[0], ast.Attribute),
                    args[1:],
                    (),
                )
            return None
        fn = index.resolve_function(func)
        if fn is not None:
            kind = CallKind.METHOD if isinstance(func, ast.Attribute) else CallKind.FUNCTION
            return CallTarget(kind, call, fn, None, kind is CallKind.METHOD, args, kws)
        if isinstance(func, ast.Name):
            b = index.binding(func.id, index.scope_of(func))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                made = b.value
                inner_q = index.qualname(made.func)
                if self._is_transform(inner_q) and inner_q is not None:
                    fn_args = function_args(made, self.transforms.fn_spec(inner_q))
                    fn = index.resolve_function(fn_args[0]) if fn_args else None
                    if fn is None:
                        return None
                    bound = isinstance(fn_args[0], ast.Attribute)
                    return CallTarget(
                        CallKind.TRANSFORMED,
                        call,
                        fn,
                        None,
                        bound,
                        args,
                        kws,
                        transform=inner_q,
                        through_name=True,
                    )
                if inner_q in PARTIAL:
                    return self._partial(call, made, through_name=True)
                factory = self.transforms._factory_app(made.func)
                if factory is not None:
                    pos = factory[0][0]  # `g = apply(f)`, `apply` a jit factory of this module
                    fn = (
                        index.resolve_function(made.args[pos])
                        if 0 <= pos < len(made.args)
                        else None
                    )
                    if fn is not None:
                        return CallTarget(
                            CallKind.TRANSFORMED,
                            call,
                            fn,
                            None,
                            False,
                            args,
                            kws,
                            through_name=True,
                        )
                    return None
            elif b is not None and b.kind == "class" and isinstance(b.node, ast.ClassDef):
                init = _method(b.node, "__init__")
                if init is not None:
                    return CallTarget(CallKind.CONSTRUCTOR, call, init, None, True, args, kws)
                return None
        found = self._instance_call(call, func)
        if found is not None:
            return found
        if q is not None:
            return CallTarget(CallKind.EXTERNAL, call, None, q, False, args, kws)
        return None

    def _is_transform(self, q: str | None) -> bool:
        return q in _SAME_CALL_WRAPPERS or self.transforms.classify(q) in ("jit", "grad")

    def _partial(self, call: ast.Call, made: ast.Call, *, through_name: bool) -> CallTarget | None:
        """`partial(f, a, k=v)(x)`: `f` gets `a, x` and `k=v` plus the call's keywords."""
        if not made.args or isinstance(made.args[0], ast.Starred):
            return None
        fn = self.index.resolve_function(made.args[0])
        if fn is None:
            return None
        bound_args = tuple(made.args[1:])
        bound_kws = tuple((kw.arg, kw.value) for kw in made.keywords if kw.arg)
        if any(kw.arg is None for kw in made.keywords):
            return None  # `partial(f, **opts)`: which parameters are bound is unknown
        return CallTarget(
            CallKind.PARTIAL,
            call,
            fn,
            None,
            isinstance(made.args[0], ast.Attribute),
            (*bound_args, *call.args),
            (*bound_kws, *((kw.arg, kw.value) for kw in call.keywords if kw.arg)),
            partial_args=bound_args,
            partial_keywords=bound_kws,
            through_name=through_name,
        )

    def _instance_call(self, call: ast.Call, func: ast.AST) -> CallTarget | None:
        """`inst(x)` (the class's `__call__`) or `inst.m(x)` (a method of its class)."""
        args = tuple(call.args)
        kws = tuple((kw.arg, kw.value) for kw in call.keywords if kw.arg)
        if isinstance(func, ast.Name) and func.id == "self":
            return None  # `self(x)` inside the class: not resolved (as before)
        cls = self.instance_class(func)
        if cls is not None:
            if self.transforms.module_library(cls) is None and not self.transforms.is_plain_class(
                cls
            ):
                return None
            fn = _method(cls, "__call__")
            if fn is None:
                return None
            return CallTarget(CallKind.MODULE_CALL, call, fn, None, True, args, kws)
        if isinstance(func, ast.Attribute) and not (
            isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")
        ):
            owner = self.instance_class(func.value)
            fn = _method(owner, func.attr) if owner is not None else None
            if fn is not None:
                return CallTarget(CallKind.METHOD, call, fn, None, True, args, kws)
        return None

    def class_named(self, expr: ast.AST) -> ast.ClassDef | None:
        """The class of this module that the name `expr` is bound to, or None."""
        if not isinstance(expr, ast.Name):
            return None
        b = self.index.binding(expr.id, self.index.scope_of(expr))
        if b is None or b.kind != "class" or not isinstance(b.node, ast.ClassDef):
            return None
        return b.node

    def _enclosing_class(self, node: ast.AST) -> ast.ClassDef | None:
        scope: Scope | None = self.index.scope_of(node)
        while scope is not None and scope.kind != "class":
            scope = scope.parent
        if scope is None or not isinstance(scope.node, ast.ClassDef):
            return None
        return scope.node

    def self_assignments(self, cls: ast.ClassDef) -> dict[str, list[ast.expr | None]]:
        """`self.attr = value` assignments anywhere in the class (one walk per class)."""
        table = self._self_values.get(cls)
        if table is None:
            table = self._self_values[cls] = {}
            for node in _statements_breadth_first(cls):
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        if (
                            isinstance(t, ast.Attribute)
                            and isinstance(t.value, ast.Name)
                            and t.value.id == "self"
                        ):
                            table.setdefault(t.attr, []).append(node.value)
        return table


_LOCALS_READERS = frozenset({"locals", "vars", "eval", "exec"})


def _reads_name(fn: ast.AST, name: str) -> bool:
    """Some load of `name` anywhere in `fn` (nested defs and lambdas included: a closure
    reads the parameter too), or a call that can read locals by name (`locals()`)."""
    return syntax.mentions(fn, {name}) or any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _LOCALS_READERS
        for node in ast.walk(fn)
    )


def _statements_breadth_first(root: ast.AST) -> list[ast.AST]:
    """The statements under `root` (and itself), in `ast.walk` order: breadth first,
    children in field order. Expressions hold no statements, so they are not entered (a
    class's expressions are most of its nodes; `ast.walk` visited them all, once per class
    around them)."""
    out: list[ast.AST] = []
    todo = deque([root])
    fields_of = _STATEMENT_FIELDS
    while todo:
        node = todo.popleft()
        out.append(node)
        fields = fields_of.get(type(node))
        if fields is None:
            fields = fields_of[type(node)] = syntax.statement_fields(type(node))
        # only the fields that hold statements (`body`, `handlers`, `orelse`, `finalbody`,
        # `cases`: lists of statements, `except` and `case` clauses) hold what is kept here
        for attr in fields:
            value = getattr(node, attr, None)
            if value:
                todo.extend(value)
    return out


_STATEMENT_FIELDS: dict[type, tuple[str, ...]] = {}


def _method(cls: ast.ClassDef, name: str) -> ast.AST | None:
    """The def `name` in the class body (the last one, as at run time)."""
    found: ast.AST | None = None
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            found = stmt
    return found
