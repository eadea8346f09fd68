"""analysis/kinds.py: the value-kind lattice, annotation kinds, parameter kinds, and the
library facts table (one test per entry: its example stays silent, its twin still fires).

Why: "traced" is decided there; a tracing finding needs a proven array. Each library fact is
data, so each gets a test that can fail: the silent example is the false positive the fact
removes, the twin is the finding it must not cost.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.kinds import LIBRARY_FACTS, ValueKind, annotation_kind, join
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.rules import ALL_RULES
from tests.test_rule_examples import MARK

# the tracing rules, those in preview included (JAX101, JAX120: these kinds were made for them)
TRACING = frozenset(
    c for c in Settings(preview=True).selected_codes(ALL_RULES) if c.startswith("JAX1")
)


def _tracing(text: str) -> set[tuple[int, str]]:
    return {(d.line, d.code) for d in lint_text(text, "t.py", LintOptions(codes=TRACING))}


def _marked(text: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(text.splitlines(), start=1):
        m = MARK.search(line)
        if m:
            out |= {(i, c) for c in m.group(1).replace(",", " ").split()}
    return out


def test_join_is_a_lattice():
    A, S, C, U = ValueKind.ARRAY, ValueKind.STATIC, ValueKind.CONTAINER, ValueKind.UNKNOWN
    assert join([A, A]) is A
    assert join([A, S]) is U
    assert join([A, C]) is C
    assert join([S, U]) is U
    assert join([]) is U


@pytest.mark.parametrize(
    ("annotation", "entry", "kind"),
    [
        ("int", False, ValueKind.STATIC),
        ("int", True, ValueKind.UNKNOWN),  # a jit argument annotated int is still a tracer
        ("str | None", True, ValueKind.STATIC),
        ("Optional[str]", False, ValueKind.STATIC),
        ("tuple[int, ...]", False, ValueKind.STATIC),
        ("tuple[int, ...]", True, ValueKind.UNKNOWN),
        ("Sequence[int]", False, ValueKind.STATIC),
        ("Mode", True, ValueKind.STATIC),
        ("jax.Array", False, ValueKind.ARRAY),
        ("'jax.Array'", False, ValueKind.ARRAY),
        ("Float[Array, 'b n']", False, ValueKind.ARRAY),
        ("chex.Array", False, ValueKind.ARRAY),
        ("Callable[[int], int]", True, ValueKind.CALLABLE),
        ("Any", False, ValueKind.UNKNOWN),
        ("np.ndarray", False, ValueKind.UNKNOWN),
        ("Grid", False, ValueKind.STATIC),  # a NamedTuple of ints (v33 gyaradax)
        ("Grid", True, ValueKind.UNKNOWN),  # its int leaves are traced when passed to jit
        ("Named", True, ValueKind.STATIC),  # of strings: never traced
        ("Scaled", False, ValueKind.UNKNOWN),  # an array field
    ],
)
def test_annotation_kind(annotation: str, entry: bool, kind: ValueKind):
    src = textwrap.dedent(
        f"""
        import enum
        from typing import Any, Callable, NamedTuple, Optional, Sequence
        import chex
        import jax
        import numpy as np
        from jaxtyping import Array, Float

        class Mode(enum.Enum):
            A = 1

        class Grid(NamedTuple):
            nvpar: int
            nmu: int

        class Named(NamedTuple):
            axis: str

        class Scaled(NamedTuple):
            n: int
            scale: jax.Array

        def f(x: {annotation}):
            pass
        """
    )
    tree = ast.parse(src)
    index = ModuleIndex(tree)
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    assert annotation_kind(index, fn.args.args[0].annotation, entry=entry) is kind


def test_entry_parameter_kinds():
    src = textwrap.dedent(
        """
        import jax

        @jax.jit
        def f(x, mode: str, patch=4, eps=1e-6, scale: jax.Array = None):
            return x

        def g(y):
            return f(y, "a", eps=y)
        """
    )
    facts = ModuleFacts(ast.parse(src))
    fn = next(n for n in facts.index.functions if getattr(n, "name", "") == "f")
    levels = facts.function_facts(fn).levels
    assert levels["x"] == Level.TREE  # traced by jit; `y` at the caller is of unknown kind
    assert "mode" not in levels  # a str is never a jit argument
    assert "patch" not in levels  # its default: no caller passes it
    assert levels["eps"] >= Level.TREE  # a caller passes it
    assert levels["scale"] == Level.ARRAY  # annotated


@pytest.mark.parametrize(
    "fact", LIBRARY_FACTS, ids=[f"{f.library}:{f.what}:{f.name}" for f in LIBRARY_FACTS]
)
def test_library_fact(fact):
    assert fact.kind in ValueKind
    assert _tracing(fact.example) == _marked(fact.example), fact.why
    if fact.twin:
        want = _marked(fact.twin)
        assert want, "a twin marks what must still fire"
        assert _tracing(fact.twin) == want


SOFTMAX = """
import jax
import jax.numpy as jnp


