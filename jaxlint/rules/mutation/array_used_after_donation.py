"""JAX506: an array read after it was donated to a jitted call (`donate_argnums`).

Donation lets XLA write the result into the argument's buffer; JAX then deletes the
argument, and any later read of it raises `RuntimeError: Array has been deleted` (on CPU too,
checked on JAX 0.6.2, 0.10.2 and 0.12.1). The usual forms: the result is bound to a new name
and the old one is read again (`new = step(params, g); delta = new - params`), or the call
sits in a loop and the donated name is never rebound (`loss = step(state, batch)` each step).
"""

from __future__ import annotations

import ast

from jaxlint.analysis.expected_errors import expects_error
from jaxlint.analysis.flow.graph import Definition
from jaxlint.analysis.jit_sites import (
    DONATING,
    JitSpec,
    donation_takes_effect,
    jit_spec_of_value,
    jitted_callee,
)
from jaxlint.analysis.loops import enclosing_loop
from jaxlint.analysis.shape_only import reads_only_metadata
from jaxlint.analysis.syntax import contains, parent
from jaxlint.analysis.values import Kind
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.compile._text import shorten

# kinds JAX never deletes when they are donated: a NumPy array or a Python value is copied to
# the device for the call, and the copy is what XLA may reuse (checked: the NumPy array and
# the float stay readable)
_HOST_KINDS = frozenset({Kind.NDARRAY, Kind.SCALAR})
_SEQUENCES = frozenset({Kind.LIST, Kind.TUPLE, Kind.SET})
# fields of a flax `TrainState` that are not pytree leaves (`struct.field(pytree_node=False)`):
# read from a donated state, they are still there
_STATIC_STATE_FIELDS = frozenset({"apply_fn", "tx"})


