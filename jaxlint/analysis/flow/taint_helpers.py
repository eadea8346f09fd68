"""Helper summaries: what a traced function's calls make of the same-module helpers they call.

A helper called from a traced function with traced arguments is traced too (medium
confidence); its parameters get the levels of the arguments, the message names the chain of
callers, and the helper is re-analysed when what reaches it grows. Also here: which function a
call of a flax/equinox Module instance runs (its `__call__`), and which parameters of a
Module's `__call__` its own body uses as sizes.

Why a module of its own: this is the interprocedural half of the taint analysis; the
transfer functions (`flow/taint.py`) call `_propagate` at every call and know nothing else of
it. It still records the helpers in the transforms table (`Transforms.facts`), as before the
split; giving the summaries their own table is ARCHITECTURE.md §5.1 step 9.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import (
    GRAD_LIKE,
    JAX_ARRAY_MODULES,
    JIT_LIKE,
    SHAPE_FIRST,
    SHAPE_KEYWORDS,
    SHAPE_SECOND,
    TREE_MAP,
)
from jaxlint.analysis.kinds import ParamKinds, ValueKind
from jaxlint.analysis.syntax import is_none_literal, positional_params
from jaxlint.analysis.transforms import FunctionFacts, Transforms, function_name

_PYTHON = (ValueKind.STATIC, ValueKind.CALLABLE)
# a call of a helper: (the function that runs, its positional argument nodes, its keyword
# argument nodes, whether the first parameter is a bound `self`)
HelperCall = tuple[ast.AST, list[ast.expr], dict[str, ast.expr], bool]


class HelperSummaries:
    """Mixin of `TaintAnalysis`: propagation of traced arguments into helpers."""

    index: ModuleIndex
    transforms: Transforms
    facts: dict[ast.AST, FunctionFacts]
    param_levels: dict[ast.AST, dict[str, Level]]
    closure_env: dict[ast.AST, dict[str, Level]]
    mask_params: dict[ast.AST, dict[str, bool]]
    _callers: dict[ast.AST, set[ast.AST]]
    _self_values: dict[ast.AST, dict[str, list]]
    _changed: set[ast.AST]
    _current: ast.AST | None
    kinds: ParamKinds

    def level(self, node: ast.AST) -> Level:  # pragma: no cover - TaintQueries.level
        raise NotImplementedError

    def is_bool_mask(self, node: ast.AST, _depth: int = 0) -> bool:  # pragma: no cover
        raise NotImplementedError

    def module_call_target(self, func: ast.AST) -> ast.AST | None:
        """The `__call__` a call of a Module instance runs: `Block(...)(x)`, `blk(x)` with
        `blk = Block(...)`, or `self.blk(x)` with `self.blk = Block(...)` in a method
        (`setup`), for a flax/equinox Module class of this module, or for a plain class
        (no bases) of this module."""
        cls_expr: ast.AST | None = None
        if isinstance(func, ast.Call):
            cls_expr = func.func
        elif isinstance(func, ast.Name):
            b = self.index.binding(func.id, self.index.scope_of(func))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                cls_expr = b.value.func
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        ):
            cls_expr = self._self_module(func)
        if not isinstance(cls_expr, ast.Name):
            return None
        b = self.index.binding(cls_expr.id, self.index.scope_of(cls_expr))
        if b is None or b.kind != "class" or not isinstance(b.node, ast.ClassDef):
            return None
        cls = b.node
        framework = self.transforms.module_library(cls) is not None
        if not framework and not self.transforms.is_plain_class(cls):
            return None
        for stmt in cls.body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == "__call__"
            ):
                # a Module's __call__ is traced when applied; a plain class's (no bases) is a
                # helper like any other: it sees what this call passes
                return stmt if not framework or stmt in self.facts else None
        return None

    def _self_module(self, func: ast.Attribute) -> ast.AST | None:
        """`self.attr = Cls(...)` (the only assignment of `self.attr` in the class): `Cls`."""
        scope = self.index.scope_of(func)
        while scope is not None and scope.kind != "class":
            scope = scope.parent
        if scope is None:
            return None
        table = self._self_values.get(scope.node)
        if table is None:  # one walk per class: `self.attr = value` assignments
            table = self._self_values[scope.node] = {}
            for node in ast.walk(scope.node):
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        if (
                            isinstance(t, ast.Attribute)
                            and isinstance(t.value, ast.Name)
                            and t.value.id == "self"
                        ):
                            table.setdefault(t.attr, []).append(node.value)
        values = table.get(func.attr, [])
        if len(values) == 1 and isinstance(values[0], ast.Call):
            return values[0].func
        return None

    def _submodule_calls(self) -> set[ast.AST]:
        """`__call__`s of Modules that another Module method of this file applies."""
        out: set[ast.AST] = set()
        if not any(f.via.endswith("Module.__call__") for f in self.facts.values()):
            return out  # no Module methods here: nothing to look for
        for call in self.index.calls:
            if isinstance(call.func, ast.Attribute) and call.func.attr in ("apply", "init"):
                continue
            target = self.module_call_target(call.func)
            if target is None:
                continue
            caller = self.facts.get(self.index.enclosing_function(call))
            if caller is not None and caller.via.endswith("Module.__call__"):
                out.add(target)
        return out

    def _concrete_params(self, fn: ast.AST, names: set[str]) -> set[str]:
        """Parameters `fn`'s own body uses as a size: `range(n)`, a shape or size parameter of a
        jax or NumPy function (`np.arange(qlen)`), a slice bound, or compared with a `.shape`."""
        out: set[str] = set()
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Name) and node.id in names and node.id not in out):
                continue
            if self.index.enclosing_function(node) is not fn:
                continue
            use: ast.AST = node
            parent = syntax.parent(node)
            if isinstance(parent, ast.Subscript) and parent.value is node:
                use, parent = parent, syntax.parent(parent)  # out_shape[-1]
            if isinstance(parent, ast.Slice):
                out.add(node.id)
            elif (
                isinstance(parent, ast.BinOp)
                and isinstance(parent.op, ast.Add)
                and any(o is not use and _is_shape_tuple(o) for o in (parent.left, parent.right))
            ):
                out.add(node.id)  # `batch_shape + param.shape`: a tuple concatenation
            elif isinstance(parent, ast.Compare):
                others = [parent.left, *parent.comparators]
                if any(o is not use and _is_shape_read(o) for o in others):
                    out.add(node.id)
            elif isinstance(parent, (ast.Call, ast.keyword)):
                call = parent if isinstance(parent, ast.Call) else syntax.parent(parent)
                if not isinstance(call, ast.Call) or call.func is use:
                    continue
                q = self.index.qualname(call.func) or ""
                short = q.rsplit(".", 1)[-1]
                pos = next((i for i, a in enumerate(call.args) if a is use), -1)
                # a size or shape (a conversion like `np.tanh(x)` is the bug, not evidence)
                array_fn = q.startswith((*JAX_ARRAY_MODULES, "numpy."))
                if isinstance(parent, ast.keyword):
                    shape_use = array_fn and parent.arg in SHAPE_KEYWORDS
                else:
                    shape_use = array_fn and (
                        (short in SHAPE_FIRST and pos == 0) or (short in SHAPE_SECOND and pos == 1)
                    )
                if shape_use or q == "range":
                    out.add(node.id)
        return out

    def _closes_over_traced(self, fn: ast.AST) -> bool:
        return any(v >= Level.TREE for v in self.closure_env.get(fn, {}).values())

    # -- propagation into helpers --------------------------------------------------------
    def _propagate(self, node: ast.Call, q: str | None, env: dict[str, Level]) -> None:
        """A call in the function being analysed: hand the levels of its arguments to the
        helper it calls, and make the helper traced if it was not."""
        caller = self.facts.get(self._current)
        if caller is None or caller.kind == "host":
            return
        found = self._helper_call(node, q)
        if found is None:
            return
        target, arg_nodes, kw_nodes, strip_self = found
        self._narrow_not_none(node, target, arg_nodes, kw_nodes, strip_self)
        levels = [self.level(a) for a in arg_nodes]
        strongest = max([*levels, *(self.level(v) for v in kw_nodes.values()), Level.NONE])
        if strongest < Level.CONTAINER:
            # a nested function of this traced function runs on its tracers when called
            if not (
                self.index.enclosing_function(target) is self._current
                and self._closes_over_traced(target)
            ):
                return
        params = positional_params(target, bound=strip_self)  # `self` takes no argument
        incoming: dict[str, Level] = {}
        for name, a, lv in zip(params, arg_nodes, levels):
            if isinstance(a, ast.Starred):
                break
            incoming[name] = lv
        for name, v in kw_nodes.items():
            incoming[name] = self.level(v)
        for name, lv in list(incoming.items()):
            if lv == Level.CONTAINER:  # a list/dict of tracers is a pytree of tracers there
                incoming[name] = Level.TREE
            if lv > Level.NONE and self.kinds.helper_param(target, name) in _PYTHON:
                del incoming[name]  # declared a Python value (`n: int`, `mode: str | None`)
        masks = self.mask_params.setdefault(target, {})
        for name, a in [*zip(params, arg_nodes), *kw_nodes.items()]:
            if isinstance(a, ast.Starred):
                break
            masks[name] = masks.get(name, True) and self.is_bool_mask(a)
        self._summarize(caller, target, incoming)

    def _helper_call(self, node: ast.Call, q: str | None) -> HelperCall | None:
        """The helper a call runs, with the arguments it gets: `helper(x)`, `jax.grad(loss)(p)`,
        `jax.tree.map(f, tree)`, `g(p)` with `g = jax.grad(loss)`, or a submodule applied."""
        func = node.func
        target: ast.AST | None = None
        fexpr: ast.AST = func  # the expression naming the function that runs
        arg_nodes: list[ast.expr] = list(node.args)
        kw_nodes = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        if isinstance(func, ast.Call):  # jax.grad(loss)(params, batch)
            inner_q = self.index.qualname(func.func)
            if (inner_q in GRAD_LIKE or inner_q in JIT_LIKE) and func.args:
                fexpr = func.args[0]
                target = self.index.resolve_function(fexpr)
        elif q in TREE_MAP and node.args:
            fexpr = node.args[0]
            target = self.index.resolve_function(fexpr)
            arg_nodes = list(node.args[1:])
            kw_nodes = {}
        else:
            target = self.index.resolve_function(func)
            if target is None and isinstance(func, ast.Name):
                b = self.index.binding(func.id, self.index.scope_of(func))
                if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                    inner_q = self.index.qualname(b.value.func)
                    if (inner_q in GRAD_LIKE) and b.value.args:
                        fexpr = b.value.args[0]
                        target = self.index.resolve_function(fexpr)
        module_call = False
        if target is None:
            target = self.module_call_target(func)  # a submodule applied: its __call__ runs
            module_call = target is not None
        if target is None or target in self.transforms.host or target is self._current:
            return None
        strip_self = isinstance(fexpr, ast.Attribute) or module_call
        return target, arg_nodes, kw_nodes, strip_self

    def _narrow_not_none(
        self,
        node: ast.Call,
        target: ast.AST,
        arg_nodes: list[ast.expr],
        kw_nodes: dict[str, ast.expr],
        strip_self: bool,
    ) -> None:
        """Parameters every traced application binds to a value: traced here too, only what
        this call passes (not None) stays bound."""
        bound_facts = self.facts.get(target)
        if bound_facts is None or not bound_facts.not_none:
            return
        if any(isinstance(a, ast.Starred) for a in arg_nodes) or any(
            kw.arg is None for kw in node.keywords
        ):
            passed: set[str] = set()
        else:
            names = positional_params(target, bound=strip_self)
            passed = {n for n, a in zip(names, arg_nodes) if not is_none_literal(a)}
            passed |= {n for n, v in kw_nodes.items() if not is_none_literal(v)}
        if not bound_facts.not_none <= passed:
            bound_facts.not_none &= passed
            self._changed.add(target)

    def _summarize(
        self, caller: FunctionFacts, target: ast.AST, incoming: dict[str, Level]
    ) -> None:
        """Record what reaches `target` from this call: its traced parameters, its facts (a
        new helper gets the caller's transform and the chain), and this caller to re-analyse
        when `target`'s return level grows."""
        existing = self.facts.get(target)
        known = self.param_levels.setdefault(target, {})
        if existing is not None and existing.chain == () and existing.confidence == "high":
            if caller.kind == "jit" and existing.kind == "grad":
                # `jax.grad(loss)(...)` inside a jitted step: the primals are abstract too,
                # the non-differentiated arguments included
                existing.kind = "jit"
                existing.chain = (*(caller.chain or (caller.name,)), function_name(target))
                existing.via = caller.via
                self._changed.add(target)
            if existing.kind == "jit" and existing.chain:
                for name, lv in incoming.items():
                    if lv >= Level.TREE and lv > known.get(name, Level.NONE):
                        known[name] = lv
                        existing.traced_params.add(name)
                        self._changed.add(target)
                self._callers.setdefault(target, set()).add(self._current)  # type: ignore[arg-type]
            return  # otherwise a transform of its own decides what is static
        grew = False
        for name, lv in incoming.items():
            if lv >= Level.TREE and lv > known.get(name, Level.NONE):
                known[name] = lv
                grew = True
        self._callers.setdefault(target, set()).add(self._current)  # type: ignore[arg-type]
        if existing is None:
            chain = caller.chain or (caller.name,)
            self.facts[target] = FunctionFacts(
                target,
                caller.kind,
                caller.via,
                {n for n, lv in known.items() if lv >= Level.TREE},
                confidence="medium",
                chain=(*chain, function_name(target)),
                unknown_static=caller.unknown_static,
            )
            grew = True
        else:
            if caller.kind == "jit" and existing.kind == "grad":
                existing.kind = "jit"
                grew = True
            existing.traced_params |= {n for n, lv in known.items() if lv >= Level.TREE}
        if grew:
            self._changed.add(target)


def _is_shape_read(node: ast.AST) -> bool:
    """`x.shape`, `x.shape[-1]`, `x.ndim`, `len(x)`."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr in ("shape", "ndim", "size")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _is_shape_tuple(node: ast.AST) -> bool:
    """`x.shape` or a tuple display: what `+` concatenates only to a tuple."""
    return isinstance(node, ast.Tuple) or (isinstance(node, ast.Attribute) and node.attr == "shape")
