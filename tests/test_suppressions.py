from jaxlint.engine import lint_text
from tests.conftest import snippet

BASE = "import jax\n"


def codes_at(text):
    return [(d.line, d.code) for d in lint_text(text)]


def test_noqa_variants_match_flake8():
    text = BASE + "".join(
        [
            "a = jax.tree_map(abs, [1])  # noqa: JAX801\n",  # 2 suppressed
            "b = jax.tree_map(abs, [1])  # noqa: JAX802\n",  # 3 shown
            "c = jax.tree_map(abs, [1])  # noqa: JAX8\n",  # 4 prefix
            "d = jax.tree_map(abs, [1])  # noqa\n",  # 5 blanket
            "e = jax.tree_map(abs, [1])  # noqa: JAX\n",  # 6 blanket (no digits)
            "f = jax.tree_map(abs, [1])  # NOQA : JAX101\n",  # 7 blanket (space)
            "g = jax.tree_map(abs, [1])  # noqa:E501,JAX801\n",  # 8 suppressed
            "h = jax.tree_map(abs, [1])  # jaxlint: disable=JAX801\n",  # 9 suppressed
            "i = jax.tree_map(abs, [1])  # jaxlint: disable=JAX101\n",  # 10 shown
        ]
    )
    assert codes_at(text) == [(3, "JAX801"), (10, "JAX801")]


def test_disable_comment_before_a_block():
    text = snippet(
        """
        import jax

        # jaxlint: disable=JAX801
        def f():
            a = jax.tree_map(abs, [1])
            return jax.tree_leaves(a)

        b = jax.tree_map(abs, [1])
        """
    )
    assert codes_at(text) == [(8, "JAX801")]


def test_disable_comment_before_decorated_block():
    text = snippet(
        """
        import jax

        # jaxlint: disable=JAX110
        @jax.jit
        def f(x):
            if x > 0:
                return x
            return -x

        @jax.jit
        def g(x):
            if x > 0:
                return x
            return -x
        """
    )
    assert codes_at(text) == [(12, "JAX110")]
