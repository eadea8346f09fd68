"""Values read only for their shape: example inputs of a module's `init`, metadata reads.

A module's `init(key, x)` (flax linen, haiku) runs the forward pass on `x` to learn the shapes
of the parameters it creates from `key`, and discards the output: the numbers in `x` reach
nothing `init` returns. So `params = net.init(k, (uniform(k, obs_shape), uniform(k, (1, 1))))`
draws two dummy inputs whose values nobody reads: drawing them from the key `init` uses is no
reuse (v15 rows, tuning material: JaxMulti-AgentRL vapor_lite.py:72-74, FlaxDiff
video_diffusion_example.ipynb create_model, JAX201 x4). The same holds for a value whose only
reads are its metadata (`x.shape`, `x.ndim`, `x.dtype`, `x.size`, `len(x)`), and for the
arguments of a call a test expects to raise (`with pytest.raises(...)`).

The fact is proven, never assumed: the value is an argument of such a call in place (through
tuple/list displays), or it is bound to a plain local name bound nowhere else in its scope,
and every load of that name in the scope is such a use. Any other use (returned, stored,
passed to a function, indexed, used in arithmetic, read by a nested function) makes it data.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.analysis import syntax
from jaxlint.analysis.expected_errors import raises_context
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.sync import METADATA

__all__ = ["element_per_step", "expected_to_raise", "read_only_for_shape", "reads_only_metadata"]

_METADATA = frozenset({"shape", "ndim", "dtype", "size"})
_DISPLAYS = (ast.Tuple, ast.List)


def read_only_for_shape(
    value: ast.expr, index: ModuleIndex, example_input: Callable[[ast.Call, ast.expr], bool]
) -> bool:
    """Nothing reads the numbers `value` evaluates to, only its shape. `example_input(call,
    arg)`: `call` uses its argument `arg` only for its shape (a module `init`'s data
    arguments; the caller knows which calls those are)."""
    return _use_is_shape_only(value, index, example_input, 0)


def _use_is_shape_only(
    node: ast.expr,
    index: ModuleIndex,
    example_input: Callable[[ast.Call, ast.expr], bool],
    depth: int,
) -> bool:
    if depth > 3:
        return False
    child, cur = node, syntax.parent(node)
    while isinstance(cur, _DISPLAYS) or isinstance(cur, ast.Starred):
        child, cur = cur, syntax.parent(cur)
    if isinstance(cur, ast.Attribute) and cur.value is child:
        return cur.attr in _METADATA
    if isinstance(cur, ast.Call):
        if isinstance(cur.func, ast.Name) and cur.func.id == "len" and cur.args == [child]:
            return True
        if child is not cur.func and expected_to_raise(cur, index):
            return True
        return child is not cur.func and example_input(cur, child)
    if isinstance(cur, ast.Assign) and cur.value is child and child is node:
        if len(cur.targets) != 1 or not isinstance(cur.targets[0], ast.Name):
            return False
        return _name_reads_only_shape(cur.targets[0], index, example_input, depth)
    return False


def _name_reads_only_shape(
    target: ast.Name,
    index: ModuleIndex,
    example_input: Callable[[ast.Call, ast.expr], bool],
    depth: int,
) -> bool:
    scope = index.scope_of(target)
    bindings = index.lookup(target.id, scope)
    if not bindings or len(bindings) != 1:
        return False  # rebound somewhere: which value a load sees is another question
    # a binding of the target's own scope is seen only below that scope: ask its names
    # there, not the module's (linear in the function, not in the module)
    own = scope.bindings.get(target.id) is bindings
    seen = index.names_in(target.id, scope, nested=True) if own else index.names.get(target.id, ())
    loads = [
        n
        for n in seen
        if isinstance(n.ctx, ast.Load) and index.lookup(n.id, index.scope_of(n)) == bindings
    ]
    if not loads or any(index.scope_of(n) is not scope for n in loads):
        return False  # never read (deadness.py's question), or read by a nested function
    return all(_use_is_shape_only(n, index, example_input, depth + 1) for n in loads)


# What a deleted (donated) array still answers, checked on JAX 0.6.2, 0.10.2 and 0.12.1:
# its aval's facts, its sharding, `is_deleted()`; the same through these calls. Its numbers,
# `str()`, `.T`, indexing, `device_get`, `block_until_ready` and `copy()` raise RuntimeError.
_ABSTRACT_ATTRIBUTES = METADATA | {"itemsize"}  # sync.METADATA: what needs no wait either
_ABSTRACT_METHODS = frozenset({"is_deleted"})
_ABSTRACT_BUILTINS = frozenset({"len", "type", "isinstance", "id"})
_ABSTRACT_CALLS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "numpy.shape",
        "numpy.ndim",
        "jax.numpy.zeros_like",
        "jax.numpy.ones_like",
        "jax.numpy.empty_like",
        "jax.eval_shape",
        "jax.typeof",
    }
)


def reads_only_metadata(load: ast.Name, index: ModuleIndex) -> bool:
    """The load `load` reads only what an array's abstract value holds (shape, dtype,
    sharding, `is_deleted()`, `len`, `isinstance`, `x is None`), which JAX answers on an array
    whose buffer is gone: a read after donation that does not raise."""
    cur = syntax.parent(load)
    if isinstance(cur, ast.Attribute) and cur.value is load:
        if cur.attr in _ABSTRACT_ATTRIBUTES:
            return True
        call = syntax.parent(cur)
        return (
            cur.attr in _ABSTRACT_METHODS
            and isinstance(call, ast.Call)
            and call.func is cur
            and not call.args
        )
    if isinstance(cur, ast.Call) and load in cur.args:
        if isinstance(cur.func, ast.Name) and cur.func.id in _ABSTRACT_BUILTINS:
            return not index.lookup(cur.func.id, index.scope_of(cur.func))  # not shadowed
        return index.qualname(cur.func) in _ABSTRACT_CALLS
    if isinstance(cur, ast.Compare):
        return all(isinstance(op, (ast.Is, ast.IsNot)) for op in cur.ops)
    return False


def expected_to_raise(call: ast.Call, index: ModuleIndex) -> bool:
    """`call` is the whole statement (or value) of the body of `with pytest.raises(...):` or
    `with self.assertRaises(...):`: it is expected to fail on its inputs' shapes or types, so
    the numbers in them reach no result (v15 row, tuning material: jaxmodules
    tests/test_mapped_attention.py:1071, `K_wrong = normal(key2, (L, H, d + 1))` drawn from
    the key of `K` only to make a call raise, JAX201)."""
    stmt = syntax.parent(call)
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Expr)) and stmt.value is call:
        block = syntax.parent(stmt)
        if isinstance(block, ast.With) and stmt in block.body:
            return any(raises_context(index, item.context_expr) for item in block.items)
    return False


def element_per_step(call: ast.Call, bound: set[str]) -> bool:
    """`bernoulli(k, 0.5, (n,))[i]` in a loop over `i`: every step draws the same array (no
    argument names a loop-bound value) and reads a different element of it, by the loop's
    own variable, so the steps get the elements of one draw, which are independent: drawing
    once and indexing gives the same numbers (v17 rows, tuning material: nasjax
    descriptors/rnn.py:174, JAX201). `bound`: the names the loop binds."""
    sub = syntax.parent(call)
    if not (isinstance(sub, ast.Subscript) and sub.value is call and isinstance(sub.ctx, ast.Load)):
        return False
    index = sub.slice
    if not (isinstance(index, ast.Name) and index.id in bound):
        return False
    return not any(
        isinstance(n, ast.Name) and n.id in bound
        for a in (*call.args[1:], *(kw.value for kw in call.keywords))
        for n in ast.walk(a)
    )
