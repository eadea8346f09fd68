"""Host synchronisation: which code waits for a JAX value to be computed, and which code runs.

JAX dispatch is asynchronous: a jitted call returns at once and the value is computed in the
background. Anything that needs the value on the host waits for it, and so ends a timed region
honestly: `jax.block_until_ready`, `.item()`, `float()`/`int()`/`bool()`, printing or
formatting it, `jax.device_get`, any NumPy function on it (NumPy converts it with
`__array__`), serialising it (`pickle`, `json`, flax's `to_bytes`), comparing array values
in Python (`max(losses)`), and Python truth tests on it (`assert loss < 1`, `if jnp.any(x):`,
`if x.any():`, a comparison used as a bool). The timing rules read this one answer instead of keeping their own lists.

`executed(stmt)` yields the nodes a statement runs when it executes: the body of a nested
`def`, `lambda` or `class` only defines code, and the statement that defines it runs none of
it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.jax_api import HOST_CALLBACKS
from jaxlint.analysis.syntax import ancestors, is_none_literal, own_returns, parent, walk_scope
from jaxlint.analysis.trips import trip_count
from jaxlint.analysis.values import Kind

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)

# well-known library helpers that copy their argument to the host (library facts as data:
# each has a silent case and a twin in tests/test_sync.py); what they do, from their source
LIBRARY_SYNCS: dict[str, str] = {
    # acme/jax/utils.py: `jax.tree_util.tree_map(np.asarray, values)`
    "acme.jax.utils.to_numpy": "maps np.asarray over the tree",
    # acme/jax/utils.py: `jax.tree_util.tree_map(_fetch_devicearray, x)`, which is np.asarray
    # on every jax.Array leaf
    "acme.jax.utils.fetch_devicearray": "maps np.asarray over the jax.Array leaves",
    # chex's value assertions compare the leaves on the host (`np.testing` underneath);
    # rbig_jax times a chain of jitted calls and checks the result in the same cell (v14)
    "chex.assert_trees_all_close": "compares the leaves' values with NumPy",
    "chex.assert_tree_all_close": "compares the leaves' values with NumPy (older name)",
    "chex.assert_trees_all_equal": "compares the leaves' values with NumPy",
    "chex.assert_tree_all_finite": "checks the leaves' values on the host",
}
# not syncs, on purpose: `flax.jax_utils.unreplicate` indexes the first device's copy
# (`tree_map(lambda x: x[0], tree)`: a dispatched slice, still pending)

# calls that copy (or wait for) their argument's value on the host
SYNC_CALLS = frozenset(
    {
        *LIBRARY_SYNCS,
        "jax.block_until_ready",
        "jax.device_get",
        "float",
        "int",
        "bool",
        "complex",
        "print",
        "repr",
        "str",
        "format",
        # comparisons of array values (`max(losses)`) read each one as a host bool
        "max",
        "min",
        "sorted",
        # serialisation copies the bytes to the host
        "pickle.dump",
        "pickle.dumps",
        "cloudpickle.dump",
        "cloudpickle.dumps",
        "json.dump",
        "json.dumps",
        "jax.numpy.save",
        "jax.numpy.savez",
        "flax.serialization.to_bytes",
        "flax.serialization.msgpack_serialize",
    }
)
SYNC_METHODS = frozenset(
    {
        "block_until_ready",
        "item",
        "tolist",
        "__array__",
        "tobytes",
        "tofile",
        # a result writing itself out reads its arrays on the host: pgx's `state.save_svg`,
        # `to_svg`; a figure or file of the values needs them computed
        "save_svg",
        "to_svg",
    }
)
# comparisons that look at identity or membership, not at the array's values
_NON_VALUE_OPS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)


def executed(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes that run when `node` runs, not entering the bodies it only defines."""
    if isinstance(node, DEFINITIONS):
        # a `def`/`class` statement evaluates its decorators (and defaults); nothing else
        roots: list[ast.AST] = list(getattr(node, "decorator_list", []))
        if not isinstance(node, ast.ClassDef):
            roots += [d for d in (*node.args.defaults, *node.args.kw_defaults) if d is not None]
    else:
        roots = [node]
    stack = roots
    while stack:
        cur = stack.pop()
        yield cur
        if isinstance(cur, (ast.For, ast.AsyncFor)) and trip_count(cur) == 0:
            # `for n in range(0):` runs its iterable and `else`, never its body (v22 rows,
            # tuning material: a solver's timed loop switched off, JAX601/JAX602)
            stack.extend(n for n in (cur.iter, cur.target, *cur.orelse))
            continue
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, DEFINITIONS):
                stack.append(child)


_DTYPES = frozenset(
    "float16 float32 float64 bfloat16 int8 int16 int32 int64 uint8 uint32 bool_ complex64 asarray array".split()
)


