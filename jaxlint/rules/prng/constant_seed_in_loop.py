"""JAX202 constant-seed-in-loop: a key made from a loop-invariant seed inside a loop and consumed
there, so every iteration draws the same numbers (fact: `KeyFlow.constant_seeds`).
"""

from __future__ import annotations

import ast

from jaxlint.edits.imports import name_is_free, spell
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS, callee_name


def _loop_counter(loop: ast.AST) -> str | None:
    """The integer step variable of `for i in range(...)` / `for i, x in enumerate(...)`."""
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call):
        return None
    func = loop.iter.func
    name = func.id if isinstance(func, ast.Name) else None
    if name == "range" and isinstance(loop.target, ast.Name):
        return loop.target.id
    if (
        name == "enumerate"
        and isinstance(loop.target, ast.Tuple)
        and loop.target.elts
        and isinstance(loop.target.elts[0], ast.Name)
    ):
        return loop.target.elts[0].id
    return None


class ConstantSeedInLoop(Rule):
    """Flags `jax.random.key(<constant>)` created inside a loop and then consumed there.

    What it does: finds `jax.random.key(seed)` / `jax.random.PRNGKey(seed)` inside a `for` or
    `while` loop (or a comprehension) whose seed does not change between iterations (a literal,
    or names the loop never rebinds), when the key then reaches a sampler or `split` in the loop.
    Why is this bad: every iteration recreates the same key, so every iteration draws the same
    "random" numbers (the noise, dropout masks or minibatch orders repeat). JAX does not warn.
    `jax.random.fold_in(jax.random.key(42), step)` in the loop is fine: the key varies.
    Not reported: a loop over configurations whose draws stay in the iteration (used and
    dropped, not appended, returned or carried): configurations are recognised by draws that
    take their shape from the loop variable (see JAX201) or by a list written out in the
    source (`for env in [EnvA(), EnvB()]`), where one fixed seed per configuration gives
    common random numbers on purpose; and a benchmark loop (it reads a clock, itself or
    through a function it calls), which regenerates the same inputs on purpose.
    Example:
        for step in range(num_steps):
            key = jax.random.key(42)
            x = x + jax.random.normal(key, x.shape)
    Use instead:
        base_key = jax.random.key(42)
        for step in range(num_steps):
            key = jax.random.fold_in(base_key, step)
            x = x + jax.random.normal(key, x.shape)
    Or split a carried key each iteration (`key, sub = jax.random.split(key)`).
    Fix: hoist the key before the loop and fold in the step counter (unsafe: the random
    numbers change). Only for `for i in range(...)` / `enumerate(...)` loops.
    """

    code = "JAX202"
    name = "constant-seed-in-loop"
    message = (
        "`{call}` inside the loop on line {line} recreates the same key every iteration, so "
        "{consumer} the same each time; create the key once before the loop and "
        "derive a fresh one per step with `jax.random.fold_in(key, step)` (or split a carried key)"
    )
    fix_safety = "unsafe"
    verifier = "draws"
    prefilter_words = KEY_FLOW_WORDS
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            def train(x, num_steps):
                for step in range(num_steps):
                    key = jax.random.key(42)  # error: JAX202
                    x = x + jax.random.normal(key, x.shape)
                return x
            """,
            """
            import jax
            from jax import random as jr

            def augment(batches, seed):
                out = []
                for batch in batches:
                    noise_key, drop_key = jr.split(jr.PRNGKey(seed))  # error: JAX202
                    out.append(batch + jr.normal(noise_key, batch.shape))
                return out
            """,
            """
            import jax

            def init_ensemble(n, dim):
                return [jax.random.normal(jax.random.key(0), (dim, dim)) for _ in range(n)]  # error: JAX202
            """,
            """
            import jax

            def init_layers(dim):
                layers = []
                for act in [jax.nn.relu, jax.nn.gelu]:
                    w = jax.random.normal(jax.random.key(0), (dim, dim))  # error: JAX202
                    layers.append((w, act))
                return layers
            """,
        ),
        valid=(
            """
            import jax

            def train(x, num_steps):
                base = jax.random.key(42)
                for step in range(num_steps):
                    x = x + jax.random.normal(jax.random.fold_in(base, step), x.shape)
                return x
            """,
            """
            import jax

            def sweep(seeds):
                for seed in seeds:
                    key = jax.random.key(seed)
                    print(jax.random.normal(key))
                for step in range(3):
                    key = jax.random.fold_in(jax.random.key(0), step)
                    print(jax.random.normal(key))
            """,
            """
            import jax

            def f(n):
                for i in range(n):
                    key = jax.random.key(0)
                    key = jax.random.fold_in(key, i)
                    yield jax.random.normal(key)
            """,
            """
            import jax

            def test_envs(make_act):
                for env in [CartPole(), Pendulum()]:
                    act = make_act(env)
                    obs = jax.random.uniform(jax.random.key(0), (10, 4))
                    assert act(obs).shape == (10,)
            """,
            """
            import jax

            def benchmark(problem_sizes):
                for m, k in problem_sizes:
                    a = jax.random.uniform(jax.random.key(1), (m, k))
                    k1, k2 = jax.random.split(jax.random.key(2))
                    b = jax.random.normal(k1, (k, m)) + jax.random.normal(k2, (k, m))
                    print(a @ b)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def train(x, num_steps):
                    for step in range(num_steps):
                        key = jax.random.key(42)
                        x = x + jax.random.normal(key, x.shape)
                    return x
                """,
                """
                import jax

                def train(x, num_steps):
                    base_key = jax.random.key(42)
                    for step in range(num_steps):
                        key = jax.random.fold_in(base_key, step)
                        x = x + jax.random.normal(key, x.shape)
                    return x
                """,
            ),
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for seed in ctx.keys.constant_seeds:
            consumer = callee_name(ctx, seed.consumer)
            self.report(
                seed.node,
                call=ctx.text(seed.node),
                line=str(seed.loop.lineno),  # type: ignore[attr-defined]
                consumer=f"`{consumer}` returns keys that are"
                if consumer == "split"
                else f"`{consumer}` draws numbers that are",
                fix=self._fix(seed, ctx),
            )

    def _fix(self, seed, ctx: Context):  # noqa: ANN001, ANN202
        loop = seed.loop
        if not (ctx.qualname(seed.node.func) or "").startswith("jax.random."):
            return None  # `nnx.Rngs(0)`: no `fold_in` spelling for a stream object
        counter = _loop_counter(loop)
        if counter is None or ctx.source.line(loop.lineno)[: loop.col_offset].strip():
            return None
        base = "base_key"
        n = 1
        while not name_is_free(ctx, base):
            base = f"base_key{n}"
            n += 1
        try:
            fold_in, edits = spell(ctx, "jax.random.fold_in")
        except LookupError:
            return None
        indent = ctx.line_indent(loop.lineno)
        hoist = ctx.insert(
            ctx.start(loop).__class__(loop.lineno, 0),
            f"{indent}{base} = {ctx.text(seed.node)}{ctx.source.newline}",
        )
        return self.fix(
            hoist,
            ctx.replace(seed.node, f"{fold_in}({base}, {counter})"),
            *edits,
            message="Create the key once and fold in the step",
        )
