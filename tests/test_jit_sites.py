"""`analysis/jit_sites.py`: the jit model read from module facts alone (no rule context).

The compile, benchmarking and dtype rules all ask which jit application a call runs; the answer
is a fact of the module, computed once per call and shared by every rule that asks.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.jit_sites import fresh_callable, jit_application, jitted_callee
from tests.conftest import snippet

CODE = """
import functools
import jax

@functools.partial(jax.jit, static_argnames=("n",), donate_argnums=0)
def step(x, n):
    return x * n

g = jax.jit(lambda v, k: v + k, static_argnums=1)

class Model:
    def __init__(self, fn):
        self.apply = jax.jit(fn)

    @jax.jit
    def forward(self, x):
        return x

    def run(self, x):
        return self.apply(x) + self.forward(x)

def main(x):
    for _ in range(10):
        x = step(x, n=3) + g(x, 2)
        y = jax.jit(lambda v: v + 1)(x)
    return x, y
"""


def _facts() -> ModuleFacts:
    return ModuleFacts(ast.parse(snippet(CODE)))


def _calls(facts: ModuleFacts) -> dict[str, ast.Call]:
    out = {}
    for node in ast.walk(facts.tree):
        if isinstance(node, ast.Call):
            out.setdefault(ast.unparse(node.func), node)
    return out


def test_static_and_donated_arguments_of_a_decorated_def():
    facts = _facts()
    call = _calls(facts)["step"]
    spec = jitted_callee(facts, call)
    assert spec is not None and spec.qualname == "jax.jit" and spec.name == "step"
    assert spec.donates and not spec.unknown_static
    assert [(p, ast.unparse(a)) for p, a in spec.static_arguments(call)] == [("n", "3")]


def test_assigned_jit_and_methods_called_through_self():
    facts = _facts()
    calls = _calls(facts)
    g = jitted_callee(facts, calls["g"])
    assert g is not None and g.name == "<lambda>"
    assert [p for p, _ in g.static_arguments(calls["g"])] == ["k"]
    apply = jitted_callee(facts, calls["self.apply"])
    assert apply is not None and apply.fn is None  # `jax.jit(fn)`: the function is a parameter
    forward = jitted_callee(facts, calls["self.forward"])
    assert forward is not None and forward.self_passed and forward.name == "forward"


def test_one_answer_per_call_shared_by_the_rules():
    facts = _facts()
    call = _calls(facts)["step"]
    assert jitted_callee(facts, call) is jitted_callee(facts, call)


def test_a_lambda_jitted_in_place_is_a_fresh_callable():
    facts = _facts()
    call = _calls(facts)["jax.jit(lambda v: v + 1)"]
    app = jit_application(facts.index, call.func)
    assert app is not None and app[0] == "jax.jit"
    assert fresh_callable(facts, app[2]) == ("a lambda", "fn")


def test_donated_arguments_map_positions_and_names_through_the_signature():
    """`jax.jit` donates by position or by name, and maps each onto the other through the
    signature (checked on JAX 0.12.1: `f(a=x)` with `donate_argnums=0` deletes `x`)."""
    facts = ModuleFacts(
        ast.parse(
            snippet(
                """
                import jax

                def sgd(params, grads, lr):
                    return params - lr * grads

                by_num = jax.jit(sgd, donate_argnums=(0,))
                by_name = jax.jit(sgd, donate_argnames="grads")
                unknown = jax.jit(sgd, donate_argnums=WHICH)

                by_num(p, g, 0.1)
                by_num(params=p, grads=g, lr=0.1)
                by_name(p, g, 0.1)
                unknown(p, g, 0.1)
                """
            )
        )
    )
    calls = [n for n in ast.walk(facts.tree) if isinstance(n, ast.Call)]
    found = {}
    for call in calls:
        spec = jitted_callee(facts, call)
        if spec is not None:
            found[ast.unparse(call)] = [
                (p, ast.unparse(a)) for p, a in spec.donated_arguments(call)
            ]
    assert found == {
        "by_num(p, g, 0.1)": [("params", "p")],
        "by_num(params=p, grads=g, lr=0.1)": [("params", "p")],
        "by_name(p, g, 0.1)": [("grads", "g")],
        "unknown(p, g, 0.1)": [],  # not written literally: nothing is known to be donated
    }


def test_a_name_rebound_to_its_jit_is_resolved_by_the_use_def_map():
    """`def fn` then `fn = jax.jit(fn, donate_argnums=1)`: two bindings of one name; the call
    after the rebinding runs the jit (jax-ml/jax#16906's repro), the one before runs the def."""
    facts = ModuleFacts(
        ast.parse(
            snippet(
                """
                import jax

                def fn(x, y):
                    return x, y

                fn(1, 2)
                fn = jax.jit(fn, donate_argnums=1)
                fn(3, 4)
                """
            )
        )
    )
    calls = {ast.unparse(n): n for n in ast.walk(facts.tree) if isinstance(n, ast.Call)}
    assert jitted_callee(facts, calls["fn(1, 2)"]) is None
    spec = jitted_callee(facts, calls["fn(3, 4)"])
    assert spec is not None and spec.name == "fn"
    assert [p for p, _ in spec.donated_arguments(calls["fn(3, 4)"])] == ["y"]