class ArrayUsedAfterDonation(Rule):
    """Flags a read of an array after it was donated to a jitted call.

    What it does: finds a name passed at a donated position of a call to a function jitted in
    this module with `donate_argnums` / `donate_argnames` (`jax.jit`, `jax.pmap`, `pjit`),
    and a later read of the same value: a load that some path from the call reaches with no
    new binding of the name in between, in a later step of a loop too (the name donated again
    by the same call), or the same name passed again in the same call (`f(x, x)`). Reads that only ask for the array's metadata (`x.shape`, `x.dtype`,
    `x.is_deleted()`, `len(x)`, `x is None`), values the code proves live on the host (a NumPy
    array, a Python number: the call copies them) and reads inside `pytest.raises(RuntimeError)`
    are left alone.
    Why is this bad: donation hands the argument's device buffer to XLA, which writes the
    output into it; JAX marks the argument deleted, and any later use raises `RuntimeError:
    Array has been deleted` (on CPU as on GPU and TPU). Where no output has the argument's
    shape and dtype, XLA cannot reuse it and the read works, with a warning: code that relies on
    that breaks the day an output matches.
    Example:
        step = jax.jit(sgd, donate_argnums=0)
        new_params = step(params, grads)
        change = new_params - params      # params was donated: RuntimeError
    Use instead:
        step = jax.jit(sgd, donate_argnums=0)
        old = params.copy()               # or do not donate what you still need
        params = step(params, grads)
        change = params - old
    No automatic fix: whether to rebind the name, keep a copy or drop the donation is the
    author's choice (a copy costs the memory donation saves).
    """

    code = "JAX506"
    tier = 2
    name = "array-used-after-donation"
    message = "`{name}` was donated to `{fn}` ({option}) {where}: {why}; {advice}"
    fix_safety = None
    verifier = "trace"
    # the error's text differs by version: "Array has been deleted" (0.12), "Buffer has been
    # deleted or donated" (0.10.2), "buffer has been deleted or donated" (0.6.2), and
    # "previously donated in the same call" for `f(x, x)` (all three)
    verify = Verify(expect=("has been deleted", "deleted or donated", "previously donated"))
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            from functools import partial
            import jax

            @partial(jax.jit, donate_argnums=0)
            def sgd(params, grads):
                return params - 0.1 * grads

            def update(params, grads):
                new_params = sgd(params, grads)
                change = new_params - params  # error: JAX506
                return new_params, change
            """,
            """
            import jax
            import jax.numpy as jnp

            def train_step(state, batch):
                return state + batch.mean()

            step = jax.jit(train_step, donate_argnums=(0,))

            def fit(batches):
                state = jnp.zeros(4)
                for batch in batches:
                    loss = step(state, batch)  # error: JAX506
                return loss

            def overfit(state, batch, epochs):
                for epoch in range(epochs):
                    loss = step(state, batch)  # error: JAX506
                return state, loss  # the second step fails first: one finding, in the loop
            """,
            """
            import jax
            import jax.numpy as jnp

            class Trainer:
                def __init__(self, fn):
                    self.step = jax.jit(fn, donate_argnames="state")

                def run(self, batch):
                    state = jnp.ones(3)
                    out = self.step(state=state, batch=batch)
                    print(state.sum())  # error: JAX506
                    return out
            """,
            """
            import jax
            import jax.numpy as jnp

            add = jax.jit(lambda x, y: x + y, donate_argnums=(0,))
            x = jnp.zeros((10,), jnp.float32)
            y = add(x, x)  # error: JAX506
            """,
            """
            import jax

            def sgd(params, grads):
                return params - 0.1 * grads

            def update(params, grads):
                new = jax.jit(sgd, donate_argnums=0)(params, grads)
                return new, params - new  # error: JAX506
            """,
        ),
        valid=(
            """
            from functools import partial
            import jax
            import numpy as np
            import pytest

            @partial(jax.jit, donate_argnums=0)
            def sgd(params, grads):
                return params - 0.1 * grads

            def train(params, batches):
                for grads in batches:
                    params = sgd(params, grads)  # rebound to the result: nothing old is read
                return params

            def metadata(params, grads):
                out = sgd(params, grads)
                assert not params.is_deleted() or params.shape == out.shape
                return out, len(params), params.dtype

            def host(grads):
                p = np.ones(3, np.float32)  # a NumPy array is copied, not deleted
                out = sgd(p, grads)
                return out + p

            def test_deleted(params, grads):
                sgd(params, grads)
                with pytest.raises(RuntimeError):
                    params + 1
            """,
            """
            import jax

            step = jax.jit(lambda s, b: s + b)  # no donation

            def fit(state, batches):
                for b in batches:
                    out = step(state, b)
                return out, state

            def rebind(state, b):
                donate = jax.jit(lambda s, b: s + b, donate_argnums=0)
                state = donate(state, b)
                if b is None:
                    state = b
                return state
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        spec = jitted_callee(ctx.facts, node)
        if spec is None and isinstance(node.func, ast.Call):
            # `jax.jit(sgd, donate_argnums=0)(params, g)`: the jit made in place
            spec = jit_spec_of_value(ctx.index, node.func)
        if spec is None or not spec.donates or spec.qualname not in DONATING:
            return
        if not donation_takes_effect(ctx.facts, node):
            return  # called inside a jitted function: inlined, nothing is donated
        for label, arg in spec.donated_arguments(node):
            if isinstance(arg, ast.Name):
                self._check(ctx, node, spec, label, arg)

    def _check(
        self, ctx: Context, call: ast.Call, spec: JitSpec, label: str, arg: ast.Name
    ) -> None:
        kind = ctx.facts.values.of(arg)
        holds_arrays = ctx.facts.values.holds_arrays(arg)
        if kind in _HOST_KINDS or (kind in _SEQUENCES and not holds_arrays):
            return  # a list or tuple not proven to hold arrays: host data, copied for the call
        # a dict (a state of `{"w": ...}`) is donated leaf by leaf like any pytree, but its
        # values are not proven arrays here: medium (a new user's repro, stop 53)
        confidence = "high" if kind in (Kind.ARRAY, Kind.KEY) or holds_arrays else "medium"
        fn = spec.name if spec.fn is not None else shorten(ctx, call.func)
        again = _passed_again(call, arg)
        if again is not None:
            self.report(
                again,
                name=arg.id,
                fn=fn,
                option=_option(ctx, spec, label),
                where="and passed again in the same call",
                why="XLA refuses a buffer that one call both receives as a donation and reads "
                "(`INVALID_ARGUMENT: Attempt to use a buffer that was previously donated`)",
                advice=f"pass a copy (`{arg.id}.copy()`) in one of the places, or do not donate it",
                confidence=confidence,
            )
            return
        reads = [r for r in ctx.facts.flow.reads_after(arg) if not _harmless(ctx, r, kind)]
        if not reads:
            return
        read = _first_after(reads, call)
        looped = read is arg or (isinstance(read, ast.Name) and contains(call, read))
        self.report(
            _node_of(read),
            name=arg.id,
            fn=fn,
            option=_option(ctx, spec, label),
            where=(
                "in the previous step of the loop, and the name is not rebound"
                if looped
                else f"on line {call.lineno}"
            ),
            why="where an output has its shape and dtype XLA writes the result into its buffer "
            "and JAX deletes it, so this read raises (`RuntimeError: Array has been deleted`)",
            advice=(
                f"bind the result back to `{arg.id}` (`{arg.id} = ...`) or do not donate it"
                if looped
                else f"read the call's result instead, or keep a copy of `{arg.id}` before the call"
            ),
            confidence=confidence,
        )


