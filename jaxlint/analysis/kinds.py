"""THE place where "traced" is decided: which parameters of a traced function hold arrays.

A tracing finding (JAX1xx) needs a *proven* array reached from a traced entry; a value of
unknown kind never fires in the default selection. The rest of the analysis feeds this module
and reads its answers:

- `analysis/transforms.py` says which functions JAX transforms and which parameters the
  transform leaves static (`static_argnums`, `in_axes=None`, `partial`): the *input*;
- this module turns that into parameter kinds (`ParamKinds.entry`) with the evidence JAX
  itself gives: a parameter JAX turns into a tracer is ARRAY unless its annotation, its
  default or a library fact says it is a Python value; a parameter of a helper is what its
  resolved traced call sites pass (`ParamKinds.helper_param`), decided by annotation first;
- `analysis/flow/taint.py` propagates the kinds through expressions (its `Level` is the
  flow-sensitive encoding of ARRAY / CONTAINER / not proven) and `kind_of` reads it back as a
  `ValueKind` for rules and fixes.

Why one module: before, a parameter was "traced unless proven static", and three modules
edited that fact in place (review 3 §2.1); on 25 repositories nobody here had seen, 1 finding
in 82 was right. Library facts are data (`LIBRARY_FACTS`), one entry per fact, each with a
silent example and, where it makes sense, a twin that still fires (tests/test_kinds.py).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from jaxlint.analysis.annotations import (
    SCALARS,
    annotation_kind,
    array_annotated_fields,
    quoted_annotation,
)
from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.host_numpy import returns_host_numpy
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.library_facts import LIBRARY_FACTS, LibraryFact, ValueKind, join, level_of
from jaxlint.analysis.param_constants import literal_default
from jaxlint.analysis.syntax import own_returns, parent, positional_params, walk

__all__ = [
    "LIBRARY_FACTS",
    "LibraryFact",
    "ParamKinds",
    "ValueKind",
    "annotation_kind",
    "join",
    "level_of",
    "returns_static",
    "static_result",
    "static_functions",
]


# the methods of `jax.Array`: on a pytree argument of unknown type, only these prove an array
# result (`layer.input_structure()` on a penzai layer is whatever the method returns)
ARRAY_METHODS = frozenset(
    """all any argmax argmin argpartition argsort astype choose clip compress conj conjugate
    copy cumprod cumsum cummax cummin diagonal dot flatten max mean min nonzero prod ptp ravel
    repeat reshape round searchsorted sort squeeze std sum swapaxes take trace transpose var
    view block_until_ready addressable_data __getitem__ __add__ __mul__""".split()
)

# `isinstance(x, T)` with these T holds only for concrete values (a tracer is none of them)
# Attributes every tracer has: `hasattr(x, "shape")` failing proves `x` is no tracer (optax
# `check_shapes_equal`: `a.shape if hasattr(a, "shape") else np.asarray(a).shape`).
TRACER_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "aval"})


# Attributes no tracer has (jit, vmap, grad and scan tracers of JAX 0.10.2 and 0.12.1:
# `hasattr` is False on each; a concrete `jax.Array` has all but the two removed buffer
# accessors, which JAX arrays of before 0.4.3x had): where `hasattr(x, "device_buffer")`
# holds, `x` is concrete (v33 vlaft experimental/train_opt.py:113, `int(jax.device_get(step))
# if hasattr(step, "device_buffer") else int(step)` inside a jitted step, JAX102).
CONCRETE_ARRAY_ATTRIBUTES = frozenset(
    {"device_buffer", "device_buffers", "copy_to_host_async", "block_until_ready", "_value"}
)


def tracer_attribute(args: list[ast.expr]) -> bool:
    """`hasattr(x, <this>)`'s second argument names an attribute every tracer has."""
    return _named_attribute(args, TRACER_ATTRIBUTES)


def concrete_attribute(args: list[ast.expr]) -> bool:
    """`hasattr(x, <this>)`'s second argument names an attribute no tracer has."""
    return _named_attribute(args, CONCRETE_ARRAY_ATTRIBUTES)


def _named_attribute(args: list[ast.expr], names: frozenset[str]) -> bool:
    return len(args) == 1 and isinstance(args[0], ast.Constant) and args[0].value in names