def converts(index: ModuleIndex, call: ast.Call) -> bool:
    """A dtype conversion of a value: `jnp.float32(x[0])`, `jnp.asarray(x)`, `x.astype(...)`.
    Not one of data written in the code (`jnp.array([p] * n)`, `jnp.asarray((1, 2))`): that
    is a transfer to the device, work of its own."""
    if isinstance(call.func, ast.Attribute) and call.func.attr == "astype":
        return True
    q = index.qualname(call.func) or ""
    if not (q.startswith("jax.numpy.") and q[len("jax.numpy.") :] in _DTYPES):
        return False
    data = call.args[0] if call.args else None
    if data is None or any(isinstance(n, _WRITTEN_DATA) for n in ast.walk(data)):
        return False
    from jaxlint.analysis.values import Kind, ValueKinds  # only for a conversion in a region

    # NumPy or Python data (`jnp.asarray(np.stack(frames))`): a transfer to the device
    return ValueKinds(index).of(data) not in (Kind.NDARRAY, Kind.LIST, Kind.TUPLE, Kind.SCALAR)


_WRITTEN_DATA = (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp, ast.Dict)
# functions that make one array of a list of arrays (`stacks_results`)
_STACKING = frozenset(
    f"jax.numpy.{n}" for n in ("array", "asarray", "stack", "vstack", "hstack", "concatenate")
)


def stacks_results(index: ModuleIndex, call: ast.Call, held: Mapping[str, Any]) -> bool:
    """`jnp.array(losses)`, `jnp.stack(outs)` of a list a timed region filled with its own
    results (`held[name].container`, analysis/pending.py): a conversion of those results,
    ready when they are, not the timed work (v21 rows, tuning material: jax-ldpm
    free_vibration/example.py:486, `E_kin = np.array(E_kin)` with `import jax.numpy as np`,
    JAX601; a list of values the walk could not follow stays dispatched work, :482)."""
    if not call.args or call.keywords and not all(k.arg == "dtype" for k in call.keywords):
        return False
    if (index.qualname(call.func) or "") not in _STACKING:
        return False
    data = call.args[0]
    value = held.get(data.id) if isinstance(data, ast.Name) else None
    return value is not None and bool(getattr(value, "container", False))


# metadata known without waiting for the computation: `x.shape == y.shape` does not sync
METADATA = frozenset({"shape", "ndim", "dtype", "size", "sharding", "weak_type", "aval", "nbytes"})


def _mentions_any(node: ast.AST, names: set[str]) -> bool:
    """A value held in `names` is used in `node` (not only its metadata: `x.shape`,
    `len(x)`)."""
    dotted_names = any("." in n for n in names)  # `state.loss`: an attribute holder
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Name) and cur.id in names:
            return True
        if isinstance(cur, ast.Attribute) and cur.attr in METADATA:
            continue
        if dotted_names and isinstance(cur, ast.Attribute) and dotted(cur) in names:
            return True
        if (
            isinstance(cur, ast.Call)
            and isinstance(cur.func, ast.Name)
            and cur.func.id in ("len", "type", "isinstance", "id")
        ):
            continue
        stack.extend(ast.iter_child_nodes(cur))
    return False


def derived_names(stmts: list[ast.stmt], names: set[str]) -> set[str]:
    """`names` plus every name assigned (in `stmts`, in order) from a value that uses one of
    them: `metrics = {"loss": loss}` holds `loss`, so waiting for `metrics` waits for it; a
    loop over a value binds its parts (`for leaf in jax.tree.leaves(tree):
    leaf.block_until_ready()` waits for `tree`)."""
    out = set(names)
    for stmt in stmts:
        for node in executed(stmt):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value:
                if _mentions_any(node.value, out):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                if _mentions_any(node.iter, out):
                    out |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    return out


