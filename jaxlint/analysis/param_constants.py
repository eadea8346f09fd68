"""Parameters every traced application binds to the same literal, and the branches on
them that never run under tracing.

`_press_rhs_jit = jax.jit(_press_rhs_core, static_argnames=("debug_tag",))`, called only as
`_press_rhs_jit(..., debug_tag=None)`: under jit `debug_tag` is None, so `if debug_tag is not
None:` (host prints, `float(...)`, NumPy) runs only on the eager path the module also has
(`_press_rhs_core(..., debug_tag="")` outside any trace). So does `if nofft:` in a `@jax.jit`
def whose default `nofft=False` no caller overrides. v17 rows, tuning material:
sososquirrel/SAMJax jsam/core/dynamics/pressure.py:151-155 and :1005-1008,
kevinlopezandrade/snapjax snapjax/dataloaders/ssm.py:23 (JAX101 x9).

The fact is proven from the module alone: every traced application of the function is a
visible call (a call of its jit alias, a call of a def that carries its own transform
decorator, or a direct call from a traced function), each passes the parameter as the same
literal or leaves it at its literal default, and the function is called from no other module
(the project index's `passed` entry). Anything else (the function escapes, a call passes a
name, `*args`, a stand-in call of a scan body) says nothing. Only the function's own
parameters are decided, and only until the function rebinds them (the taint analysis drops a
name it binds).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import JIT_TRACING_EVERY_ARGUMENT
from jaxlint.analysis.syntax import all_params, is_none_literal, positional_params

__all__ = ["constant_params", "decided_arms", "jit_flags", "literal_default", "not_none_argument"]

_MISSING = object()


def constant_params(
    index: ModuleIndex, fn: ast.AST, kinds: Any, traced: Any
) -> dict[str, ast.Constant]:
    """The parameters of `fn` that every traced application binds to one literal. `kinds`:
    the module's `ParamKinds` (`call_uses`: the calls a non-call use of `fn` makes JAX run;
    `passed_elsewhere`: another module calls `fn`); `traced`: its `TracedFunctions`
    (`current`: a function's row as the pipeline stands; `decorated`: `fn` carries a
    transform decorator, so every call of it is a traced application). A function that other
    modules' traced calls seeded takes the literals their seed carries (`bound_literals`)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    row = traced.current(fn)
    if row is not None and row.bound_literals:
        return {k: ast.Constant(value=v) for k, v in dict(row.bound_literals).items()}
    if kinds.passed_elsewhere(fn):
        return {}
    calls = _traced_calls(index, fn, kinds.call_uses, traced.current, traced.decorated(fn))
    if not calls:
        return {}
    positional = positional_params(fn)
    out: dict[str, ast.Constant] = {}
    starred = {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    for name in all_params(fn):
        if name in starred:
            continue
        found: ast.Constant | None = None
        for call, bound in calls:
            value = _passed(call, bound, positional, name)
            if value is _MISSING:
                value = literal_default(fn, name)
            if not isinstance(value, ast.Constant) or (
                found is not None and not _same(found, value)
            ):
                found = None
                break
            found = value
        if found is not None:
            out[name] = found
    return out


def _same(a: ast.Constant, b: ast.Constant) -> bool:
    return type(a.value) is type(b.value) and a.value == b.value


def _traced_calls(
    index: ModuleIndex,
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    uses: Callable[[ast.expr], list[tuple[ast.Call, int]] | None],
    traced: Callable[[ast.AST], Any],
    own: bool,
) -> list[tuple[ast.Call, int]] | None:
    out: list[tuple[ast.Call, int]] = []
    for ref in index.names.get(fn.name, ()):
        if not isinstance(ref.ctx, ast.Load) or index.resolve_function(ref) is not fn:
            continue
        parent = getattr(ref, "jl_parent", None)
        if isinstance(parent, ast.Call) and parent.func is ref:
            caller = index.enclosing_function(parent)
            if own or (caller is not None and traced(caller) is not None):
                out.append((parent, 0))
            continue  # an eager call: not a traced application
        sites = uses(ref)
        if sites is None:
            return None  # the function escapes: applications nobody here can see
        for call, bound in sites:
            if getattr(call, "jl_parent", None) is None:
                return None  # a stand-in for the call JAX makes (a scan body's): no literals
            out.append((call, bound))
    return out


def _passed(call: ast.Call, bound: int, positional: list[str], name: str) -> object:
    """What `call` passes for `name`: the expression, `_MISSING` when it leaves it out, None
    when that cannot be known (`*args`, `**kwargs`)."""
    for kw in call.keywords:
        if kw.arg is None:
            return None
        if kw.arg == name:
            return kw.value
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if name in positional:
        i = positional.index(name) - bound
        if 0 <= i < len(call.args):
            return call.args[i]
    return _MISSING


def literal_default(fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> ast.Constant | None:
    """The default of parameter `name` of `fn` when it is a literal (`None`, `50`, `"a"`)."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    for a, d in pairs:
        if a.arg == name and isinstance(d, ast.Constant):
            return d
    return None


def jit_flags(index: ModuleIndex, transforms: Any, fn: ast.AST) -> frozenset[str]:
    """The parameters of a def that `jax.jit` decorates whose truth is False in every call
    that does not raise: not static, a default of `False`, `0` or `0.0`, never rebound.

    A caller that passes such a parameter hands jit a Python bool or number, which jit
    traces, and `if flag:` on the tracer raises TracerBoolConversionError; left out, the
    parameter is its default. So `if stochastic:` in `@jax.jit def act(self, obs, seed,
    stochastic=False)` never runs its body (v34 jinnessism/FlowMARL
    agents/discrete_macflow.py:209-222: a second draw from `action_seed` only there). Only a
    def whose one decorator is `jax.jit` or `pjit` (then every call of it is traced; a
    `jit(f)` alias leaves `f`'s plain calls eager): `eqx.filter_jit` and `nnx.jit` keep a
    Python bool static, and a `None` default may be given a pytree object, which is true."""
    decorators = getattr(fn, "decorator_list", None)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(decorators or ()) != 1:
        return frozenset()
    app = transforms.application(fn.decorator_list[0])
    if app is None or app.qualname not in JIT_TRACING_EVERY_ARGUMENT or app.unknown_static:
        return frozenset()
    positional = positional_params(fn)
    static = set(app.static_names)
    static.update(positional[i] for i in app.static_positions if 0 <= i < len(positional))
    flags = {
        name
        for name in all_params(fn)
        if name not in static
        and (d := literal_default(fn, name)) is not None
        and type(d.value) in (bool, int, float)
        and not d.value
    }
    return frozenset(f for f in flags if not _rebound(index, fn, f))


def _rebound(index: ModuleIndex, fn: ast.AST, name: str) -> bool:
    """`fn` binds `name` other than as its parameter (an import, a `for` target, ...), or it
    or a def inside it stores or deletes it (conservatively: a nested def's own local too)."""
    inside = index.scopes[fn]
    if any(b.kind != "param" for b in inside.bindings.get(name, ())):
        return True
    return any(not isinstance(r.ctx, ast.Load) for r in index.names_in(name, inside, nested=True))


def decided_arms(
    test: ast.AST,
    constants: dict[str, ast.Constant],
    not_none: set[str],
    false_flags: frozenset[str] = frozenset(),
) -> tuple[bool, bool]:
    """(body, else) that never run under tracing, decided by parameters whose value every
    traced application fixes: `if p is None:` / `if p is not None:` on a parameter bound to
    None or to a value (`not_none`), `if p:` / `if not p:` / `if p == "lit":` on one bound
    to a literal, and
    `if p:` / `if p and q:` / `if not p:` on a jit flag that is false in every call that does
    not raise (`false_flags`, `jit_flags`)."""
    negate = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negate = test.operand, not negate
    truth: bool | None = None
    if false_flags and _false_by_flags(test, false_flags):
        truth = False
    elif (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and isinstance(test.ops[0], (ast.Is, ast.IsNot))
        and is_none_literal(test.comparators[0])
    ):
        name = test.left.id
        if name in constants:
            truth = constants[name].value is None
        elif name in not_none:
            truth = False
        if truth is not None and isinstance(test.ops[0], ast.IsNot):
            truth = not truth
    elif isinstance(test, ast.Name) and test.id in constants:
        truth = bool(constants[test.id].value)
    elif (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
        and isinstance(test.left, ast.Name)
        and test.left.id in constants
        and isinstance(test.comparators[0], ast.Constant)
        and _same_kind(constants[test.left.id].value, test.comparators[0].value)
    ):
        # `if backend == "cpu":` on a parameter every traced application leaves at "jax"
        truth = constants[test.left.id].value == test.comparators[0].value
        if isinstance(test.ops[0], ast.NotEq):
            truth = not truth
    if truth is None:
        return False, False
    if negate:
        truth = not truth
    return not truth, truth


def _same_kind(a: object, b: object) -> bool:
    """Two literals `==` compares by value as written: both strings, or both numbers (not
    bools, not None: `p == None` is a different question)."""
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str)
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))


def _false_by_flags(test: ast.AST, flags: frozenset[str]) -> bool:
    """`flag`, or an `and` with such an operand: false whatever the other operands are."""
    if isinstance(test, ast.Name):
        return test.id in flags
    return (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.And)
        and any(_false_by_flags(v, flags) for v in test.values)
    )


