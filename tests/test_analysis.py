"""Unit tests of the shared evidence model (jaxlint/analysis): which functions are traced and
how, which values are traced, PRNG key flow, and module-level writes."""

from __future__ import annotations

import ast

import pytest

from jaxlint.analysis import Level, ModuleFacts
from jaxlint.analysis.jax_api import NUMPY_DISPATCHING
from tests.conftest import snippet


def facts_of(text: str, jit_decorators: tuple[str, ...] = ()) -> ModuleFacts:
    return ModuleFacts(ast.parse(snippet(text)), jit_decorators)


def fn(facts: ModuleFacts, name: str) -> ast.AST:
    for node in ast.walk(facts.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    raise LookupError(name)


def lambdas(facts: ModuleFacts) -> list[ast.Lambda]:
    return [n for n in ast.walk(facts.tree) if isinstance(n, ast.Lambda)]


def traced(facts: ModuleFacts, name: str) -> set[str] | None:
    f = facts.function_facts(fn(facts, name))
    return None if f is None else set(f.traced_params)


def store_level(facts: ModuleFacts, function: str, var: str) -> Level:
    """Level bound to `var` by its first assignment inside `function`."""
    stores = [
        n
        for n in ast.walk(fn(facts, function))
        if isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Store)
    ]
    stores.sort(key=lambda n: (n.lineno, n.col_offset))
    return facts.taint.level(stores[0])


def name_level(facts: ModuleFacts, function: str, var: str, nth: int = 0) -> Level:
    """Level of the nth load of `var` inside `function`."""
    loads = [
        n
        for n in ast.walk(fn(facts, function))
        if isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Load)
    ]
    loads.sort(key=lambda n: (n.lineno, n.col_offset))
    return facts.taint.level(loads[nth])


def expr_level(facts: ModuleFacts, source: str) -> Level:
    """Level of the first expression whose source text is `source`."""
    text = snippet_text(facts)
    for node in ast.walk(facts.tree):
        if isinstance(node, ast.expr) and ast.get_source_segment(text, node) == source:
            return facts.taint.level(node)
    raise LookupError(source)


def snippet_text(facts: ModuleFacts) -> str:
    return facts._text  # type: ignore[attr-defined]


def facts_with_text(text: str, jit_decorators: tuple[str, ...] = ()) -> ModuleFacts:
    facts = facts_of(text, jit_decorators)
    facts._text = snippet(text)  # type: ignore[attr-defined]
    return facts


# -- transforms: which functions are traced, and which parameters stay static ------------------


@pytest.mark.parametrize(
    "decorator,expected",
    [
        ("@jax.jit", {"x", "n"}),
        ("@partial(jax.jit, static_argnums=(1,))", {"x"}),
        ("@partial(jax.jit, static_argnums=-1)", {"x"}),
        ("@partial(jax.jit, static_argnums=5)", {"x", "n"}),  # a wrong index makes nothing static
        ("@jax.jit(static_argnames='n')", {"x"}),
        ("@J", {"x", "n"}),
        ("@jit_alias", {"x", "n"}),
        ("@my_jit", {"x"}),
        # a filter transform hands non-arrays through: a parameter is traced only with
        # evidence (an annotation, a caller passing an array, a use as an array), and `f`
        # below has none (kinds.ParamKinds._filtered_kind)
        ("@nnx.jit", set()),
        ("@eqx.filter_jit", set()),
        ("@jax.checkpoint", {"x", "n"}),
    ],
)
def test_jit_decorators_and_static_arguments(decorator, expected):
    facts = facts_of(
        f"""
        import jax
        import equinox as eqx
        from flax import nnx
        from functools import partial
        from jax import jit as J

        jit_alias = jax.jit
        my_jit = partial(jax.jit, static_argnums=1)

        {decorator}
        def f(x, n):
            return x
        """
    )
    assert traced(facts, "f") == expected
    assert facts.function_facts(fn(facts, "f")).is_jit


def test_unknown_static_arguments_make_the_function_silent():
    facts = facts_of(
        """
        import jax
        from functools import partial

        @partial(jax.jit, static_argnums=NUMS)
        def f(x, n):
            return x
        """
    )
    f = facts.function_facts(fn(facts, "f"))
    assert f.unknown_static and not f.is_jit


def test_filter_jit_python_scalars_are_static():
    facts = facts_of(
        """
        import equinox as eqx

        @eqx.filter_jit
        def f(x, n: int, flag=True, *, mode: str = "a"):
            return x.sum()
        """
    )
    assert traced(facts, "f") == {"x"}  # `x.sum()`: used as an array


