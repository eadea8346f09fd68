"""JAX601 on the timed region's data flow (analysis/pending.py), and its fix.

A timed region is honest once the host waits for the latest work it dispatched; the fix blocks
every output still pending at the clock read (issue 27 items 1 and 3: the fix used to go above
a `;` line, block the first array it saw, one of several outputs, or an input of the real
output), and the fix loop refuses a fix that leaves its own finding (ux-review-3 B2: "Fixed 10
findings" for ten copies of the same broken line).
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.rules.benchmarking.timing_without_block_until_ready import (
    TimingWithoutBlockUntilReady,
)

JAX601 = LintOptions(codes=frozenset({"JAX601"}))

HEAD = """\
import json
import pickle
import time
import jax
import jax.numpy as jnp
import numpy as np

f = jax.jit(lambda x: x * 2)
g = jax.jit(lambda x: x + 1)
step = jax.jit(lambda s, b: (s + b, (s * b).sum()))
x = jnp.ones(3)
"""


def _lint(body: str) -> list:
    return lint_text(HEAD + textwrap.dedent(body), "bench.py", JAX601)


def _fixed(body: str, unsafe: bool = False) -> str:
    text = HEAD + textwrap.dedent(body)
    return fix_text(text, "bench.py", JAX601, unsafe=unsafe).text[len(HEAD) :]


def _undefined(text: str) -> set[str]:
    from pyflakes import checker, messages

    found = checker.Checker(ast.parse(text), filename="x.py")
    return {
        str(m.message_args[0])
        for m in found.messages
        if isinstance(m, (messages.UndefinedName, messages.UndefinedLocal))
    }


# -- item 1: the insertion point -------------------------------------------------------------


def test_fix_on_a_compound_line_goes_after_the_binding_statement():
    fixed = _fixed("start = time.time(); y = f(x); print(time.time() - start)\n")
    assert fixed == (
        "start = time.time(); y = f(x); jax.block_until_ready(y); print(time.time() - start)\n"
    )
    assert not _undefined(HEAD + fixed)


def test_fix_loop_counts_only_fixes_that_remove_their_finding():
    result = fix_text(
        HEAD + "t0 = time.time(); y = f(x); print(time.time() - t0)\n", "b.py", JAX601
    )
    assert len(result.fixed) == 1 and result.remaining == []


def test_fix_loop_refuses_a_fix_that_leaves_its_finding(monkeypatch):
    """A (deliberately broken) fix that inserts a comment: the finding stays, so the loop must
    apply it never, not ten times, and count nothing."""
    source = HEAD + "t0 = time.time()\ny = f(x)\nprint(time.time() - t0)\n"

    def useless(self, last, names, discarded, end, ctx):  # noqa: ANN001, ANN202
        from jaxlint.core.diagnostic import Position

        return self.fix(ctx.insert(Position(end.lineno, 0), "# waiting\n"), message="no-op")

    monkeypatch.setattr(TimingWithoutBlockUntilReady, "_fix", useless)
    result = fix_text(source, "b.py", JAX601)
    assert result.text == source
    assert result.fixed == []
    assert [d.code for d in result.remaining] == ["JAX601"]


# -- item 3: every output that reaches the clock read ----------------------------------------


def test_fix_blocks_every_independent_output():
    fixed = _fixed(
        """\
        t0 = time.perf_counter()
        a = f(x)
        b = g(x)
        dt = time.perf_counter() - t0
        """
    )
    assert "jax.block_until_ready((a, b))\ndt =" in fixed


def test_fix_blocks_every_output_of_a_tuple_result():
    fixed = _fixed(
        """\
        def train(state, batches):
            t0 = time.perf_counter()
            for b in batches:
                state, loss = step(state, b)
            return time.perf_counter() - t0
        """,
        unsafe=True,  # `loss` is unbound after zero steps
    )
    assert "jax.block_until_ready((state, loss))" in fixed


def test_fix_blocks_the_output_not_its_input():
    """`model` is not known to be jitted: its result is what reaches the clock, not `xs`."""
    fixed = _fixed(
        """\
        def bench(model, params):
            xs = jnp.ones((8, 3))
            t0 = time.perf_counter()
            xs = jnp.tanh(xs)
            out = model(params, xs)
            return time.perf_counter() - t0
        """
    )
    assert "jax.block_until_ready(out)" in fixed
    assert "block_until_ready(xs)" not in fixed


def test_fix_blocks_the_container_that_collects_the_outputs():
    fixed = _fixed(
        """\
        def bench(xs):
            outs = []
            t0 = time.perf_counter()
            for v in xs:
                outs.append(f(v))
            return time.perf_counter() - t0
        """
    )
    assert "jax.block_until_ready(outs)" in fixed


def test_one_program_output_waited_for_covers_its_siblings():
    assert not _lint(
        """\
        def train(state, batches):
            t0 = time.perf_counter()
            state, loss = step(state, batches[0])
            loss.block_until_ready()
            return time.perf_counter() - t0
        """
    )


# -- a timed region ends at any host sync reached from its outputs --------------------------

SYNCED = {
    "np.stack of collected outputs": """\
        outs = []
        t0 = time.perf_counter()
        for i in range(3):
            outs.append(f(x))
        outs = np.stack(outs)
        dt = time.perf_counter() - t0
        """,
    "float of a value computed from the output": """\
        t0 = time.perf_counter()
        y = f(x)
        total = float(jnp.sum(y))
        dt = time.perf_counter() - t0
        """,
    "an if on the output": """\
        t0 = time.perf_counter()
        y = f(x)
        if jnp.isnan(y).any():
            raise ValueError
        dt = time.perf_counter() - t0
        """,
    "print of a dict holding it": """\
        t0 = time.perf_counter()
        y = f(x)
        metrics = {"y": y}
        print(metrics)
        dt = time.perf_counter() - t0
        """,
    "serialisation": """\
        t0 = time.perf_counter()
        y = f(x)
        blob = pickle.dumps(y)
        dt = time.perf_counter() - t0
        """,
    "a list element waited for in a loop": """\
        t0 = time.perf_counter()
        ys = [f(x), g(x)]
        for y in ys:
            y.block_until_ready()
        dt = time.perf_counter() - t0
        """,
    "device_get of the final result": """\
        t0 = time.perf_counter()
        y = f(x)
        z = g(y)
        host = jax.device_get(z)
        dt = time.perf_counter() - t0
        """,
    "a helper of this module that reads it on the host": """\
        def report(v):
            return float(v.mean())

        t0 = time.perf_counter()
        y = f(x)
        acc = report(y)
        dt = time.perf_counter() - t0
        """,
    "a tree map of np.array over a dict made in the call": """\
        t0 = time.perf_counter()
        y = f(x)
        host = jax.tree_map(np.array, {"y": y, "z": jnp.exp(y)})
        dt = time.perf_counter() - t0
        """,
    "a helper of this module mapping np.asarray over what it is given": """\
        def to_host(v):
            return jax.tree_util.tree_map(np.asarray, v)

        t0 = time.perf_counter()
        y = f(x)
        host = to_host({"y": y, "z": g(y)})
        dt = time.perf_counter() - t0
        """,
    "acme's to_numpy (a library fact)": """\
        from acme.jax import utils

        t0 = time.perf_counter()
        y = f(x)
        metrics = {"y": y}
        metrics["z"] = g(y)
        metrics = utils.to_numpy(metrics)
        dt = time.perf_counter() - t0
        """,
    "chex's value assertion (a library fact; v14 rbig_jax)": """\
        import chex

        t0 = time.perf_counter()
        y = f(x)
        chex.assert_trees_all_close(y, x)
        dt = time.perf_counter() - t0
        """,
    "an argument of the clock-reading statement": """\
        t0 = time.perf_counter()
        y = f(x)
        print(y.item(), time.perf_counter() - t0)
        """,
}


@pytest.mark.parametrize("body", SYNCED.values(), ids=list(SYNCED))
def test_region_synchronised_by_a_host_read_of_its_outputs_is_silent(body):
    assert _lint(body) == []


NOT_SYNCED = {
    "the sync is on an earlier result": """\
        t0 = time.perf_counter()
        y = f(x)
        float(y)
        z = g(y)
        dt = time.perf_counter() - t0
        """,
    "collected but never read": """\
        outs = []
        t0 = time.perf_counter()
        for i in range(3):
            outs.append(f(x))
        dt = time.perf_counter() - t0
        """,
    "a helper that does not read it": """\
        def keep(v):
            return [v]

        t0 = time.perf_counter()
        y = f(x)
        kept = keep(y)
        dt = time.perf_counter() - t0
        """,
    "flax's unreplicate indexes the first copy (not a host read)": """\
        from flax import jax_utils

        t0 = time.perf_counter()
        y = f(x)
        metrics = jax_utils.unreplicate({"y": y, "z": g(y)})
        dt = time.perf_counter() - t0
        """,
    "a tree map of an array function over a dict made in the call": """\
        t0 = time.perf_counter()
        y = f(x)
        out = jax.tree_util.tree_map(jnp.exp, {"y": y, "z": g(y)})
        dt = time.perf_counter() - t0
        """,
    "only the shape is read": """\
        t0 = time.perf_counter()
        y = f(x)
        print(y.shape)
        dt = time.perf_counter() - t0
        """,
}


@pytest.mark.parametrize("body", NOT_SYNCED.values(), ids=list(NOT_SYNCED))
def test_region_whose_latest_work_is_not_waited_for_still_fires(body):
    assert [d.code for d in _lint(body)] == ["JAX601"]
    assert not _undefined(HEAD + _fixed(body))


# -- notebooks: %%timeit / %timeit are timed regions (issue 27 item 9) -----------------------

NOTEBOOK_HEAD = (
    "import jax\nf = jax.jit(lambda x: x * 2)\nx = jax.numpy.ones(3)\nf(x).block_until_ready()\n"
)


@pytest.mark.parametrize(
    "cell",
    [
        "%%timeit\ny = f(x)\n",
        "%%timeit -n 10 -r 3\ny = f(x)\n",
        "%timeit f(x)\n",
        "%timeit -n10 -r 3 f(x)\n",
    ],
)
def test_timeit_magics_are_timed_regions(cell):
    from jaxlint.files.notebook import lint_cells

    found = lint_cells([NOTEBOOK_HEAD, cell], JAX601, "nb.ipynb")
    assert [(d.code, d.cell) for d in found] == [("JAX601", 1)]
    magic = cell.split()[0]
    assert found[0].message.endswith(f"`{magic}`)")


@pytest.mark.parametrize(
    "cell",
    ["%%timeit\ny = f(x).block_until_ready()\n", "%timeit f(x).block_until_ready()\n"],
)
def test_blocked_timeit_magics_are_silent(cell):
    from jaxlint.files.notebook import lint_cells

    assert lint_cells([NOTEBOOK_HEAD, cell], JAX601, "nb.ipynb") == []


def test_timeit_of_a_def_or_a_partial_is_a_timed_region():
    found = _lint(
        """\
        import functools
        import timeit

        def run():
            return f(x)  # line 16

        def run_blocked():
            return f(x).block_until_ready()

        timeit.repeat(stmt=run, number=10, repeat=3)
        timeit.timeit(run_blocked, number=10)
        timeit.timeit(functools.partial(g, x), number=10)  # line 23
        """
    )
    assert [(d.code, d.line) for d in found] == [("JAX601", 16), ("JAX601", 23)]
    assert "return jax.block_until_ready(f(x))" in _fixed(
        "import timeit\n\ndef run():\n    return f(x)\n\ntimeit.timeit(run, number=3)\n"
    )


@pytest.mark.parametrize(
    ("cell", "codes"),
    [
        # autorange calls the statement before the timed runs: the compile is not reported
        ("%timeit g(x).block_until_ready()\n", []),
        ("%%timeit\ng(x).block_until_ready()\n", []),
        # with -n the first timed run compiles
        ("%timeit -n 3 g(x).block_until_ready()\n", ["JAX602"]),
        ("%%time\ng(x).block_until_ready()\n", ["JAX602"]),
    ],
)
def test_timeit_calibration_runs_the_compile(cell, codes):
    from jaxlint.files.notebook import lint_cells

    head = "import jax\ng = jax.jit(lambda x: x + 1)\nx = jax.numpy.ones(3)\n"
    options = LintOptions(codes=frozenset({"JAX601", "JAX602"}))
    assert [d.code for d in lint_cells([head, cell], options, "nb.ipynb")] == codes


def test_timeit_of_a_string_statement():
    found = _lint(
        """\
        import timeit

        timeit.timeit("f(x)", globals=globals(), number=10)  # line 14
        timeit.timeit("f(x).block_until_ready()", globals=globals(), number=10)
        timeit.timeit("sum(range(10))", number=10)
        """
    )
    assert [(d.code, d.line, d.fix) for d in found] == [("JAX601", 14, None)]