HOST_TYPES = frozenset(
    {
        "numpy.ndarray",
        "numpy.generic",
        "numpy.number",
        "numpy.integer",
        "numpy.floating",
        "numpy.bool_",
        "int",
        "float",
        "bool",
        "complex",
        "str",
        "bytes",
        "numbers.Number",
        "numbers.Real",
        "numbers.Integral",
        "numbers.Complex",
    }
)
# ... and with these T fails for every concrete Python value
ARRAY_TYPES = frozenset({"jax.Array", "jax.numpy.ndarray", "jax.core.Tracer"})
STATIC_ATTRIBUTES = frozenset(f.name for f in LIBRARY_FACTS if f.what == "attribute")
STATIC_METHODS = frozenset(f.name for f in LIBRARY_FACTS if f.what == "method")
APPLY_KEYWORDS = frozenset(f.name for f in LIBRARY_FACTS if f.what == "apply-keyword")

# -- parameter kinds ---------------------------------------------------------------------------

# lax control flow: how many positional arguments JAX passes to the function it is given
# (a defaulted parameter past them keeps its Python default)
_BODY_ARITY = {
    "jax.lax.scan": (0, 2),
    "jax.lax.fori_loop": (2, 2),
    "jax.lax.while_loop": (None, 1),  # both functions, one argument
    "jax.lax.map": (0, 1),
    "jax.lax.associative_scan": (0, 2),
}