def test_bare_vmap_in_axes_none_is_static_but_not_under_jit():
    facts = facts_of(
        """
        import jax
        from functools import partial

        @partial(jax.vmap, in_axes=(0, None))
        def bare(v, n):
            return v

        def inner(v, n):
            return v

        both = jax.jit(jax.vmap(inner, in_axes=(0, None)))
        g = jax.vmap(lambda v, n: v, (0, None))
        """
    )
    assert traced(facts, "bare") == {"v"}
    assert traced(facts, "inner") == {"v", "n"}
    lam = lambdas(facts)[0]
    assert facts.function_facts(lam).traced_params == {"v"}


@pytest.mark.parametrize(
    "call,names",
    [
        ("lax.scan(body, 0.0, xs)", {"body": {"carry", "x"}}),
        ("lax.fori_loop(0, 10, body, 0.0)", {"body": {"carry", "x"}}),
        ("lax.while_loop(cond, body, 0.0)", {"cond": {"c"}, "body": {"carry", "x"}}),
        ("lax.cond(p, body, other, 1.0, 2.0)", {"body": {"carry", "x"}, "other": {"a", "b"}}),
        ("lax.switch(i, [body, other], 1.0, 2.0)", {"body": {"carry", "x"}, "other": {"a", "b"}}),
        ("lax.map(cond, xs)", {"cond": {"c"}}),
        ("nnx.scan(body)", {"body": {"carry", "x"}}),
    ],
)
def test_control_flow_bodies_are_traced(call, names):
    facts = facts_of(
        f"""
        from jax import lax
        from flax import nnx

        def run(xs, p, i):
            def body(carry, x):
                return carry, x

            def other(a, b):
                return a

            def cond(c):
                return c

            return {call}
        """
    )
    for name, params in names.items():
        f = facts.function_facts(fn(facts, name))
        assert f is not None and f.is_jit and f.traced_params == params, name
    assert facts.function_facts(fn(facts, "run")) is None


def test_lambda_bodies_and_closures_are_traced():
    facts = facts_with_text(
        """
        import jax
        from jax import lax

        @jax.jit
        def f(x, n):
            total = lax.fori_loop(0, n, lambda i, acc: acc + x[i], 0.0)
            return lax.cond(x.sum() > 0, lambda: x * 2, lambda: x)
        """
    )
    for lam in lambdas(facts):
        assert facts.function_facts(lam).is_jit
    assert expr_level(facts, "acc + x[i]") == Level.ARRAY
    assert expr_level(facts, "x * 2") == Level.ARRAY


def test_user_configured_jit_decorators():
    text = """
        import mylib

        @mylib.compiled
        def f(x):
            return x
        """
    assert traced(facts_of(text), "f") is None
    assert traced(facts_of(text, ("mylib.compiled",)), "f") == {"x"}


def test_module_methods_are_traced_with_medium_confidence():
    facts = facts_of(
        """
        import equinox as eqx
        import flax.linen as nn
        from flax import nnx

        class Base(nn.Module):
            pass

        class Block(Base):
            def __call__(self, x, train: bool = False):
                return x

        class Dense(nn.Module):
            @nn.compact
            def apply_it(self, x):
                return x

        class E(eqx.Module):
            def __call__(self, x):
                return x

        class N(nnx.Module):
            def __call__(self, x):
                return x

        class Plain:
            def __call__(self, x):
                return x
        """
    )
    for name in ("__call__", "apply_it"):
        for node in ast.walk(facts.tree):
            if isinstance(node, ast.ClassDef):
                method = next((m for m in node.body if getattr(m, "name", "") == name), None)
                if method is None:
                    continue
                f = facts.function_facts(method)
                if node.name == "Plain":
                    assert f is None
                else:
                    assert f.confidence == "medium" and f.traced_params == {"x"}, node.name


def test_grad_only_context_traces_only_argnums():
    facts = facts_of(
        """
        import jax

        def loss(w, n):
            return w

        def loss2(w, n):
            return w

        def loss3(w, n):
            return w

        g = jax.grad(loss)
        h = jax.value_and_grad(loss2, argnums=(0, 1))
        k = jax.jit(jax.grad(loss3))
        """
    )
    f = facts.function_facts(fn(facts, "loss"))
    assert f.is_grad and not f.is_jit and f.traced_params == {"w"}
    assert traced(facts, "loss2") == {"w", "n"}
    f3 = facts.function_facts(fn(facts, "loss3"))
    assert f3.is_jit and f3.traced_params == {"w", "n"}


def test_grad_inside_jit_becomes_jit_with_all_arguments_traced():
    facts = facts_of(
        """
        import jax

        def loss_fn(params, labels):
            return params

        @jax.jit
        def train_step(params, labels):
            return jax.grad(loss_fn)(params, labels)
        """
    )
    f = facts.function_facts(fn(facts, "loss_fn"))
    assert f.is_jit and f.traced_params == {"params", "labels"}
    assert f.describe() == "traced via train_step() -> loss_fn()"


