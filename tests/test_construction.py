"""analysis/construction.py: public methods that run only while an object is built.

Why: JAX409 (a method jitted with `self` static) is a false positive when the attributes it
reads are set by a set-up step called once, right after construction (v31 CompPhysics
notebooks: `wf = Wavefunction(ndim, npart)` then `params = wf.build(key)`, x53). Each case
below is a way the fact could widen (a stale compiled result missed) or narrow."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis.construction import kept_methods, post_construction_calls
from jaxlint.engine import LintOptions
from jaxlint.files.notebook import lint_cells

CLASS = """
from functools import partial

import jax
import jax.numpy as jnp


class Wavefunction:
    def __init__(self, n):
        self.n = n

    def build(self, key):
        self.scale = jax.random.normal(key, ())
        return jnp.ones(self.n)

    @partial(jax.jit, static_argnums=0)
    def logpsi(self, params, x):
        return jnp.sum(params * x) * self.scale
"""


def _setup_calls(src: str) -> list[str]:
    return sorted(post_construction_calls(ast.parse(textwrap.dedent(src))).values())


def test_a_call_right_after_construction_is_a_setup_call():
    assert _setup_calls(
        """
        wf = Wavefunction(3)
        params, n = wf.build(key)
        wf.compile()  # not the first: it could follow a traced call
        def main():
            m = pkg.Model(cfg)
            m.init_state()
        """
    ) == ["Model.init_state", "Wavefunction.build"]


@pytest.mark.parametrize(
    "src",
    [
        "wf = Wavefunction(3)\nprint(wf)\nwf.build(key)\n",  # used before the call
        "wf = Wavefunction(3)\nwf.build(wf.key)\n",  # the object is an argument
        "wf = Wavefunction(3)\nwf = wf.build(key)\n",  # rebound by the call
        "wf = make(3)\nwf.build(key)\n",  # not a class's constructor, by convention
        "wf = Wavefunction(3)\nother.build(key)\n",  # another object
        "wf = Wavefunction(3)\nx = 1 + wf.build(key)\n",  # not the statement's whole value
        "wf = Wavefunction(3)\nwf._build(key)\n",  # private
    ],
)
def test_other_calls_are_not_setup_calls(src):
    assert _setup_calls(src) == []


def test_a_never_called_method_is_kept_only_with_a_setup_call_and_no_other_call():
    setup = ["Wavefunction.build"]
    assert kept_methods([], setup, set(), {"Wavefunction.build"}) == ("Wavefunction.build",)
    assert kept_methods([], setup, {"build"}, {"Wavefunction.build"}) == ()  # called later
    assert kept_methods([], setup, set(), set()) == ()  # never called: no evidence
    assert kept_methods([], setup, set(), {"Other.build"}) == ()  # another class's object


def _nb(*cells: str) -> list[str]:
    options = LintOptions(codes=frozenset({"JAX409"}))
    return [d.code for d in lint_cells([CLASS, *cells], options, "nb.ipynb")]


def test_notebook_setup_call_once_after_construction_is_silent():
    built = "wf = Wavefunction(3)\nparams = wf.build(jax.random.key(0))\n"
    assert _nb(built, "wf.logpsi(params, params)\n") == []


def test_notebook_second_build_on_a_used_object_is_reported():
    found = _nb(
        "wf = Wavefunction(3)\nparams = wf.build(jax.random.key(0))\n",
        "wf.logpsi(params, params)\nparams = wf.build(jax.random.key(1))\n",
    )
    assert found == ["JAX409"]


def test_notebook_build_never_called_keeps_the_finding():
    assert _nb("wf = Wavefunction(3)\n") == ["JAX409"]


def test_the_index_finds_the_same_setup_calls_as_the_statement_walk():
    """The summary asks the index (only the statements that build a capitalised name), a
    driver summarised from its imports alone walks its statements: both agree."""
    from jaxlint.analysis import ModuleFacts
    from jaxlint.analysis.construction import indexed_construction_calls

    src = textwrap.dedent(
        """
        wf = Wavefunction(3)
        params, n = wf.build(key)
        x = make(3)
        x.build(key)
        def main():
            m = pkg.Model(cfg)
            m.init_state()
            for i in range(3):
                s = Sampler(i)
                s.reset()
            try:
                t = Trainer()
                t.setup()
            except ValueError:
                u = Trainer()
                u.setup()
        """
    )
    tree = ast.parse(src)
    walked = post_construction_calls(tree)
    indexed = indexed_construction_calls(ModuleFacts(tree).index)
    assert (
        sorted(indexed.values())
        == sorted(walked.values())
        == [
            "Model.init_state",
            "Sampler.reset",
            "Trainer.setup",
            "Trainer.setup",
            "Wavefunction.build",
        ]
    )