class ParamKinds:
    """Kinds of the parameters of traced functions, from the transform, annotations,
    defaults and call sites (the one writer of a traced function's starting kinds)."""

    def __init__(
        self,
        index: ModuleIndex,
        array_value,  # noqa: ANN001 - (expr) -> bool
        passed: dict[str, tuple[int, frozenset[str]]] | None = None,
        filtered=None,  # noqa: ANN001 - (fn) -> bool: an equinox/nnx filter transform's
        passes_values=None,  # noqa: ANN001 - (fn) -> bool: one of PASS_VALUES_THROUGH
        scalar_value=None,  # noqa: ANN001 - (expr) -> bool: a Python int/float/bool
        jit_entry=None,  # noqa: ANN001 - (fn) -> bool: `jax.jit`/`pjit` applied to `fn`
    ) -> None:
        self.index = index
        # `filtered(fn)`: JAX reaches `fn` through a filter transform (`eqx.filter_vmap`,
        # `filter_jit`, nnx), which traces only the array leaves of what it is given
        self._filtered = filtered or (lambda fn: False)
        # of those, the transforms that hand every non-array argument through as it is
        # (`filter_jit`, `nnx.jit`: jax_api.PASS_VALUES_THROUGH), not loop bodies
        self._passes_values = passes_values or (lambda fn: False)
        # a Python scalar passed to a non-static parameter of a jit entry is traced there (a
        # weak-typed 0-d array): `sample_logits(logits, 0.5)` makes `temperature` a tracer
        self._scalar_value = scalar_value or (lambda node: False)
        self._jit_entry = jit_entry or (lambda fn: False)
        # top-level function -> what other modules pass it (project index: PassedArguments)
        self._passed = passed or {}
        # `array_value(expr)`: the expression, outside traced code, is a JAX array
        self._array_value = array_value
        self._calls: dict[ast.AST, list[ast.Call] | None] = {}

    def module_inputs(self, fn: ast.AST, traced: set[str]) -> set[str]:
        """Of a flax/nnx/equinox Module's `__call__` (not a transform: traced when the Module
        is applied under one), the parameters that hold arrays without more evidence: the
        first input (`x`), and those annotated as arrays. The others carry the call's Python
        configuration as often as data (`mode`, `step`, `decode`, `batch_shape`,
        `self.config.x` passed down): UNKNOWN until a traced caller passes an array."""
        params = [p for p in positional_params(fn, bound=True) if p in traced]
        first = params[0] if params else None
        used_as_array = _array_uses(fn, traced)
        return {
            p
            for p in traced
            if p == first or p in used_as_array or self.helper_param(fn, p) is ValueKind.ARRAY
        }

    def entry(self, fn: ast.AST, traced: set[str], *, direct: bool) -> dict[str, ValueKind]:
        """Kinds of the parameters a transform leaves non-static (`traced`). `direct`: JAX
        itself applies the transform to `fn` (jit/vmap/grad/scan body/...), so every
        non-static argument becomes a tracer; otherwise (a Module's `__call__`, a seed from
        another module) the transform's input is evidence only where the code agrees."""
        out: dict[str, ValueKind] = {}
        args = getattr(fn, "args", None)
        if args is None:
            return {p: ValueKind.ARRAY for p in traced}
        params = {a.arg: a for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        defaulted = _defaulted(fn)
        for name in traced:
            arg = params.get(name)
            kind = annotation_kind(self.index, arg.annotation if arg else None, entry=direct)
            if kind is ValueKind.STATIC or kind is ValueKind.CALLABLE:
                out[name] = ValueKind.STATIC
                continue
            if kind is ValueKind.ARRAY:
                out[name] = ValueKind.ARRAY
                continue
            # a filter transform that hands values through decides defaulted parameters too
            if direct and self._filtered(fn) and (self._passes_values(fn) or name not in defaulted):
                out[name] = self._filtered_kind(fn, name)
                continue
            if direct and name in defaulted:
                out[name] = self._defaulted_kind(fn, name)
                continue
            out[name] = ValueKind.ARRAY
        return out

    def _filtered_kind(self, fn: ast.AST, name: str) -> ValueKind:
        """A parameter of a filter transform (`eqx.filter_jit`, `filter_vmap`, `nnx.jit`):
        the transform traces the array leaves of what it is given and hands every other
        value through as it is, so the parameter holds a tracer only when an array is
        passed. ARRAY with evidence: every visible call passes an array, or the body uses
        it as one (`xs.shape`, `x.astype(...)`: `_array_uses`); STATIC when every visible
        call passes a Python value; otherwise UNKNOWN, not traced (`chunk` of `batched(model,
        xs, chunk)` called with 32 from a script the linter does not see: v14 tuning row
        mjx_fitted_iteration `mj_data_manager.py:36`, JAX120)."""
        if self._passed_static(fn, name):
            return ValueKind.STATIC
        if not self._passes_values(fn):
            return ValueKind.ARRAY  # `nnx.scan`'s carry and slices: arrays by construction
        if self._proven_array(fn, name) or _array_uses(fn, {name}):
            return ValueKind.ARRAY
        if _annotated_array_module(self.index, fn, name):
            return ValueKind.ARRAY  # `m: Scale`, an equinox Module with a `w: jax.Array` leaf
        return ValueKind.UNKNOWN

    def _passed_static(self, fn: ast.AST, name: str) -> bool:
        """Every visible call of `fn` passes `name` a proven Python value (a filter transform
        hands those through untraced: flowjax's `_get_idxs(keys, idxs, batch_size, n)` under
        `eqx.filter_vmap`, with `batch_size: int` from `x.shape[0]`)."""
        calls = self._call_sites(fn)
        if not calls:
            return False
        params = positional_params(fn)
        pos = params.index(name) if name in params else None
        default = literal_default(fn, name)  # type: ignore[arg-type]
        for call, bound in calls:
            if any(kw.arg is None for kw in call.keywords):
                return False  # `**kwargs`: may pass it
            value = next((kw.value for kw in call.keywords if kw.arg == name), None)
            if value is None and pos is not None and 0 <= pos - bound < len(call.args):
                if any(isinstance(a, ast.Starred) for a in call.args[: pos - bound + 1]):
                    return False
                value = call.args[pos - bound]
            if value is None and default is not None:
                continue  # left at its default, a Python value (`num_steps=None`)
            if value is None or not self.static_value(value):
                return False
        return True

    def static_value(self, node: ast.AST, depth: int = 0) -> bool:
        """`node` (outside the traced function) is proven a Python value: metadata and
        literals (`x.shape[0]`, `len(x)`, `3`), a name bound only to such, or a parameter
        declared a Python value (`batch_size: int`) of a plain function that is only ever
        called (no transform of its own makes it a tracer)."""
        if depth > 3:
            return False
        if _static_expr(node):
            return True
        if not isinstance(node, ast.Name):
            return False
        found = self.index.lookup(node.id, self.index.scope_of(node))
        if not found:
            return False
        for b in found:
            if b.kind == "assign" and b.value is not None:
                if not self.static_value(b.value, depth + 1):
                    return False
            elif b.kind == "param" and isinstance(b.node, ast.arg):
                owner = _owner(b.node)
                if owner is None or not self._plain_helper(owner):
                    return False
                if annotation_kind(self.index, b.node.annotation) is not ValueKind.STATIC:
                    return False
            else:
                return False
        return True

    def _plain_helper(self, fn: ast.AST) -> bool:
        """An undecorated def whose every use in the module is a direct call."""
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.decorator_list:
            return False
        for ref in self.index.names.get(fn.name, ()):
            if not isinstance(ref.ctx, ast.Load) or self.index.resolve_function(ref) is not fn:
                continue
            up = getattr(ref, "jl_parent", None)
            if not (isinstance(up, ast.Call) and up.func is ref):
                return False
        return True

    def entry_levels(self, fn: ast.AST, traced: set[str], *, direct: bool) -> dict[str, Level]:
        """`entry` as starting taint levels: ARRAY parameters start as a traced tree, or as a
        traced array when an annotation or every visible caller proves an array (so that
        truth tests like `temperature or 1.0` are proven, not assumed)."""
        out: dict[str, Level] = {}
        for name, kind in self.entry(fn, traced, direct=direct).items():
            level = level_of(kind)
            if level is Level.TREE and self._proven_array(fn, name):
                level = Level.ARRAY
            out[name] = level
        return out

    def _proven_array(self, fn: ast.AST, name: str) -> bool:
        if self.helper_param(fn, name) is ValueKind.ARRAY:
            return True
        calls = self._call_sites(fn)
        if not calls:
            return False
        params = positional_params(fn)
        pos = params.index(name) if name in params else None
        # a jit entry's defaulted parameter is traced only where a call passes it: an array
        # there when every call that passes it passes one (`f(x, nofft=True)`: `if nofft:`
        # raises TracerBoolConversionError on that call, whatever the others leave)
        skip_default = self._jit_entry(fn) and literal_default(fn, name) is not None  # type: ignore[arg-type]
        passed = False
        for call, _ in calls:
            value = next((kw.value for kw in call.keywords if kw.arg == name), None)
            if value is None and pos is not None and pos < len(call.args):
                value = call.args[pos]
            if value is None and skip_default and not _spreads(call):
                continue
            if value is None or isinstance(value, ast.Starred):
                return False
            if not (
                self._array_value(value) or (self._jit_entry(fn) and self._scalar_value(value))
            ):
                return False
            passed = True
        return passed

    def helper_param(self, fn: ast.AST, name: str) -> ValueKind:
        """What a helper parameter's annotation proves (UNKNOWN: the call sites decide)."""
        args = getattr(fn, "args", None)
        if args is None:
            return ValueKind.UNKNOWN
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            if a.arg == name:
                return annotation_kind(self.index, a.annotation)
        return ValueKind.UNKNOWN

    def _defaulted_kind(self, fn: ast.AST, name: str) -> ValueKind:
        """A jit parameter with a default: its default (a Python value) unless a caller
        passes it. ARRAY when a visible call passes it; STATIC when every use of the
        function is a visible call and none does; UNKNOWN when the function escapes (it is
        exported, stored, handed to code we cannot see)."""
        pos = positional_params(fn).index(name) if name in positional_params(fn) else None
        elsewhere = self._passed.get(getattr(fn, "name", ""))
        if elsewhere is not None and _top_level(self.index, fn):  # another module's call
            most, keywords = elsewhere
            if most == -1 or name in keywords or (pos is not None and pos < most):
                return ValueKind.ARRAY
        calls = self._call_sites(fn)
        if calls is None:
            return ValueKind.UNKNOWN
        for call, bound in calls:
            if any(kw.arg is None for kw in call.keywords):
                return ValueKind.ARRAY
            positional = call.args
            if any(isinstance(a, ast.Starred) for a in positional):
                return ValueKind.ARRAY
            value = next((kw.value for kw in call.keywords if kw.arg == name), None)
            if value is None and pos is not None and pos - bound < len(positional) and pos >= bound:
                value = positional[pos - bound]
            if value is not None and not self._plain_static_call(fn, call, value):
                return ValueKind.ARRAY
        return ValueKind.STATIC if calls else ValueKind.UNKNOWN

    def _plain_static_call(self, fn: ast.AST, call: ast.Call, value: ast.expr) -> bool:
        """`call` is a plain Python call of the undecorated `fn` by its own name (no
        transform applies there: `_make_input(KEY, seq_len=1)` in a test, while
        `jax.vmap(_make_input)(keys)` is the traced application) and passes `value`, proven
        a Python value: the parameter holds that value there, not a tracer. A decorated
        `fn` (`@jax.jit`) is transformed at every call, where even a literal is traced.
        (v20 rows, tuning material: RNN-JAX rnn_jax/tests/test_transformers.py:33, JAX120.)"""
        return (
            not getattr(fn, "decorator_list", True)
            and isinstance(call.func, ast.Name)
            and call.func.id == getattr(fn, "name", None)
            and self.static_value(value)
        )

    def _call_sites(self, fn: ast.AST) -> list[tuple[ast.Call, int]] | None:
        """Every use of `fn` as a visible call: (a call with the arguments JAX passes, the
        number of leading parameters bound before them). None when `fn` escapes."""
        name = getattr(fn, "name", None)
        if name is None:
            return None
        out: list[tuple[ast.Call, int]] = []
        for ref in self.index.names.get(name, ()):
            if not isinstance(ref.ctx, ast.Load) or self.index.resolve_function(ref) is not fn:
                continue
            site = self._use(ref, 0)
            if site is None:
                return None
            out.extend(site)
        return out

    def call_uses(self, ref: ast.expr) -> list[tuple[ast.Call, int]] | None:
        """The calls JAX makes of the function `ref` names, where `ref` is handed to a
        transform (`jax.jit(f)` then calls of its alias); None when `f` escapes."""
        return self._use(ref, 0)

    def passed_elsewhere(self, fn: ast.AST) -> bool:
        """Another module of the project calls `fn` (the project index's `passed`)."""
        return _top_level(self.index, fn) and getattr(fn, "name", "") in self._passed

    def _use(self, ref: ast.expr, depth: int) -> list[tuple[ast.Call, int]] | None:
        parent = getattr(ref, "jl_parent", None)
        if isinstance(parent, ast.Call) and parent.func is ref:
            return [(parent, 0)]
        if depth > 2 or not isinstance(parent, ast.Call) or ref not in parent.args:
            return None
        q = self.index.qualname(parent.func) or ""
        if q in _BODY_ARITY:
            first, arity = _BODY_ARITY[q]
            if first is not None and parent.args.index(ref) != first:
                return None
            return [(_fake_call(arity), 0)]
        if q in ("jax.lax.cond", "jax.lax.switch"):
            operands = parent.args[3:] if q == "jax.lax.cond" else parent.args[2:]
            return [(_fake_call(len(operands)), 0)]
        if parent.args[0] is not ref or not q.startswith(("jax.", "equinox.", "flax.")):
            return None
        axes = _in_axes(parent) if q in ("jax.vmap", "jax.pmap") else None
        if axes is not None:
            # `vmap(f, in_axes=(0, 0, None))` takes exactly that many positional arguments,
            # however it is called (`vmap(f, in_axes=...)(*args)` too)
            return [(_fake_call(len(axes)), 0)]
        # a transform of `fn`: `jax.jit(fn)(x)` or `g = jax.jit(fn)` and calls of `g`
        outer = getattr(parent, "jl_parent", None)
        if isinstance(outer, ast.Call) and outer.func is parent:
            return [(outer, 0)]
        if (
            isinstance(outer, ast.Assign)
            and len(outer.targets) == 1
            and isinstance(outer.targets[0], ast.Name)
        ):
            target = outer.targets[0]
            scope = self.index.scope_of(target)
            if len(scope.bindings.get(target.id, ())) != 1:
                return None
            out: list[tuple[ast.Call, int]] = []
            for use in self.index.names.get(target.id, ()):
                if use is target or not isinstance(use.ctx, ast.Load):
                    continue
                if self.index.binding(use.id, self.index.scope_of(use)) is None:
                    continue
                up = getattr(use, "jl_parent", None)
                if not (isinstance(up, ast.Call) and up.func is use):
                    return None
                out.append((up, 0))
            return out
        return None


def _in_axes(vmap_call: ast.Call) -> list[object] | None:
    """A `vmap`/`pmap` call's `in_axes` when written out (transforms.literal_axes)."""
    from jaxlint.analysis.transforms import literal_axes

    axes = next((kw.value for kw in vmap_call.keywords if kw.arg == "in_axes"), None)
    return literal_axes(axes if axes is not None or len(vmap_call.args) < 2 else vmap_call.args[1])


def _owner(arg: ast.arg) -> ast.AST | None:
    """The function whose parameter `arg` is."""
    args = getattr(arg, "jl_parent", None)
    return getattr(args, "jl_parent", None) if isinstance(args, ast.arguments) else None


def _fake_call(arity: int) -> ast.Call:
    """A stand-in for the call JAX makes: `arity` positional arguments."""
    return ast.Call(
        func=ast.Name("f", ast.Load()),
        args=[ast.Constant(0) for _ in range(arity)],
        keywords=[],
    )


def _defaulted(fn: ast.AST) -> set[str]:
    args = fn.args  # type: ignore[attr-defined]
    positional = [*args.posonlyargs, *args.args]
    out = {a.arg for a in positional[len(positional) - len(args.defaults) :]}
    out |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
    return out


# attributes only an array has (a Python int, str, tuple or config object has none of them)
_ARRAY_ONLY = frozenset(
    "shape ndim dtype astype reshape T sum mean max min at squeeze transpose".split()
)


def _array_uses(fn: ast.AST, names: set[str]) -> set[str]:
    """Parameters the function's own body uses as arrays: `labels.shape`, `mask.astype(...)`,
    `x.sum()` (use evidence: no Python configuration value has these)."""
    out: set[str] = set()
    for node in walk(fn):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in _ARRAY_ONLY
            and isinstance(node.value, ast.Name)
            and node.value.id in names
        ):
            out.add(node.value.id)
    return out