def test_helpers_become_traced_with_a_call_chain():
    facts = facts_of(
        """
        import jax

        def normalize(v, eps):
            return v / eps

        def prepare(x):
            return normalize(x, 1e-6)

        @jax.jit
        def step(x):
            return prepare(x)

        def unrelated(x):
            return normalize(x, 1.0)
        """
    )
    f = facts.function_facts(fn(facts, "normalize"))
    assert f.confidence == "medium" and f.traced_params == {"v"}
    assert f.describe() == "traced via step() -> prepare() -> normalize()"
    assert facts.function_facts(fn(facts, "unrelated")) is None


def test_a_helper_reached_two_ways_names_the_same_chain_every_time():
    # `step` reaches `helper` through `first` and through `second`, found in the same pass;
    # the chain must not depend on the (id-based) order of a set of AST nodes
    source = """
        import jax

        @jax.jit
        def step(x):
            return first(x) + second(x)

        def second(x):
            return helper(x)

        def first(x):
            return helper(x)

        def helper(x):
            return x * 2
        """
    chains = set()
    junk = []
    for i in range(40):
        junk.append([object() for _ in range(i % 7 * 5)])  # move the nodes' ids around
        facts = facts_of(source)
        chains.add(facts.function_facts(fn(facts, "helper")).chain)
    assert chains == {("step", "second", "helper")}  # the caller defined first


def test_methods_called_through_self_and_bound_method_transforms():
    facts = facts_of(
        """
        import jax
        from functools import partial

        class Learner:
            def _loss(self, theta, batch):
                return theta

            def _helper(self, y):
                return y

            @partial(jax.jit, static_argnums=0)
            def update(self, params, batch):
                g = jax.grad(self._loss)(params, batch)
                return self._helper(g)
        """
    )
    assert traced(facts, "_loss") == {"theta", "batch"}
    assert traced(facts, "_helper") == {"y"}
    assert traced(facts, "update") == {"params", "batch"}


def test_host_callbacks_are_never_traced():
    facts = facts_of(
        """
        import jax

        def host_fn(a):
            return float(a)

        @jax.jit
        def f(x):
            return jax.pure_callback(host_fn, x, x) + jax.debug.callback(lambda v: print(v), x)
        """
    )
    assert facts.function_facts(fn(facts, "host_fn")) is None
    assert all(facts.function_facts(lam) is None for lam in lambdas(facts))


def test_compiled_and_traced_callee():
    facts = facts_of(
        """
        import jax

        @jax.jit
        def f(x):
            def inner(y):
                return y
            return inner(x)

        def g(x):
            return x

        def h(x):
            return x

        vg = jax.vmap(g)
        vh = jax.vmap(h)
        jh = jax.jit(h)
        jh(1.0)
        """
    )
    traced = facts.traced
    assert traced.compiled(fn(facts, "f")) and traced.compiled(fn(facts, "inner"))
    assert not traced.compiled(fn(facts, "g"))  # only bare vmap: re-traced every call
    assert traced.compiled(fn(facts, "h"))
    call = next(c for c in facts.index.calls if getattr(c.func, "id", "") == "jh")
    assert traced.traced_callee(call) is fn(facts, "h")


# -- taint: traced values and the never-traced accessors ------------------------------------------


