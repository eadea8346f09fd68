"""analysis/deadness.py: which calls' results nothing reads, and what that does to JAX201.

The unit tests mark the call under test with a `# <-` comment; the lint tests check that a
dead first consumption no longer pairs with a later one, while a read one (later, in a loop,
through a closure, on one branch only) still does.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis.deadness import value_is_dead
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text


def _dead(src: str) -> bool:
    src = textwrap.dedent(src)
    tree = ast.parse(src)
    index = ModuleIndex(tree)  # the parent links and the scopes the flow graphs are built on
    line = next(i for i, text in enumerate(src.splitlines(), 1) if "# <-" in text)
    call = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and n.lineno == line and ast.unparse(n.func) == "split"
    )
    return value_is_dead(call, index)


DEAD = {
    "expression statement": """
        def f(key):
            split(key)  # <-
        """,
    "rebound before any read": """
        def f(key):
            a = split(key)  # <-
            a = split(other)
            return a
        """,
    "duplicated line (mctx)": """
        def f(key):
            p, v = split(key)  # <-
            p, v = split(key)
            return p, v
        """,
    "never read, out of scope": """
        def f(key):
            a = split(key)  # <-
            return 1
        """,
    "rebound on both branches": """
        def f(key, c):
            a = split(key)  # <-
            if c:
                a = 1
            else:
                a = 2
            return a
        """,
    "rebound in the loop before the read (Mava), zero-iteration path ends the function": """
        def f(key_e, n):
            eval_keys = split(key_e, 2)  # <-
            for step in range(n):
                log(step)
                key_e, *eval_keys = split(key_e, 3)
                evaluate(eval_keys)
            if n:
                eval_keys = split(key_e, 2)
                evaluate(eval_keys)
        """,
    "module level, loop over a non-empty range rebinds it": """
        eval_keys = split(key_e, 2)  # <-
        for step in range(3):
            key_e, *eval_keys = split(key_e, 3)
            print(eval_keys)
        """,
    "deleted": """
        def f(key):
            a = split(key)  # <-
            del a
            return key
        """,
    "annotated assignment": """
        def f(key):
            a: int = split(key)  # <-
            a = 3
            return a
        """,
    "inside a try whose handlers do not read it": """
        def f(key):
            try:
                a = split(key)  # <-
                a = work()
            except ValueError:
                return None
            return a
        """,
    "in a match case": """
        def f(key, x):
            match x:
                case 1:
                    a = split(key)  # <-
                case _:
                    pass
            a = 2
            return a
        """,
    "in a with block": """
        def f(key):
            with ctx():
                a = split(key)  # <-
            a = 2
            return a
        """,
    "a nested function with its own binding of the name": """
        def f(key):
            a = split(key)  # <-
            def g(a):
                return a
            return g
        """,
    "a lambda with its own parameter of the name": """
        def f(key):
            a = split(key)  # <-
            g = lambda a: a
            a = 1
            return g
        """,
    "a read in another function's scope": """
        def f(key):
            a = split(key)  # <-
            a = 1
            return a

        def h():
            return a
        """,
}

LIVE = {
    "module level, read by a function": """
        a = split(key)  # <-
        def g():
            return a
        a = 1
        """,
    "read by a nested class body": """
        def f(key):
            a = split(key)  # <-
            class C:
                b = a
            a = 1
            return C
        """,
    "read two functions deep": """
        def f(key):
            a = split(key)  # <-
            def g():
                def h():
                    return a
                return h
            a = 1
            return g
        """,
    "read later": """
        def f(key):
            a = split(key)  # <-
            b = 1
            return a
        """,
    "read in a loop": """
        def f(key, n):
            a = split(key)  # <-
            for i in range(n):
                use(a)
        """,
    "read on one branch": """
        def f(key, c):
            a = split(key)  # <-
            if c:
                use(a)
            a = 1
        """,
    "rebound on one branch only": """
        def f(key, c):
            a = split(key)  # <-
            if c:
                a = 1
            return a
        """,
    "read by the next iteration": """
        def f(key, n):
            for i in range(n):
                if i:
                    use(a)
                a = split(key)  # <-
        """,
    "read by a while test": """
        def f(key):
            while a is None or ok(a):
                a = split(key)  # <-
        """,
    "rebinding reads the old value": """
        def f(key):
            a = split(key)  # <-
            a = a + 1
            return a
        """,
    "attribute store": """
        def f(self, key):
            self.a = split(key)  # <-
            self.a = 1
        """,
    "subscript store": """
        def f(d, key):
            d["a"] = split(key)  # <-
        """,
    "store through the name": """
        def f(key):
            a = split(key)  # <-
            a.x = 1
        """,
    "closure": """
        def f(key):
            a = split(key)  # <-
            def g():
                return a
            a = 1
            return g
        """,
    "nonlocal": """
        def f(key):
            a = None
            def g():
                nonlocal a
                a = split(key)  # <-
            return g
        """,
    "global": """
        def f(key):
            global a
            a = split(key)  # <-
        """,
    "module level, survives to the end": """
        a = split(key)  # <-
        """,
    "module level, loop may run zero times": """
        a = split(key)  # <-
        for i in range(n):
            a = 1
        """,
    "read by a handler": """
        def f(key):
            try:
                a = split(key)  # <-
                a = work()
            except ValueError:
                return a
            return a
        """,
    "break skips the rebinding": """
        def f(key, xs):
            a = split(key)  # <-
            for x in xs:
                if x:
                    break
                a = 1
            return a
        """,
    "class attribute": """
        class C:
            a = split(key)  # <-
            a = 1
        """,
    "argument of another call": """
        def f(key):
            use(split(key))  # <-
        """,
    "augmented assignment": """
        def f(key):
            a = split(key)  # <-
            a += 1
            return 0
        """,
}


@pytest.mark.parametrize("src", DEAD.values(), ids=DEAD.keys())
def test_dead(src):
    assert _dead(src)


@pytest.mark.parametrize("src", LIVE.values(), ids=LIVE.keys())
def test_live(src):
    assert not _dead(src)


def test_without_parent_links_it_is_not_dead():
    tree = ast.parse("split(key)")
    index = ModuleIndex(ast.parse("pass"))  # another tree's index: no link reaches this call
    assert not value_is_dead(tree.body[0].value, index)  # type: ignore[attr-defined]


def _jax201(src: str) -> list[int]:
    text = "import jax\n" + textwrap.dedent(src)
    # preview on: JAX201 through a helper is medium confidence, in preview; the key model
    # is what these tests are about
    diags = lint_text(text, "t.py", LintOptions(settings=Settings(preview=True)))
    return [d.line - 1 for d in diags if d.code == "JAX201"]


def test_dead_first_split_is_not_a_reuse():
    assert not _jax201("""
        def f(key):
            a, b = jax.random.split(key)
            a, b = jax.random.split(key)
            return a, b
        """)


def test_discarded_draw_is_not_a_reuse():
    # a sample nobody reads correlates with nothing: the later draw is independent in effect
    assert not _jax201("""
        def f(key):
            jax.random.normal(key, (3,))
            return jax.random.normal(key, (3,))
        """)


def test_read_first_split_is_still_a_reuse():
    assert _jax201("""
        def f(key):
            a, b = jax.random.split(key)
            c = jax.random.normal(key)
            return a, b, c
        """) == [4]


def test_first_split_read_in_a_loop_is_still_a_reuse():
    assert _jax201("""
        def f(key, n):
            keys = jax.random.split(key, n)
            x = jax.random.normal(key)
            for i in range(n):
                x = x + jax.random.normal(keys[i])
            return x
        """) == [4]


def test_dead_second_consumption_is_no_reuse_either():
    # a later draw whose result nothing reads correlates with nothing, as a dead first one
    # does (v34 latent_diffusion_planning: a leftover `sample_rng, rng = split(rng)`); the
    # read first draw stays the one a later live draw is compared with
    assert (
        _jax201("""
        def f(key):
            a = jax.random.normal(key)
            b = jax.random.normal(key)
            return a
        """)
        == []
    )
    assert _jax201("""
        def f(key):
            a = jax.random.normal(key)
            b = jax.random.normal(key)
            c = jax.random.uniform(key)
            return a, c
        """) == [5]


def test_helper_with_dead_result_still_counts():
    # a helper may act through side effects even when its return value is dropped
    assert _jax201("""
        def fill(buf, key):
            buf.append(jax.random.normal(key))

        def f(buf, key):
            fill(buf, key)
            return jax.random.normal(key)
        """) == [7]