def returns_static(index: ModuleIndex, fn: ast.AST) -> bool:
    """`fn` returns a Python value whatever it is given: its return annotation says so
    (`-> tuple[int, ...]`, `-> int | None`, `-> str`), or each of its returns is static
    metadata (`x.shape[0]`, `len(x)`, `x.ndim - 1`, a literal, a tuple of those)."""
    returns = getattr(fn, "returns", None)
    # a bare `-> float` / `-> bool` often annotates a traced scalar (`jnp.mean(x)`): no evidence
    bare_scalar = isinstance(returns, ast.Name) and returns.id in SCALARS
    if returns is not None and not bare_scalar:
        kind = annotation_kind(index, returns)
        if kind is not ValueKind.UNKNOWN:
            return kind is ValueKind.STATIC
        # `-> tuple`, `-> Any`: the annotation says nothing either way; the body may
    body = getattr(fn, "body", [])
    if len(body) > 6 or not isinstance(body[-1], ast.Return):
        return False  # a metadata getter is short and ends in its return (and walks are dear)
    values = [_local_value(index, fn, r.value) for r in own_returns(fn)]
    return bool(values) and all(v is not None and _static_expr(v) for v in values)


def _local_value(index: ModuleIndex, fn: ast.AST, value: ast.expr | None) -> ast.expr | None:
    """What a returned name holds when the function binds it once, by a plain assignment
    (`input_shape = x.shape[:t] + x.shape[t + 1:]; return input_shape`: v38 memorax
    `utils/axes.py` get_input_shape, whose result became a traced batch size, JAX120, tuning
    material; the module index's binding); else the returned expression itself."""
    if not isinstance(value, ast.Name):
        return value
    scope = index.scopes.get(fn)
    found = scope.bindings.get(value.id, ()) if scope is not None else ()
    if len(found) == 1 and found[0].kind == "assign" and found[0].value is not None:
        return found[0].value
    return value