def test_never_traced_accessors():
    facts = facts_with_text(
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        TABLE = np.arange(4.0)

        @jax.jit
        def f(x, m=None):
            a = x.shape[0] + x.ndim + x.size + len(x)
            b = x.dtype
            c = jnp.finfo(x.dtype).eps
            d = m is None
            e = isinstance(x, jax.Array)
            g = type(x)
            h = jax.process_index() + jax.device_count()
            i = np.sin(TABLE)
            j = x.sharding
            k = jnp.shape(x)[0]
            return x * 2
        """
    )
    for var in "abcdeghijk":
        assert store_level(facts, "f", var) == Level.NONE, var
    assert expr_level(facts, "x * 2") == Level.ARRAY


def test_numpy_method_dispatch_allow_list():
    assert {"sum", "mean", "max", "min", "prod", "std", "var", "argmax", "cumsum"} <= (
        NUMPY_DISPATCHING
    )
    assert not {"sin", "asarray", "array", "where", "take"} & NUMPY_DISPATCHING
    # `_wrapfunc` hands these to the array's own method (t5x's `np.repeat(tracer, ...)`);
    # these others convert with `__array__` first (checked under jit on JAX 0.12, NumPy 2.5)
    assert {"repeat", "swapaxes", "searchsorted"} <= NUMPY_DISPATCHING
    assert not {"argsort", "clip", "sort", "ravel", "nonzero", "diagonal"} & NUMPY_DISPATCHING


def test_string_and_none_comparisons_are_static():
    facts = facts_with_text(
        """
        import jax

        @jax.jit
        def f(x, mode):
            a = mode == "relu"
            b = x == None
            c = x > 0
            return a, b, c
        """
    )
    assert name_level(facts, "f", "a") == Level.NONE
    assert name_level(facts, "f", "b") == Level.NONE
    assert name_level(facts, "f", "c") == Level.ARRAY


def test_concreteness_guards_silence_the_guarded_code():
    facts = facts_with_text(
        """
        import jax
        from jax import core

        def not_jax_tracer(v):
            return not isinstance(v, core.Tracer)

        @jax.jit
        def f(i, x, y):
            init = not_jax_tracer(i) and i > 3
            if isinstance(x, core.Tracer):
                a = x
            else:
                b = x > 0
            try:
                c = float(y)
            except jax.errors.ConcretizationTypeError:
                c = y
            return init, a, b, c
        """
    )
    assert expr_level(facts, "i > 3") == Level.NONE
    assert expr_level(facts, "x > 0") == Level.NONE
    assert expr_level(facts, "float(y)") == Level.NONE
    assert name_level(facts, "f", "a") == Level.TREE


def test_tree_map_with_a_static_function_is_static():
    facts = facts_with_text(
        """
        import jax

        def _is_none(v):
            return v is None

        @jax.jit
        def f(tree):
            flags = jax.tree.map(_is_none, tree)
            doubled = jax.tree.map(lambda v: v * 2, tree)
            leaves = jax.tree.leaves(tree)
            return flags, doubled, leaves
        """
    )
    assert name_level(facts, "f", "flags") == Level.NONE
    assert name_level(facts, "f", "doubled") >= Level.TREE
    assert name_level(facts, "f", "leaves") == Level.CONTAINER


def test_helper_return_with_static_arguments_is_static():
    facts = facts_with_text(
        """
        import jax

        def double(v):
            return v * 2

        @jax.jit
        def f(x):
            y = double(x)
            n = double(3)
            return y, n
        """
    )
    assert name_level(facts, "f", "y") == Level.ARRAY
    assert name_level(facts, "f", "n") == Level.NONE


def test_containers_passed_to_helpers_are_pytrees_of_tracers():
    facts = facts_of(
        """
        import jax

        def to_host(tree):
            return tree

        @jax.vmap
        def f(x):
            return to_host({"y": x * 2})
        """
    )
    assert traced(facts, "to_host") == {"tree"}


def test_nested_function_closing_over_tracers_is_traced_when_called():
    facts = facts_with_text(
        """
        import jax

        @jax.jit
        def f(x):
            def positive():
                return x > 0
            return positive()
        """
    )
    assert facts.function_facts(fn(facts, "positive")).is_jit
    assert expr_level(facts, "x > 0") == Level.ARRAY


def test_filtered_transforms_treat_fields_as_possibly_static():
    facts = facts_with_text(
        """
        import jax
        import equinox as eqx

        @eqx.filter_jit
        def solve(solver, y0: jax.Array):
            a = solver.order > 2
            return a, y0 > 0

        @jax.jit
        def step(state, y0):
            b = state.step > 2
            return b
        """
    )
    assert name_level(facts, "solve", "a") == Level.NONE
    assert expr_level(facts, "y0 > 0") == Level.ARRAY
    # under jax.jit an attribute of an argument of unknown class may be auxiliary data
    assert name_level(facts, "step", "b") == Level.FIELD


def test_attributes_of_traced_pytrees_are_leaves_only_when_a_class_says_so():
    """`state.step` is traced when a pytree class of the module declares `step` a leaf
    (flax struct, register_dataclass, NamedTuple, an equinox Module, a property computed from
    leaves); of unknown kind (FIELD, silent) otherwise, and for a flax Module's fields or a
    plain dataclass (no pytree), whose fields are configuration."""
    facts = facts_with_text(
        """
        import dataclasses
        from typing import NamedTuple
        import jax
        import jax.numpy as jnp
        import flax.linen as nn
        from flax import struct

        @struct.dataclass
        class State:
            step: int
            params: dict
            size: int = struct.field(pytree_node=False)

            @property
            def scaled(self):
                return self.step * 2

        class Batch(NamedTuple):
            image: jax.Array

        class Net(nn.Module):
            width: int

        @dataclasses.dataclass
        class Plain:
            depth: int

        @jax.jit
        def step(state, batch, other):
            a = state.step > 2
            b = state.size > 2
            c = batch.image > 0
            d = state.scaled > 1
            e = other.width > 1
            f = other.depth > 1
            g = other.unknown.step > 1
            h = jnp.sum(other.width)
            return a, b, c, d, e, f, g, h
        """
    )
    assert name_level(facts, "step", "a") == Level.ARRAY
    assert name_level(facts, "step", "b") == Level.NONE
    assert name_level(facts, "step", "c") == Level.ARRAY
    assert name_level(facts, "step", "d") == Level.ARRAY
    assert name_level(facts, "step", "e") == Level.FIELD
    assert name_level(facts, "step", "f") == Level.FIELD
    assert name_level(facts, "step", "g") == Level.FIELD
    assert name_level(facts, "step", "h") == Level.ARRAY  # a jnp result is traced under jit


def test_boolean_masks():
    facts = facts_with_text(
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        MASK = np.array([True, False])

        @jax.jit
        def f(x, i):
            valid = ~jnp.isnan(x)
            both = (x > 0) & valid
            return x[valid], x[both], x[i], x[MASK], x[(x > 0).astype(bool)], x[jnp.argmax(x)]
        """
    )
    taint = facts.taint
    subs = sorted(
        (n for n in ast.walk(fn(facts, "f")) if isinstance(n, ast.Subscript)),
        key=lambda n: n.col_offset,
    )
    assert [taint.is_bool_mask(s.slice) for s in subs] == [True, True, False, False, True, False]