def truth_test_waits(index: ModuleIndex, test: ast.AST, names: set[str]) -> bool:
    """`test`, used as a Python bool, converts a value held in `names` to a host bool."""
    if isinstance(test, ast.Name):
        return test.id in names
    if isinstance(test, ast.Attribute) and "." in (dotted(test) or ""):
        # `if state.loss` held as an attribute, or a field of a held value read as a bool
        # (`if neighbors.did_buffer_overflow:` after a loop: v32 gknet-benchmarks, JAX601),
        # as `neighbors.did_buffer_overflow == True` already was
        return dotted(test) in names or _mentions_any(test, names)
    if isinstance(test, ast.BoolOp):
        return any(truth_test_waits(index, v, names) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return truth_test_waits(index, test.operand, names)
    if isinstance(test, ast.Compare):
        if any(isinstance(op, _NON_VALUE_OPS) for op in test.ops):
            return False
        return _mentions_any(test, names)
    if isinstance(test, ast.Call):
        # `if jnp.any(x)`, `if x.any()`, `if jnp.isnan(x).any()`, `if is_done(x)`: the
        # result is an array made from the value (or a bool the callee read from it)
        func = test.func
        if isinstance(func, ast.Name) and func.id in ("len", "isinstance", "hasattr", "callable"):
            return False
        return _mentions_any(test, names)
    return False


def waits_for(index: ModuleIndex, node: ast.AST, names: set[str]) -> bool:
    """`node` (one node, not its subtree) waits on the host for a value held in `names`."""
    if isinstance(node, ast.Call):
        q = index.qualname(node.func) or ""
        args = [*node.args, *(k.value for k in node.keywords)]
        if (q in SYNC_CALLS or q.startswith("numpy.")) and any(
            _mentions_any(a, names) for a in args
        ):
            return True
        func = node.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr in SYNC_METHODS
            and _mentions_any(func.value, names)
        )
    if isinstance(node, (ast.Assert, ast.If, ast.While, ast.IfExp)):
        return truth_test_waits(index, node.test, names)
    if isinstance(node, ast.comprehension):
        return any(truth_test_waits(index, t, names) for t in node.ifs)
    if isinstance(node, ast.FormattedValue):
        return _mentions_any(node.value, names)  # f"{loss}" formats the value on the host
    return False


def waits_on_result(index: ModuleIndex, call: ast.Call) -> bool:
    """`call`'s own result is consumed on the host right away: `f(x).block_until_ready()`,
    `float(f(x))`, `np.argmax(f(x))`, `assert f(x) > 0`, `print(f(x))`."""
    child: ast.AST = call
    for anc in ancestors(call):
        if isinstance(anc, ast.Attribute) and anc.value is child and anc.attr in SYNC_METHODS:
            return True
        if isinstance(anc, ast.Call) and child in anc.args:
            q = index.qualname(anc.func) or ""
            if q in SYNC_CALLS or q.startswith("numpy."):
                return True
        if isinstance(anc, ast.FormattedValue):
            return True
        if isinstance(anc, (ast.Assert, ast.If, ast.While)) and anc.test is child:
            return True
        if isinstance(anc, ast.Compare) and not any(
            isinstance(op, _NON_VALUE_OPS) for op in anc.ops
        ):
            holder = parent(anc)
            if isinstance(holder, (ast.Assert, ast.If, ast.While)) and holder.test is anc:
                return True
        if isinstance(anc, ast.stmt):
            return False
        child = anc
    return False


_HOST_KINDS = frozenset({Kind.NDARRAY, Kind.SCALAR, Kind.OBJECT})


def eager_host_call(index: ModuleIndex, call: ast.Call, kind_of: Callable[[ast.AST], Kind]) -> bool:
    """`call` runs an undecorated def of this module by its own name (`f(x_np)`, while
    `f_jit = jax.jit(f)` elsewhere is the compiled one) with only host values (NumPy arrays,
    Python scalars, other objects: `kind_of(expr)`, `ValueKinds.of`): it runs eagerly on the
    host and returns finished values, so it dispatches no device work to wait for (v25 row,
    tuning material: BEATPython PythonRobotics/LearningJax/basic/p0.py:18, the NumPy baseline
    of a NumPy-vs-JAX timing, JAX601). An argument of unknown kind, or a JAX array, may make
    its body dispatch (`x.T @ x` on a `jax.Array` is asynchronous eagerly too)."""
    func = call.func
    if not isinstance(func, ast.Name):
        return False
    fn = index.resolve_function(func)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if fn.name != func.id or fn.decorator_list:
        return False  # an alias (`f_jit(...)`) or a decorated def: compiled at the call
    args = [*call.args, *(kw.value for kw in call.keywords)]
    if not args or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    return all(kind_of(a) in _HOST_KINDS for a in args)


def returns_nothing(index: ModuleIndex, fn: ast.AST) -> bool:
    """`fn`, jitted, leaves no work for the host to wait for: it returns no value (every
    `return` is bare or `return None`, it is no generator) and calls no host callback
    (`jax.debug.print`, `io_callback`, ... are effects XLA keeps). A program with no outputs
    is all dead code to XLA: the call returns None at once, having computed nothing (measured
    on JAX 0.10.2 and 0.12.1: 0.1 ms, against 180 ms for the same body returning its result;
    the lowered module has no dot left). v38 FORESEE `Test JAX.ipynb` cells 42/46 (JAX601,
    tuning material): `%timeit func_main_jit(2)` of a def without a return."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for ret in own_returns(fn):
        if ret.value is not None and not is_none_literal(ret.value):
            return False
    for node in walk_scope(fn):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(node, ast.Call):
            q = index.qualname(node.func) or ""
            if q in HOST_CALLBACKS or q.startswith("jax.debug."):
                return False
    return True
