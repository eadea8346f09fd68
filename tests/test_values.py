"""Value kinds (analysis/values.py): what a name holds where it is used, from evidence only."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.values import Kind, assigned_value, resolved


def _kind_of_last_use(src: str, name: str) -> Kind:
    tree = ast.parse(textwrap.dedent(src))
    facts = ModuleFacts(tree)
    facts.index  # noqa: B018 - parent links
    uses = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    last = max(uses, key=lambda n: (n.lineno, n.col_offset))
    return facts.values.of(last)


@pytest.mark.parametrize(
    "src,name,kind",
    [
        ("import jax.numpy as jnp\nx = jnp.zeros(3)\nx", "x", Kind.ARRAY),
        ("import numpy as np\nx = np.zeros(3)\nx", "x", Kind.NDARRAY),
        ("x = {}\nx", "x", Kind.DICT),
        ("import jax\nk = jax.random.key(0)\nk", "k", Kind.KEY),
        ("import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(1.0)\nx", "x", Kind.ARRAY),
        # a dict stays a dict through collectives and tree_map
        (
            "from jax import lax\nd = {'a': 1.0}\nd = lax.pmean(d, 'i')\nd",
            "d",
            Kind.DICT,
        ),
        ("import jax\nd = jax.tree.map(lambda a: a, {'a': 1.0})\nd", "d", Kind.DICT),
        # the aux of grad(has_aux=True) is what the function returns second
        (
            "import jax\ng, aux = jax.grad(lambda w: (w, {'l': w}), has_aux=True)(1.0)\naux",
            "aux",
            Kind.DICT,
        ),
        (
            "import jax\n(v, aux), g = jax.value_and_grad(lambda w: (w, [w]), has_aux=True)(1.0)\naux",
            "aux",
            Kind.LIST,
        ),
        # rebound in a branch: the join of both
        ("import jax.numpy as jnp\nx = {}\nif c:\n    x = jnp.zeros(3)\nx", "x", Kind.UNKNOWN),
        # the binding that reaches the use, not the first one
        ("import jax.numpy as jnp\nx = {}\nx = jnp.zeros(3)\nx", "x", Kind.ARRAY),
        # a parameter is unknown; arithmetic on a traced one is an array
        ("def f(p):\n    return p", "p", Kind.UNKNOWN),
        (
            "import jax\n@jax.jit\ndef f(p):\n    q = p * 2\n    return q",
            "q",
            Kind.ARRAY,
        ),
        ("class B:\n    pass\nb = B()\nb", "b", Kind.OBJECT),
        ("def mk():\n    return {}\nd = mk()\nd", "d", Kind.DICT),
        # a later binding in the loop reaches the use on the next iteration
        (
            "import jax.numpy as jnp\nx = jnp.zeros(3)\nfor i in r:\n    x\n    x = {}\n",
            "x",
            Kind.UNKNOWN,
        ),
        # jnp.split returns a Python list of arrays: the list is a list, its parts arrays
        ("import jax.numpy as jnp\nparts = jnp.split(x, 2)\nparts", "parts", Kind.LIST),
        ("import jax.numpy as jnp\nxs = jnp.unstack(x)\nxs", "xs", Kind.TUPLE),
        ("import jax.numpy as jnp\na, b = jnp.array_split(x, 2)\na", "a", Kind.ARRAY),
    ],
)
def test_kinds(src, name, kind):
    assert _kind_of_last_use(src, name) == kind


def test_assigned_value_and_resolved():
    """The one assignment a name has, followed through names three steps; the sharding rules
    (specs, meshes) and JAX803 (shardings) read names this way."""
    src = "a = P('x')\nb = a\nc = b\nd = c\ne = d\ndef f(p):\n    g: int = 1\n    return p, g\n"
    tree = ast.parse(src)
    facts = ModuleFacts(tree)
    index = facts.index
    loads = {n.id: n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id != "P"}
    assert isinstance(assigned_value(index, loads["a"]), ast.Call)
    assert assigned_value(index, loads["p"]) is None  # a parameter
    assert isinstance(assigned_value(index, loads["g"]), ast.Constant)  # annotated
    assert isinstance(resolved(index, loads["c"]), ast.Call)  # c -> b -> a -> P(...)
    deep = resolved(index, loads["e"])  # e -> d -> c -> b: three steps, then the name
    assert isinstance(deep, ast.Name) and deep.id == "b"
    assert resolved(index, loads["p"]) is None
    call = tree.body[0].value
    assert resolved(index, call) is call and resolved(index, None) is None


def test_a_chain_of_guarded_rebindings_is_answered_in_linear_steps(monkeypatch):
    """`if flag: cfg = cfg._replace(...)` twenty-five times in one function (v37
    MarcusRobbins/drone train_live.py): each load is reached by two bindings and each binding
    reads the load before it, so joining every binding of the scope, unremembered, made a
    question visit 25**12 expressions and the linter never finished. The use-def map's
    reaching bindings and the answers remembered per name and depth keep it to a few
    thousand visits (counted, not timed); the kind itself stays what the evidence says."""
    import jaxlint.analysis.values as values

    visits = 0
    visit = values.ValueKinds._of

    def counting(self, node, depth):  # noqa: ANN001, ANN202
        nonlocal visits
        visits += 1
        return visit(self, node, depth)

    monkeypatch.setattr(values.ValueKinds, "_of", counting)
    for n, kind in ((5, Kind.ARRAY), (25, Kind.UNKNOWN)):  # past the depth limit: unknown
        lines = ["import jax.numpy as jnp", "", "def build(args):", "    cfg = jnp.zeros(3)"]
        lines += [f"    if args.f{i}: cfg = cfg + float(args.f{i})" for i in range(n)]
        lines.append("    cfg")
        visits = 0
        assert _kind_of_last_use("\n".join(lines) + "\n", "cfg") is kind
        assert visits < 5_000


def test_a_question_past_its_budget_proves_nothing(monkeypatch):
    """The budget of one question (`_STEPS_PER_QUESTION`) ends it with UNKNOWN, never with a
    kind the unvisited expressions might contradict."""
    import jaxlint.analysis.values as values

    monkeypatch.setattr(values, "_STEPS_PER_QUESTION", 3)
    src = "import jax.numpy as jnp\nx = jnp.zeros(3)\ny = x + x\nz = y * 2\nz\n"
    assert _kind_of_last_use(src, "z") is Kind.UNKNOWN