def test_mask_parameters_of_helpers():
    facts = facts_of(
        """
        import jax

        def masked_mean(x, mask, idx):
            return x[mask].mean() + x[idx]

        @jax.jit
        def f(x, i):
            return masked_mean(x, x > 0, i) + masked_mean(x, ~(x > 1), i + 1)
        """
    )
    taint = facts.taint
    subs = [n for n in ast.walk(fn(facts, "masked_mean")) if isinstance(n, ast.Subscript)]
    flags = {ast.unparse(s.slice): taint.is_bool_mask(s.slice) for s in subs}
    assert flags == {"mask": True, "idx": False}


# -- keys: PRNG key def-use chains -------------------------------------------------------------


def reuse_lines(text: str) -> list[tuple[int, str]]:
    facts = facts_of(text)
    return sorted((r.node.lineno, r.kind) for r in facts.keys.reuses)


def test_key_reuse_paths():
    assert reuse_lines(
        """
        import jax

        def f(key, flag):
            if flag:
                a = jax.random.normal(key)
            else:
                a = jax.random.uniform(key)
            b = jax.random.normal(key)
            k1, k2 = jax.random.split(key)
            return a, b, jax.random.normal(k1), jax.random.normal(k2)
        """
    ) == [(8, "twice"), (9, "twice")]


def test_key_reuse_in_loops_and_comprehensions():
    assert reuse_lines(
        """
        import jax

        def f(key, shapes, pkey):
            for _ in range(3):
                key, sub = jax.random.split(key)
                x = jax.random.normal(sub)
            for i in range(3):
                y = jax.random.normal(jax.random.fold_in(key, i))
            same = [jax.random.normal(key, (3,)) for _ in shapes]
            fresh = [jax.random.normal(k) for k in jax.random.split(key, 3)]
            per_shape = [jax.random.normal(pkey, s) for s in shapes]
            return x, y, same, fresh, per_shape
        """
    ) == [(9, "loop"), (10, "twice"), (11, "loop")]  # per-shape draws kept in a list: reuse


def test_key_reuse_follows_the_shared_walker():
    # control flow is analysis/flow/walker.py's: a path that leaves the loop body by `continue`
    # or `break` reaches the loop's exit, an `except` handler's consumptions flow on and it may
    # start before the body rebinds a key, and code after a `try` that always ends is dead
    # (before the port: the first three were missed, the last one reported)
    assert reuse_lines(
        """
        import jax

        def loops(key, xs):
            for x in xs:
                key, sub = jax.random.split(key)
                if x:
                    print(jax.random.normal(sub))  # read: not a dead first use
                    continue
            return jax.random.uniform(sub)

        def handler(key):
            try:
                x = 1
            except ValueError:
                x = jax.random.uniform(key)
            return x, jax.random.normal(key)

        def mid_body(key):
            print(jax.random.normal(key))
            try:
                key, sub = jax.random.split(key)
            except ValueError:
                b = jax.random.uniform(key)
                print(b)  # read: a dead later use is no reuse either
            return sub

        def dead(key):
            try:
                return jax.random.normal(key)
            except ValueError:
                raise
            jax.random.uniform(key)

        def test(key):
            while jax.random.uniform(key) < 0.5:
                pass
        """
    ) == [(9, "twice"), (16, "twice"), (21, "twice"), (23, "twice")]


def test_per_configuration_draws_used_within_the_iteration():
    assert (
        reuse_lines(
            """
        import jax

        def bench(key, shapes):
            for s in shapes:
                x = jax.random.normal(key, s)
                print(s, (x * 2).sum())

        def sums(key, shapes):
            return [float(jax.random.normal(key, s).sum()) for s in shapes]
        """
        )
        == []
    )


