"""The key flow's walk for the project summary alone (`KeyFlow(reuses=False)`): with no rule
asking for `reuses` or `collisions` (JAX201, JAX203: `Rule.key_reuses`), only the top-level
defs that may return a consumed key are walked, for `returned_keys`; the two lists are walked
for on the first question, and every answer is the whole walk's."""

from __future__ import annotations

import ast
import pathlib
import textwrap

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.flow.keys import KeyFlow
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text

CASES = pathlib.Path(__file__).parent / "regressions" / "cases"

SOURCE = textwrap.dedent(
    """
    import jax
    from jax import random

    module_key = random.PRNGKey(0)
    noise = random.normal(module_key, (3,))

    def returns_consumed(key):
        x = random.normal(key, (2,))
        return key

    def returns_pair(seed):
        key = random.key(seed)
        k1, k2 = random.split(key)
        y = random.uniform(k1)
        return y, k1, k2

    def returns_fresh(key):
        key, sub = random.split(key)
        return key

    def collides(key):
        a = random.split(key)
        b = random.fold_in(key, 1)
        return a, b

    def no_return(key):
        a = random.normal(key)
        b = random.normal(key)

    async def drawn_async(key):
        b = random.bits(key)
        return key

    def guarded(key, flag):
        if flag:
            x = random.normal(key)
            return key
        return None

    def outer(key):
        def inner(k):
            x = random.normal(k)
            return k
        y = random.normal(key)
        return inner

    class Model:
        def method(self, key):
            x = random.normal(key)
            return key

    if True:
        def nested_top(key):
            x = random.normal(key)
            return key
    """
)


def _flows(text: str) -> tuple[KeyFlow, KeyFlow]:
    """The whole walk's flow and the summary's, each on its own tree."""
    whole = KeyFlow(ModuleIndex(ast.parse(text)))
    return whole, KeyFlow(ModuleIndex(ast.parse(text)), reuses=False)


def _where(found: list) -> list[tuple]:
    """Reuses or collisions by name, kind and position (the nodes are of two trees)."""
    return [
        (
            f.name,
            getattr(f, "kind", ""),
            f.node.lineno,
            f.node.col_offset,
            getattr(f.first, "lineno", None),
            getattr(f, "how", ""),
        )
        for f in found
    ]


def test_returned_keys_walks_only_top_level_defs_that_return_a_consumed_key():
    whole, light = _flows(SOURCE)
    assert light.returned_keys == whole.returned_keys
    assert set(light.returned_keys) == {
        "returns_consumed",
        "returns_pair",
        "drawn_async",
        "guarded",
    }
    assert light.returned_keys["returns_pair"] == {1}
    # the other lists are walked for on the first question, and are the whole walk's
    assert _where(light.reuses) == _where(whole.reuses) != []
    assert _where(light.collisions) == _where(whole.collisions) != []
    assert light.returned_keys == whole.returned_keys


@pytest.mark.parametrize("path", sorted(CASES.glob("*.py")), ids=lambda p: p.name)
def test_regression_cases_give_the_whole_walks_answers(path):
    text = path.read_text(encoding="utf-8")
    try:
        whole, light = _flows(text)
    except SyntaxError:
        pytest.skip("not Python")
    assert light.returned_keys == whole.returned_keys
    assert _where(light.collisions) == _where(whole.collisions)
    assert _where(light.reuses) == _where(whole.reuses)


def _facts(settings: Settings, text: str = SOURCE) -> ModuleFacts:
    out: list[ModuleFacts] = []
    lint_text(text, "t.py", LintOptions(settings=settings), facts_out=out)
    return out[0]


def test_the_lint_walks_the_whole_module_only_for_a_rule_that_reads_reuses():
    assert not _facts(Settings()).key_reuses  # JAX201 and JAX203 are in preview
    assert _facts(Settings(preview=True)).key_reuses
    assert _facts(Settings(preview=True, select=("JAX203",))).key_reuses
    assert not _facts(Settings(preview=True, select=("JAX206",))).key_reuses
    # a facts object made elsewhere walks everything, as before
    assert ModuleFacts(ast.parse(SOURCE)).key_reuses


def test_a_summary_alone_walks_for_returned_keys_only(monkeypatch):
    """`summarize_text` (a file the project index summarises without linting it): no rule
    runs, so the key flow walks only for `returned_keys`, with the whole walk's answer."""
    from jaxlint import project_index

    asked: list[bool] = []
    real = KeyFlow.__init__

    def spy(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        asked.append(kwargs.get("reuses", args[8] if len(args) > 8 else True))
        real(self, *args, **kwargs)

    monkeypatch.setattr(KeyFlow, "__init__", spy)
    summary = project_index.summarize_text(SOURCE, "m.py", "m", False, ())
    assert asked == [False]
    whole = KeyFlow(ModuleIndex(ast.parse(SOURCE)))
    assert summary is not None
    assert summary.key_returns == {fn: sorted(p) for fn, p in sorted(whole.returned_keys.items())}
    assert summary.key_returns


def test_key_kind_of_a_module_without_key_flow_is_answered_at_once():
    """A module that calls no `jax.random` function (an inactive key flow) makes no key:
    `key_kind` (JAX206 asks it of every subscript and operand) answers None unasked."""
    text = "import numpy as np\nkey = np.zeros(2)\nx = key[0] + key\n"
    flow = KeyFlow(ModuleIndex(ast.parse(text)))
    assert not flow.active
    module = flow.index.tree
    subscript = module.body[2].value.left  # type: ignore[attr-defined]
    assert flow.key_kind(subscript) is None and flow.key_kind(subscript.value) is None
    assert not flow._kind_cache
    active = KeyFlow(ModuleIndex(ast.parse("import jax\nkey = jax.random.key(0)\nx = key[0]\n")))
    assert active.key_kind(active.index.tree.body[2].value.value) == ("typed", True)  # type: ignore[attr-defined]