@jax.jit
def softmax(x, axis=-1):
    last = axis == -1 or axis == x.ndim - 1
    if not last:
        x = jnp.moveaxis(x, axis, -1)
    return jax.nn.softmax(x)


print(softmax(jnp.ones((2, 3))).shape)
"""


def test_python_bool_or_still_runs_under_jit_after_fix(tmp_path):
    """Issue 23: a safe fix that rested on an unproven kind turned `axis == -1 or ...`
    (Python ints) into `jnp.logical_or(...)`, which breaks `if not last:` under jit."""
    fixed = fix_text(SOFTMAX, "softmax.py", LintOptions()).text
    assert "logical_or" not in fixed
    pytest.importorskip("jax")
    path = tmp_path / "softmax.py"
    path.write_text(fixed)
    run = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr
    assert "(2, 3)" in run.stdout


TREE_UTILS = """
import jax


def first_dim(tree):
    return jax.tree_util.tree_leaves(tree)[0].shape[0]


def get_dims(x) -> tuple[int, ...] | None:
    return getattr(x, "dims", None)


def total(tree) -> float:
    return sum(leaf.sum() for leaf in jax.tree_util.tree_leaves(tree))
"""

TRAIN = """
import jax

from pkg import tree_utils
from pkg.tree_utils import get_dims


@jax.jit
def split(tree, x):
    n = tree_utils.first_dim(tree) // 2
    a = jax.tree_util.tree_map(lambda v: v[:n], tree)
    dims = get_dims(x)
    if dims is not None and dims[0] == 2:
        x = x * 2
    if tree_utils.total(tree) > 0:  # error: JAX110
        x = -x
    return a, x
"""


def test_imported_helpers_returning_python_values(tmp_path, run_cli):
    """Issue 23 on the tuning half (learned_optimization `tree_utils.first_dim`, dynamiqs
    `get_dims`/`init_dims`): a project function in another module whose result is a Python
    value (a `.shape[0]` return, a `-> tuple[int, ...] | None` annotation) is not traced in
    its callers; one annotated `-> float` that sums arrays is (its twin)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tree_utils.py").write_text(TREE_UTILS)
    (pkg / "train.py").write_text(TRAIN)
    # JAX110 is in preview (docs/precision.md); the kinds are what this tests
    proc = run_cli(
        "check", "--format", "json", "--preview", "--select", "JAX1", "pkg", cwd=tmp_path
    )
    assert proc.returncode in (0, 1), proc.stderr
    import json

    got = {(d["location"]["row"], d["code"]) for d in json.loads(proc.stdout)}
    assert got == _marked(TRAIN)


WALSH = """
import jax


@jax.jit
def transform(x, small_n: int = 128):
    if small_n <= 1:  # error: JAX110
        raise ValueError(small_n)
    return x * small_n


@jax.jit
def pooled(x, window=2):
    return x[::window]
"""

WALSH_TEST = """
import jax.numpy as jnp

from pkg import walsh


def test_transform():
    for n in (2, 4):
        walsh.transform(jnp.ones(8), n)
    walsh.pooled(jnp.ones(8))
"""


def test_default_passed_by_another_module_is_traced(tmp_path, run_cli):
    """fedjax `walsh_hadamard_transform(x, small_n=2**7)` is `@jax.jit` with `small_n` not
    static, and its test passes it: TracerBoolConversionError (a TP of the tuning half). A
    default no module passes (`window`) stays a Python value."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "walsh.py").write_text(WALSH)
    (pkg / "walsh_test.py").write_text(WALSH_TEST)
    # JAX110 is in preview (docs/precision.md); the kinds are what this tests
    proc = run_cli(
        "check", "--format", "json", "--preview", "--select", "JAX1", "pkg", cwd=tmp_path
    )
    assert proc.returncode in (0, 1), proc.stderr
    import json

    got = {
        (d["location"]["row"], d["code"])
        for d in json.loads(proc.stdout)
        if d["filename"].endswith("walsh.py")
    }
    assert got == _marked(WALSH)