def test_indexed_keys_and_helpers():
    assert reuse_lines(
        """
        import jax

        def init(key, shape):
            return jax.random.normal(key, shape)

        def data(key):
            return jax.random.normal(key, (3,))

        def f(key, dkey):
            keys = jax.random.split(key, 3)
            a = jax.random.normal(keys[0])
            b = jax.random.normal(keys[1])
            c = jax.random.normal(keys[0])
            w = init(keys[2], (2,))
            d1 = data(dkey)
            d2 = data(dkey)
            v = init(keys[2], (3,))
            return a, b, c, w, d1, d2, v
        """
    ) == [(13, "twice"), (17, "twice")]


def test_split_fold_in_collisions():
    facts = facts_of(
        """
        import jax

        def f(key, step, flag):
            a = jax.random.fold_in(key, step)
            b, c = jax.random.split(key)
            d = jax.random.fold_in(c, 1)
            e = jax.random.fold_in(c, 2)
            g = jax.random.fold_in(c, 1)
            key = jax.random.fold_in(key, 7)
            h = jax.random.split(key) if flag else jax.random.fold_in(key, 0)
            return a, b, d, e, g, h
        """
    )
    assert sorted((c.node.lineno, c.first.lineno) for c in facts.keys.collisions) == [
        (5, 4),
        (8, 6),
    ]


def test_constant_seeds_in_loops():
    facts = facts_of(
        """
        import jax

        def f(seeds, n, seed):
            for s in seeds:
                a = jax.random.normal(jax.random.key(s))
            for i in range(n):
                k = jax.random.key(seed)
                b = jax.random.normal(k)
            for i in range(n):
                k = jax.random.key(0)
                k = jax.random.fold_in(k, i)
                c = jax.random.normal(k)
            while n:
                d = jax.random.split(jax.random.PRNGKey(1))
            return [jax.random.uniform(jax.random.key(0)) for _ in range(3)]
        """
    )
    found = sorted((c.node.lineno, c.loop.lineno, c.name) for c in facts.keys.constant_seeds)
    assert found == [(7, 6, "k"), (14, 13, None), (15, 15, None)]