def not_none_argument(
    index: ModuleIndex, arg: ast.expr, caller: ast.AST | None, caller_not_none: set[str]
) -> bool:
    """`arg`, passed to a traced helper, holds a value that is not None as far as the module
    shows: not the None literal nor `a if c else None`, and, for a name, bound to None nowhere
    in its scope and no parameter with a None default (unless it is a parameter of `caller`
    that every traced application binds to a value, `caller_not_none`). A required parameter
    handed on (`structure` from `_bucket_score(..., structure)` to `moment_score_one` to
    `jax_equivalent_gaussian(params, structure=None)`) counts as a value: `if structure is
    None:` there is the eager path (v38 momemura moment_scorer.py:176, JAX101 x6, tuning
    material)."""
    if is_none_literal(arg):
        return False
    if isinstance(arg, ast.IfExp):
        return not (is_none_literal(arg.body) or is_none_literal(arg.orelse))
    if not isinstance(arg, ast.Name):
        return True
    scope: Any = index.scope_of(arg)
    while scope is not None and arg.id not in scope.bindings:
        scope = scope.parent
    if scope is None:
        return True
    for b in scope.bindings[arg.id]:
        if b.kind == "assign" and (b.value is None or is_none_literal(b.value)):
            return False  # `x = None` (or an unpacking nobody here reads)
        if b.kind == "param" and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            default = literal_default(scope.node, arg.id)
            if default is not None and default.value is None:
                if scope.node is not caller or arg.id not in caller_not_none:
                    return False
    return True