def _passed_again(call: ast.Call, arg: ast.Name) -> ast.Name | None:
    """`f(x, x)`, `f(x, (x, y))`: the donated name is an argument of the same call again (by
    itself or in a tuple, list or dict display; `x.shape` is read before the call runs)."""
    for other in (*call.args, *(kw.value for kw in call.keywords)):
        if other is arg:
            continue
        todo: list[ast.AST] = [other]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Name) and node.id == arg.id:
                return node
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                todo.extend(node.elts)
            elif isinstance(node, ast.Dict):
                todo.extend(v for v in node.values if v is not None)
            elif isinstance(node, ast.Starred):
                todo.append(node.value)
    return None


def _harmless(ctx: Context, read: ast.Name | Definition, kind: Kind) -> bool:
    """A read that works on a deleted array, or that the code expects to fail."""
    if isinstance(read, Definition):
        return read.node is None or expects_error(ctx.index, read.node, "RuntimeError")
    if reads_only_metadata(read, ctx.index):
        return True
    up = parent(read)
    if (
        kind not in (Kind.ARRAY, Kind.KEY)
        and isinstance(up, ast.Attribute)
        and up.value is read
        and up.attr in _STATIC_STATE_FIELDS
    ):
        return True
    return expects_error(ctx.index, read, "RuntimeError")


def _first_after(reads: list[ast.Name | Definition], call: ast.Call) -> ast.Name | Definition:
    """The read to report: the first one after the call in the text, else the first one."""

    def pos(r: ast.Name | Definition) -> tuple[int, int]:
        n = _node_of(r)
        return (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))

    end = (call.end_lineno or call.lineno, call.end_col_offset or 0)
    ordered = sorted(reads, key=pos)
    later = [r for r in ordered if pos(r) >= end]
    first = later[0] if later else ordered[0]
    loop = enclosing_loop(call, comprehensions=False)
    again = [r for r in reads if isinstance(r, ast.Name) and contains(call, r)]
    if loop is not None and again and not contains(loop, _node_of(first)):
        return again[0]  # the next step of the loop runs before the code after the loop
    return first


def _node_of(read: ast.Name | Definition) -> ast.AST:
    """Where a read is: the load, or the `x += ...` statement of an AUGMENT definition (the
    reads kept have one: `_harmless` drops a definition without a node)."""
    return read.node if isinstance(read, Definition) else read  # type: ignore[return-value]


def _option(ctx: Context, spec: JitSpec, label: str) -> str:
    """The option that donates `label`, as the user wrote it."""
    written = _written_option(ctx, spec, label)
    if written is not None:
        return written
    if label in spec.donate_names:
        return f'`donate_argnames="{label}"`'
    params = spec.params
    if params is not None and label in params:
        return f"`donate_argnums={params.index(label)}`"
    return f"`donate_argnums={label.lstrip('#')}`"


def _written_option(ctx: Context, spec: JitSpec, label: str) -> str | None:
    """`donate_argnames=("params",)` as the source spells it, when it names `label` (by name,
    or by position through the signature)."""
    options = spec.options
    if options is None:
        return None
    params = spec.params
    for kw in options.keywords:
        if kw.arg == "donate_argnames" and label in spec.donate_names:
            return f"`{kw.arg}={ctx.text(kw.value)}`"
        if kw.arg == "donate_argnums" and params is not None and label in params:
            if params.index(label) in spec.donate_positions:
                return f"`{kw.arg}={ctx.text(kw.value)}`"
    return None