def test_key_kinds():
    facts = facts_with_text(
        """
        import jax

        t = jax.random.key(0)
        legacy = jax.random.PRNGKey(0)
        ts = jax.random.split(t, 3)
        t1, t2 = jax.random.split(t)
        f = jax.random.fold_in(t, 1)

        def g(key):
            return key
        """
    )
    kinds = {}
    for node in ast.walk(facts.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            kinds[node.id] = facts.keys.key_kind(node)
    assert kinds["t"] == ("typed", True)
    assert kinds["legacy"] == ("legacy", True)
    assert kinds["ts"] == ("typed", False)
    assert kinds["t1"] == ("typed", True)
    assert kinds["f"] == ("typed", True)
    param = next(n for n in ast.walk(fn(facts, "g")) if isinstance(n, ast.Name))
    assert facts.keys.key_kind(param) is None


# -- imports: rebinding through global/nonlocal, module-level writes ------------------------------


def test_global_and_nonlocal_writes_bind_in_their_scopes():
    facts = facts_of(
        """
        counter = 0

        def bump():
            global counter
            counter += 1

        def outer():
            total = 0
            def inner():
                nonlocal total
                total = total + 1
            return inner
        """
    )
    index = facts.index
    module = index.scopes[index.tree]
    assert len(module.bindings["counter"]) == 2
    outer_scope = index.scopes[fn(facts, "outer")]
    assert len(outer_scope.bindings["total"]) == 2
    assert "total" not in index.scopes[fn(facts, "inner")].bindings


def test_module_writes():
    facts = facts_of(
        """
        CONFIG = {"lr": 0.1}
        SCALE = 2.0
        LOG = []
        CONST = 1.0

        def decay():
            CONFIG["lr"] = 0.05

        def set_scale(v):
            global SCALE
            SCALE = v

        def log(v):
            LOG.append(v)

        def local():
            CONST = 3.0
            return CONST
        """
    )
    writes = facts.index.module_writes()
    assert {w.kind for w in writes["CONFIG"]} == {"item"}
    assert {w.kind for w in writes["SCALE"]} == {"rebind"}
    assert {w.kind for w in writes["LOG"]} == {"method"}
    assert "CONST" not in writes


def test_key_escapes_and_container_keys():
    assert reuse_lines(
        """
        import jax

        class M:
            def draw(self, rngs):
                a = jax.random.normal(self.key)
                self.key, sub = jax.random.split(self.key)
                b = jax.random.normal(self.key)
                c = jax.random.normal(rngs["x"])
                d = jax.random.normal(rngs["y"])
                return a, b, c, d

        def step(state):
            key = state.rng
            x = jax.random.normal(key)
            return state.replace(rng=key), x

        def fine(state):
            key, sub = jax.random.split(state.rng)
            return state.replace(rng=key), jax.random.normal(sub)
        """
    ) == [(6, "twice"), (15, "escape")]


def test_keys_across_calls_facts():
    facts = facts_of(
        """
        import time
        import jax

        KEY = jax.random.key(0)

        def noisy(x):
            return x + jax.random.normal(KEY, x.shape)

        def step(state):
            key = jax.random.key(1)
            return state + jax.random.normal(key)

        def bench(n):
            t0 = time.perf_counter()
            x = jax.random.normal(jax.random.key(2), (n,))
            return time.perf_counter() - t0, x

        def run(state, xs):
            for x in xs:
                state = step(state)
                state, _ = bench(3)
            return [noisy(x) for x in xs]

        def mapped(key, xs):
            return jax.vmap(lambda k, x: x + jax.random.normal(k), in_axes=(None, 0))(key, xs)
        """
    )
    keys = facts.keys
    assert [(f.node.lineno, f.fn.name) for f in keys.fixed_seeds] == [(10, "step")]
    assert [(u.node.lineno, u.name) for u in keys.module_key_uses] == [(7, "KEY")]
    assert [(u.node.lineno, u.name, u.how) for u in keys.unmapped_keys] == [(25, "k", "in_axes")]


def test_carried_names_are_read_before_reassignment():
    # `predictions` is assigned in two loops one after the other: not carried, so draws with a
    # per-configuration shape used inside the iteration stay exempt
    assert (
        reuse_lines(
            """
        import jax

        def test_shapes(key, cases, more):
            for shape in cases:
                predictions = jax.random.normal(key, shape)
                print(predictions.sum())
            for shape in more:
                predictions = jax.random.uniform(jax.random.fold_in(key, 1), shape)
                print(predictions.mean())
        """
        )
        == []
    )


def test_same_module_jit_factory_traces_what_it_is_given():
    facts = facts_of(
        """
        import jax

        def apply(fn):
            return jax.jit(fn)

        def forwards(fun, static_argnums=()):
            return jax.jit(fun, static_argnums=static_argnums)

        def identity(fn):
            return fn

        def a(x): return x
        def b(x): return x
        def c(x, n): return x

        @apply
        def d(x): return x

        fa, fb, fc = apply(a), identity(b), forwards(c, static_argnums=1)
        """
    )
    assert traced(facts, "a") == {"x"}
    assert traced(facts, "d") == {"x"}
    assert facts.function_facts(fn(facts, "b")) is None
    c = facts.function_facts(fn(facts, "c"))
    assert c is not None and c.unknown_static  # options forwarded from the wrapper's parameters


def test_free_names_see_through_nested_lambdas():
    from jaxlint.analysis.loops import free_names

    facts = facts_of(
        """
        def outer(tree, axis):
            for i in range(3):
                def slice_ith(t):
                    local = 1
                    return tree_map(lambda x, j=local: take(x, i, axis) + j, t)
        """
    )
    assert free_names(facts.index, fn(facts, "slice_ith")) == {"tree_map", "take", "i", "axis"}


def _loop_and_node(src: str, marker: str):
    import textwrap

    from jaxlint.analysis import ModuleFacts
    from jaxlint.analysis.syntax import LOOP_STATEMENTS

    tree = ast.parse(textwrap.dedent(src))
    facts = ModuleFacts(tree)
    facts.index  # noqa: B018 - builds the parent links
    loops = [n for n in ast.walk(tree) if isinstance(n, (*LOOP_STATEMENTS, ast.ListComp))]
    node = next(
        n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == marker
    )
    return facts.index, loops[0], node


@pytest.mark.parametrize(
    ("src", "once"),
    [
        ("sizes = [256]\nxs = [draw(s) for s in sizes]\n", True),
        ("xs = [draw(s) for s in [1]]\n", True),
        ("for s in range(1):\n    draw(s)\n", True),
        ("sizes = [1, 2]\nxs = [draw(s) for s in sizes]\n", False),
        ("sizes = [1]\nsizes.append(2)\nxs = [draw(s) for s in sizes]\n", False),
        ("sizes = [1]\ngrow(sizes)\nxs = [draw(s) for s in sizes]\n", False),
        ("def f(sizes):\n    return [draw(s) for s in sizes]\n", False),
    ],
)
def test_runs_at_most_once(src, once):
    from jaxlint.analysis.loops import runs_at_most_once

    index, loop, _ = _loop_and_node(src, "draw")
    assert runs_at_most_once(loop, index) is once


@pytest.mark.parametrize(
    ("src", "once"),
    [
        (
            "LEVELS = [0.0, 0.15]\nfor v in LEVELS:\n    if v > 0:\n        a()\n    else:\n        draw()\n",
            True,
        ),
        (
            "for v in [0.0, -1.0, 0.15]:\n    if v > 0:\n        a()\n    else:\n        draw()\n",
            False,
        ),
        ("for v in [0.0, 0.1, 0.15]:\n    if v > 0:\n        draw()\n", False),
        ("for v in [0.0, 0.1]:\n    if v >= 0.1:\n        draw()\n", True),
        ("for name in registry():\n    if name == 'vit':\n        draw()\n", True),
        ("for i in range(n):\n    if i == 0:\n        draw()\n", True),
        ("for i in range(n):\n    if i == 0.5:\n        draw()\n", False),
        ("for v in [1, 1]:\n    if v == 1:\n        draw()\n", False),
    ],
)
def test_runs_once_in_an_arm_of_one_step(src, once):
    from jaxlint.analysis.loops import runs_once_in

    index, loop, node = _loop_and_node(src, "draw")
    assert runs_once_in(loop, node, index) is once


def test_names_in_groups_a_names_loads_by_scope():
    """ModuleIndex.names_in: the Name nodes of one identifier in a scope, nested scopes on
    request (what the aliasing, deadness and jit-flag questions read per finding)."""
    import ast

    from jaxlint.analysis.imports import ModuleIndex

    tree = ast.parse(
        "a = 1\ndef f(a):\n    b = a\n    def g():\n        return a\n    return b\nprint(a)\n"
    )
    index = ModuleIndex(tree)
    f = next(n for n in index.functions if getattr(n, "name", "") == "f")
    module, scope = index.scopes[tree], index.scopes[f]
    assert [n.lineno for n in index.names_in("a", module)] == [1, 7]
    assert [n.lineno for n in index.names_in("a", scope)] == [3]
    assert sorted(n.lineno for n in index.names_in("a", scope, nested=True)) == [3, 5]
    assert index.names_in("zzz", scope, nested=True) == []


def test_reads_only_metadata_is_what_a_deleted_array_still_answers():
    """`shape_only.reads_only_metadata`: the reads JAX answers on a donated (deleted) array,
    checked on JAX 0.6.2, 0.10.2 and 0.12.1; its numbers, `.T`, indexing and `str()` raise."""
    import ast as _ast

    from jaxlint.analysis import ModuleFacts as _Facts
    from jaxlint.analysis.shape_only import reads_only_metadata

    src = (
        "import jax.numpy as jnp\n"
        "a = x.shape; b = x.dtype; c = len(x); d = x is None; e = x.is_deleted()\n"
        "f = jnp.zeros_like(x); g = isinstance(x, int)\n"
        "h = x.T; i = x[0]; j = str(x); k = x + 1; m = x.sum()\n"
    )
    facts = _Facts(_ast.parse(src))
    loads = [n for n in _ast.walk(facts.tree) if isinstance(n, _ast.Name) and n.id == "x"]
    answers = {n.lineno * 100 + n.col_offset: reads_only_metadata(n, facts.index) for n in loads}
    by_line: dict[int, set[bool]] = {}
    for key, value in answers.items():
        by_line.setdefault(key // 100, set()).add(value)
    assert by_line == {2: {True}, 3: {True}, 4: {False}}


def test_non_finite_constants():
    """`constants.non_finite_constant`: the infinities and NaNs a `jnp.where` may pick where
    its guard fails (JAX704 stays silent there: the value is not finite either)."""
    import ast as _ast

    from jaxlint.analysis import ModuleFacts as _Facts
    from jaxlint.analysis.constants import non_finite_constant

    src = (
        "import math\nimport numpy as np\nimport jax.numpy as jnp\n"
        "a = [-jnp.inf, np.nan, math.inf, float('-inf'), float('nan'), -1e309]\n"
        "b = [0.0, -1.0, jnp.pi, float('3'), x, jnp.zeros(3)]\n"
    )
    facts = _Facts(_ast.parse(src))
    a, b = (s.value.elts for s in facts.tree.body[3:5])  # type: ignore[attr-defined]
    assert [non_finite_constant(facts.index, e) for e in a] == [True] * 6
    assert [non_finite_constant(facts.index, e) for e in b] == [False] * 6


def test_returns_nothing_is_a_program_without_outputs():
    """`sync.returns_nothing`: a def whose jitted program has no outputs (XLA keeps none of
    its work); a value returned, a generator or a host callback (an effect XLA keeps) is not."""
    import ast as _ast

    from jaxlint.analysis import ModuleFacts as _Facts
    from jaxlint.analysis.sync import returns_nothing

    src = (
        "import jax\n"
        "def a(x):\n    y = x * 2\n"
        "def b(x):\n    if x is None:\n        return\n    return None\n"
        "def c(x):\n    def inner():\n        return x\n    inner()\n"
        "def d(x):\n    return x * 2\n"
        "def e(x):\n    yield x\n"
        "def f(x):\n    jax.debug.print('{}', x)\n"
    )
    facts = _Facts(_ast.parse(src))
    defs = {n.name: n for n in facts.tree.body if isinstance(n, _ast.FunctionDef)}
    got = {k: returns_nothing(facts.index, v) for k, v in defs.items()}
    assert got == {"a": True, "b": True, "c": True, "d": False, "e": False, "f": False}