def static_functions(index: ModuleIndex) -> list[str]:
    """The top-level functions of a module that `returns_static` or `returns_host_numpy`
    (for the project index: a caller in another module knows their result is not traced)."""
    return sorted(
        stmt.name
        for stmt in index.tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not stmt.decorator_list
        and (returns_static(index, stmt) or returns_host_numpy(index, stmt))
    )


_META = frozenset({"shape", "ndim", "size", "dtype"})


def _static_expr(node: ast.AST) -> bool:
    """Syntactically static metadata: `x.shape[0]`, `len(x)`, `x.ndim - 1`, literals."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return node.attr in _META
    if isinstance(node, ast.Subscript):
        return _static_expr(node.value)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "len"
    if isinstance(node, ast.BinOp):
        return _static_expr(node.left) and _static_expr(node.right)
    if isinstance(node, ast.Tuple):
        return all(_static_expr(e) for e in node.elts)
    return False


def static_result(index: ModuleIndex, helpers: frozenset[str], func: ast.AST) -> bool:
    """`func` names an imported project function whose result is a Python value (its
    summary says so: `-> tuple[int, ...]`, `return x.shape[0]`; `helpers` are the names this
    module calls them by, from the project index's `StaticHelpers`)."""
    if not helpers:
        return False
    name = dotted(func)
    if name is None or name not in helpers:
        return False
    b = index.binding(name.split(".", 1)[0], index.scope_of(func))
    return b is not None and b.kind == "import"


def constructed_object(index: ModuleIndex, call: ast.Call) -> bool:
    """`call` builds an instance of a class defined in another module (`PointCloud(y, ...)`,
    `gwb.GWBarycenterProblem(...)`: a CapWords name, PEP 8's class names, that is not a def
    or class of this module). Its fields and properties are of unknown kind: the
    constructor's configuration (`penalty`, `num_per_segment`) as often as its arrays, so
    an attribute read from it is not a proven array (classes of this module are read from
    their field annotations and pytree registration instead: analysis/pytrees.py)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if not name or not name[0].isupper() or name.isupper() or "_" in name.strip("_"):
        return False
    if isinstance(func, ast.Name) and index.binding(func.id, index.scope_of(func)) is not None:
        b = index.binding(func.id, index.scope_of(func))
        if b is not None and b.kind != "import":
            return False  # a class (or anything else) of this module
    q = index.qualname(func) or ""
    return not q.startswith(_ARRAY_LIBRARIES)


# libraries whose classes hold arrays in their fields (flax's TrainState, optax states, ...)
_ARRAY_LIBRARIES = ("jax.", "numpy.", "flax.", "equinox.", "haiku.", "optax.", "chex.")


def object_params(index: ModuleIndex, fn: ast.AST) -> list[str]:
    """Parameters annotated with a class imported from another project or library that is
    not an array type (`A: lx.AbstractLinearOperator`, `geom: PointCloud`): objects whose
    fields, properties and methods are of unknown kind (see `constructed_object`)."""
    args = getattr(fn, "args", None)
    if args is None:
        return []
    out = []
    for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        ann = quoted_annotation(
            index, a.annotation
        )  # `topology: "SarcTopology"` names the class too
        if not isinstance(ann, (ast.Name, ast.Attribute)):
            continue
        if annotation_kind(index, ann) is not ValueKind.UNKNOWN:
            continue
        name = ann.attr if isinstance(ann, ast.Attribute) else ann.id
        root = ann
        while isinstance(root, ast.Attribute):
            root = root.value
        b = index.binding(root.id, index.scope_of(root)) if isinstance(root, ast.Name) else None
        q = index.qualname(ann) or ""
        if (
            b is not None
            and b.kind == "import"
            and name[:1].isupper()
            and not name.isupper()
            and not q.startswith(_ARRAY_LIBRARIES)
            and not q.startswith("typing")
            and name != "Any"
            and not name.endswith(("Array", "ArrayLike", "Tensor", "Tree", "Params"))
        ):
            out.append(a.arg)
    return out


_EMPTY_CONTAINERS = frozenset({"dict", "set", "frozenset"})


def never_array(index: ModuleIndex, node: ast.AST) -> bool:
    """A string/None literal, or a name bound only to a plain `object()` sentinel: a tracer
    compared with it (`mode == "relu"`, `state == sentinel`) gives a Python False. So does
    an empty dict or set (`{}`, `dict()`, `set()`): a pytree container compared with one
    (`state.batch_stats != {}`) is decided by its keys, never by a leaf, and an array
    compared with one raises TypeError (JAX 0.12) or is a Python bool, never a traced one.
    (A non-empty dict is not: its values are compared, leaf by leaf.)"""
    if isinstance(node, ast.Constant) and (isinstance(node.value, str) or node.value is None):
        return True
    if isinstance(node, ast.Dict) and not node.keys:
        return True
    if (
        isinstance(node, ast.Call)
        and not node.args
        and not node.keywords
        and index.qualname(node.func) in _EMPTY_CONTAINERS
    ):
        return True
    if isinstance(node, ast.Name):
        found = index.lookup(node.id, index.scope_of(node))
        return bool(found) and all(
            b.kind == "assign"
            and isinstance(b.value, ast.Call)
            and not b.value.args
            and index.qualname(b.value.func) == "object"
            for b in found
        )
    return False


def module_param_kinds(
    index: ModuleIndex,
    row: Callable[[ast.AST], Any],
    passed: dict[str, tuple[int, frozenset[str]]] | None,
) -> ParamKinds:
    """The `ParamKinds` of a module, where `row(fn)` is `fn`'s traced row as the pipeline
    stands (`TracedFunctions.current`: `via`, `kind`, `chain`), or None."""
    from jaxlint.analysis.jax_api import FILTERING, PASS_VALUES_THROUGH
    from jaxlint.analysis.transforms import TracedKind
    from jaxlint.analysis.values import Kind, ValueKinds  # only when a function is traced

    values = ValueKinds(index)  # outside traced code: no taint needed

    def filtered(fn: ast.AST) -> bool:
        facts = row(fn)
        return facts is not None and facts.via.startswith(FILTERING)

    def passes_values(fn: ast.AST) -> bool:
        facts = row(fn)
        return facts is not None and facts.via in PASS_VALUES_THROUGH

    def jit_entry(fn: ast.AST) -> bool:
        facts = row(fn)
        return (
            facts is not None
            and facts.kind is TracedKind.JIT
            and facts.via in ("jax.jit", "jax.experimental.pjit.pjit", "jax.pmap")
            and not facts.chain
        )

    return ParamKinds(
        index,
        lambda node: values.of(node) is Kind.ARRAY,
        passed,
        filtered,
        passes_values=passes_values,
        scalar_value=lambda node: values.of(node) is Kind.SCALAR,
        jit_entry=jit_entry,
    )


def _top_level(index: ModuleIndex, fn: ast.AST) -> bool:
    """`fn` is a statement of the module's body: its parent link, not a scan of the body (a
    question asked per parameter, once per function: 5,000 jitted defs in one module made it
    quadratic, a new user's generated file)."""
    return parent(fn) is index.tree


def _spreads(call: ast.Call) -> bool:
    """`call` passes `*args` or `**kwargs`: any parameter may be among them."""
    return any(isinstance(a, ast.Starred) for a in call.args) or any(
        kw.arg is None for kw in call.keywords
    )


def _annotated_array_module(index: ModuleIndex, fn: ast.AST, name: str) -> bool:
    """`fn`'s parameter `name` is annotated with an equinox Module class of this module that
    declares an array field (`w: jax.Array`): a filter transform traces that leaf, so the
    parameter holds a pytree with tracers (the taint reads the field through
    `PytreeFields.array_field`). A new user's report, stop 51: `if m.w.sum() > 0:` under
    `eqx.filter_jit` raises TracerBoolConversionError and was missed."""
    from jaxlint.analysis.transforms import module_library

    args = getattr(fn, "args", None)
    params = (*args.posonlyargs, *args.args, *args.kwonlyargs) if args is not None else ()
    ann = next((a.annotation for a in params if a.arg == name), None)
    if not isinstance(ann, ast.Name):
        return False
    b = index.binding(ann.id, index.scope_of(ann))
    cls = b.node if b is not None and b.kind == "class" else None
    if not isinstance(cls, ast.ClassDef) or module_library(index, cls) != "equinox":
        return False
    return bool(array_annotated_fields(index, cls))
