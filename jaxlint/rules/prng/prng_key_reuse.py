"""JAX201 prng-key-reuse: a PRNG key consumed twice (two draws on one path, a draw in a loop that
never rebinds the key, a consumed key handed on), with the split-a-subkey fix. The key flow
itself is a shared fact (analysis/flow/keys.py); this file reports it and writes the fix.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.keys import KeyFlow, Reuse, base_name
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import COMPREHENSIONS, SCOPE_BOUNDARIES, parent, statement_of
from jaxlint.edits.imports import name_is_free, spell
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS, callee_name


class PrngKeyReuse(Rule):
    """Flags a PRNG key consumed twice.

    What it does: follows each key variable through the function: two consumptions (samplers
    such as `normal`/`uniform`, `split`, or a distribution's `sample(seed=key)`) on one path
    without a rebinding in between, a consumption inside a loop of a key that the loop never rebinds, a `scan`/`fori_loop` body
    that consumes a key it closes over, and a consumed key handed on: returned (to the caller,
    or as the carry of a loop body), stored in a state object (`state.replace(rng=key)`,
    `state.set(rng=key)`) or in an attribute (`self.key = key`). Keys kept in containers and
    attributes (`rngs["dropout"]`, `self.key`) are followed like names. A helper of the same
    module that consumes its key parameter (also through `step = jax.jit(train_step)`) counts
    as a consumption at the call site, and so does one of another module of the project
    (`from model import init_mlp`, `import model` then `model.init_mlp(key)`, or a package
    re-export) that the project index finds consuming it. Mutually exclusive branches are
    fine, and so is `fold_in(key, i)`.
    Loops over configurations: a loop whose draws take their shape from the loop variable
    and are used and dropped within the iteration (a benchmark regenerating one input per
    problem size) is not reported. When the draws leave the iteration (appended, stored,
    yielded, returned: the layers of an MLP initialisation) it is reuse: under the default
    `jax_threefry_partitionable`, `normal(k, (8, 32))` and `normal(k, (32, 1))` share their
    first values, so the layers get the same numbers.
    Aligned draws: `choice(key, images, (n,))` and `choice(key, labels, (n,))` (or two
    `permutation(key, ...)`) with every other argument equal pick the same indices on purpose
    (images and labels stay paired) and are not reported.
    Why is this bad: JAX keys are explicit state. Reusing one gives identical (or correlated)
    random numbers, silently: `normal(k)` and `normal(k)` are equal, `bernoulli(k, .5)` equals
    `uniform(k) < .5`. `jax.debug_key_reuse(True)` raises `KeyReuseError` at run time.
    Example:
        noise = jax.random.normal(key, (3,))
        mask = jax.random.bernoulli(key, 0.5, (3,))
    Use instead:
        key, k1, k2 = jax.random.split(key, 3)
        noise = jax.random.normal(k1, (3,))
        mask = jax.random.bernoulli(k2, 0.5, (3,))
    Fix: before each consumption of the key in its run of statements, insert
    `key, subkey = jax.random.split(key)` and draw from `subkey`, so the key stays fresh for
    what follows (the next iteration, the caller). Offered only when the key analysis of the
    fixed code finds no reuse of that key left in the function (unsafe: the random numbers
    change).
    """

    code = "JAX201"
    name = "prng-key-reuse"
    message = "{detail}; reusing a key gives identical or correlated random numbers: split it (`{name}, sub = jax.random.split({name})`)"
    fix_safety = "unsafe"
    verifier = "keycheck"
    verify = Verify(kinds=("keycheck", "draws"))
    templates = ("training-step", "mre", "scan")
    examples = Examples(
        invalid=(
            """
            import jax

            class Normal:
                def sample(self, seed):
                    return jax.random.normal(seed, (3,))

            def update_alpha(pi, key):
                actor_key, alpha_key = jax.random.split(key)
                action = pi.sample(seed=key)  # error: JAX201
                return action, actor_key, alpha_key
            """,
            """
            import jax

            def sample(key):
                a = jax.random.normal(key, (3,))
                b = jax.random.uniform(key, (3,))  # error: JAX201
                return a, b
            """,
            """
            import jax

            key = jax.random.key(0)
            xs = []
            for _ in range(10):
                xs.append(jax.random.normal(key))  # error: JAX201
            """,
            """
            from jax import random as jr

            def init(key, shape):
                return jr.normal(key, shape)

            def make(key):
                w = init(key, (3, 3))
                b = jr.normal(key, (3,))  # error: JAX201
                return w, b
            """,
            """
            import jax
            from jax import lax

            def run(key, xs):
                def body(carry, x):
                    noise = jax.random.normal(key)  # error: JAX201
                    return carry + noise * x, None
                return lax.scan(body, 0.0, xs)
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    x = jax.random.normal(key)
                else:
                    x = 0.0
                return x + jax.random.uniform(key)  # error: JAX201
            """,
            """
            import jax
            import jax.numpy as jnp

            def init_mlp(key, sizes):
                params = []
                for n_in, n_out in zip(sizes[:-1], sizes[1:]):
                    w = jax.random.normal(key, (n_in, n_out)) * 0.01  # error: JAX201
                    params.append((w, jnp.zeros(n_out)))
                return params
            """,
            """
            import jax
            from jax import lax

            def place_agents(key, grid, n):
                def step(carry, _):
                    key, grid = carry
                    next_key, sub = jax.random.split(key)
                    cell = jax.random.randint(sub, (), 0, grid.size)
                    return (key, grid.at[cell].add(1)), cell  # error: JAX201
                return lax.scan(step, (key, grid), None, length=n)
            """,
            """
            from typing import NamedTuple

            import jax

            class State(NamedTuple):
                rng: jax.Array
                kinetic: jax.Array

            def thermostat(state, dt):
                key = state.rng
                r1 = jax.random.normal(key)
                noise = jax.random.gamma(key, 2.0)  # error: JAX201
                return state._replace(rng=key, kinetic=state.kinetic * r1 + noise * dt)  # error: JAX201
            """,
            """
            import jax

            class Dropout:
                def __call__(self, x, rngs):
                    keep = jax.random.bernoulli(rngs["dropout"], 0.9, x.shape)
                    noise = jax.random.normal(rngs["dropout"], x.shape)  # error: JAX201
                    return x * keep + noise
            """,
            """
            import jax

            def train_step(state, batch, key):
                return state + jax.random.normal(key, batch.shape).mean()

            step = jax.jit(train_step)

            def train(state, batches, key):
                for batch in batches:
                    state = step(state, batch, key)  # error: JAX201
                return state
            """,
        ),
        valid=(
            """
            import jax

            def act(pi, key):
                actor_key, alpha_key = jax.random.split(key)
                return pi.sample(seed=actor_key), pi.sample(seed=alpha_key), pi.sample(seed=0)
            """,
            """
            import jax

            def sample(key):
                key, sub = jax.random.split(key)
                a = jax.random.normal(sub, (3,))
                key, sub = jax.random.split(key)
                b = jax.random.uniform(sub, (3,))
                return a, b
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    return jax.random.normal(key)
                return jax.random.uniform(key)
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    x = jax.random.normal(key)
                else:
                    x = jax.random.uniform(key)
                return x
            """,
            """
            import jax

            base = jax.random.key(0)
            for i in range(5):
                k = jax.random.fold_in(base, i)
                x = jax.random.normal(k)
            """,
            """
            import jax

            key = jax.random.key(0)
            for _ in range(3):
                key, sub = jax.random.split(key)
                x = jax.random.normal(sub)
            """,
            """
            import jax

            def test_shapes(key, cases):
                for pred_shape, target_shape in cases:
                    predictions = jax.random.normal(key, pred_shape)
                    print(predictions.shape, target_shape)
            """,
            """
            import jax

            def f(key):
                k1, k2 = jax.random.split(key)
                return jax.random.normal(k1), jax.random.normal(k2)
            """,
            """
            import jax

            def sample_batch(key, images, labels, n):
                x = jax.random.choice(key, images, (n,), replace=False)
                y = jax.random.choice(key, labels, (n,), replace=False)
                return x, y
            """,
            """
            import jax

            def bench(key, sizes):
                for n in sizes:
                    x = jax.random.normal(key, (n, n))
                    print(n, (x @ x).block_until_ready().sum())
            """,
            """
            import jax

            def step(carry, _):
                key, x = carry
                key, sub = jax.random.split(key)
                return (key, x + jax.random.normal(sub)), x
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def sample(key):
                    a = jax.random.normal(key, (3,))
                    b = jax.random.uniform(key, (3,))
                    return a, b
                """,
                """
                import jax

                def sample(key):
                    key, subkey = jax.random.split(key)
                    a = jax.random.normal(subkey, (3,))
                    key, subkey = jax.random.split(key)
                    b = jax.random.uniform(subkey, (3,))
                    return a, b
                """,
            ),
            (
                """
                import jax

                def noisy(key, xs):
                    out = []
                    for x in xs:
                        out.append(x + jax.random.normal(key, x.shape))
                    return out, key
                """,
                """
                import jax

                def noisy(key, xs):
                    out = []
                    for x in xs:
                        key, subkey = jax.random.split(key)
                        out.append(x + jax.random.normal(subkey, x.shape))
                    return out, key
                """,
            ),
        ),
    )
    prefilter_words = KEY_FLOW_WORDS

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for reuse in ctx.keys.reuses:
            self._report(reuse, ctx)

    def _report(self, reuse: Reuse, ctx: Context) -> None:
        short = callee_name(ctx, reuse.node) if isinstance(reuse.node, ast.Call) else ""
        if reuse.kind == "twice":
            first = reuse.first
            first_fn = callee_name(ctx, first)  # type: ignore[arg-type]
            detail = (
                f"key `{reuse.name}` is consumed twice (`{first_fn}` on line {first.lineno}, "  # type: ignore[union-attr]
                f"then `{short}`)"
            )
            fix = self._fix(reuse, ctx)
        elif reuse.kind == "loop":
            detail = (
                f"key `{reuse.name}` is consumed by `{short}` in every iteration of the loop on "
                f"line {reuse.loop.lineno} but never rebound there"  # type: ignore[union-attr]
            )
            fix = self._fix(reuse, ctx)
        elif reuse.kind == "escape":
            first = reuse.first
            detail = (
                f"key `{reuse.name}` is {reuse.how} after `{callee_name(ctx, first)}` on line "  # type: ignore[arg-type]
                f"{first.lineno} consumed it, so whoever receives it (the caller, or the next "  # type: ignore[union-attr]
                "iteration of a loop body) consumes it again"
            )
            self.report(
                reuse.node,
                message=(
                    f"{detail}; hand on the fresh key from `{reuse.name}, sub = "
                    f"jax.random.split({reuse.name})` and draw from `sub`"
                ),
            )
            return
        elif reuse.kind == "dropped":
            self.report(
                reuse.node,
                message=(
                    f"`{reuse.how}` splits `{reuse.name}` but never stores the new key back, so "
                    f"every call of `{reuse.how}` starts from the same `{reuse.name}` and draws "
                    f"the same numbers; store it (`{reuse.name}, sub = "
                    f"jax.random.split({reuse.name})`) or return it to the caller"
                ),
            )
            return
        else:
            detail = (
                f"key `{reuse.name}` is closed over by a loop body (`{getattr(reuse.loop, 'name', 'lambda')}`) "
                f"and consumed by `{short}` on every iteration"
            )
            fix = None
        self.report(reuse.node, detail=detail, name=reuse.name, fix=fix)

    def _fix(self, reuse: Reuse, ctx: Context):  # noqa: ANN202
        """Give every consumption of the key in its run of statements its own subkey:
        `key, subkey = split(key)` before each one, so the key stays fresh for whatever comes
        after (the next draw, the next iteration, the caller). Offered only when the key
        analysis of the fixed module finds no reuse of that key left in the function."""
        name = reuse.name
        if reuse.kind not in ("twice", "loop") or name != base_name(name):
            return None
        plan = _split_plan(reuse, ctx)
        if plan is None:
            return None
        sub = "subkey"
        n = 1
        while not name_is_free(ctx, sub):
            sub = f"subkey{n}"
            n += 1
        try:
            split, edits = spell(ctx, "jax.random.split")
        except LookupError:
            return None
        for stmt, args in plan:
            line_start = ctx.start(stmt).__class__(stmt.lineno, 0)
            indent = ctx.line_indent(stmt.lineno)
            edits.append(
                ctx.insert(
                    line_start, f"{indent}{name}, {sub} = {split}({name}){ctx.source.newline}"
                )
            )
            edits.extend(ctx.replace(arg, sub) for arg in args)
        if not _clean_after(ctx, edits, name, reuse.node, plan):
            return None
        what = "each use" if len(plan) > 1 else "the use"
        return self.fix(*edits, message=f"Split a fresh subkey off `{name}` for {what}")


def _split_plan(reuse: Reuse, ctx: Context) -> list[tuple[ast.stmt, list[ast.expr]]] | None:
    """The statements of the reuse's run (its block, between rebindings of the key) that
    consume the key, each with the key arguments to replace; None when the edit would not be
    simple (a consumption inside a nested block, two in one statement, a shared line, a key
    that is not a local of this scope)."""
    name = reuse.name
    stmt = statement_of(reuse.node)
    if stmt is None:
        return None
    owner = parent(stmt)
    block = next(
        (
            getattr(owner, f)
            for f in ("body", "orelse", "finalbody")
            if isinstance(getattr(owner, f, None), list) and stmt in getattr(owner, f)
        ),
        None,
    )
    if block is None:
        return None
    scope = ctx.index.scope_of(stmt)
    if scope.kind == "class" or name in scope.globals or name not in scope.bindings:
        return None  # a closure variable or a global: rebinding it here would shadow it
    i = block.index(stmt)
    if _rebinds(stmt, name):
        return None
    lo, hi = i, i
    while lo > 0 and not _rebinds(block[lo - 1], name):
        lo -= 1
    while hi + 1 < len(block) and not _rebinds(block[hi + 1], name):
        hi += 1
    plan = []
    for st in block[lo : hi + 1]:
        calls = [c for c in _calls_in(st) if name in ctx.keys.consumed_names(c)]
        if not calls:
            continue
        if len(calls) > 1 or any(
            isinstance(getattr(st, f, None), list) for f in ("body", "orelse")
        ):
            return None
        prev = block[block.index(st) - 1] if block.index(st) > 0 else None
        if ctx.source.line(st.lineno)[: st.col_offset].strip() or (
            prev is not None and prev.end_lineno == st.lineno  # type: ignore[attr-defined]
        ):
            return None
        call = calls[0]
        args = [
            a
            for a in (*call.args, *(k.value for k in call.keywords))
            if isinstance(a, ast.Name) and a.id == name
        ]
        if not args:
            return None
        plan.append((st, args))
    return plan or None


def _calls_in(stmt: ast.stmt) -> list[ast.Call]:
    """Calls a statement evaluates itself (not in nested functions or comprehensions)."""
    out = []
    stack: list[ast.AST] = [stmt]
    while stack:
        cur = stack.pop()
        if cur is not stmt and isinstance(cur, (*SCOPE_BOUNDARIES, *COMPREHENSIONS)):
            continue
        if isinstance(cur, ast.Call):
            out.append(cur)
        stack.extend(ast.iter_child_nodes(cur))
    return out


def _rebinds(stmt: ast.stmt, name: str) -> bool:
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
    return False


def _function_path(node: ast.AST) -> tuple[str, ...]:
    path = []
    cur = parent(node)
    while cur is not None:
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            path.append(cur.name)
        elif isinstance(cur, ast.Lambda):
            path.append("<lambda>")
        cur = parent(cur)
    return tuple(reversed(path))


def _clean_after(ctx: Context, edits: list, name: str, node: ast.AST, plan: list) -> bool:
    """Re-run the key analysis on the fixed text. The fix must not move the reuse to the next
    draw, the next iteration or the caller: no reuse of `name` in the function may sit on an
    inserted or rewritten line, none may be a reuse across iterations or a consumed key handed
    on, and there must be fewer reuses than before. Other runs of reuse in the function (fixed
    by their own findings, in the next round) may remain."""
    try:
        tree = ast.parse(ctx.source.apply(edits))
    except (SyntaxError, ValueError):
        return False
    path = _function_path(node)

    def mine(reuses: list[Reuse]) -> list[Reuse]:
        return [r for r in reuses if base_name(r.name) == name and _function_path(r.node) == path]

    before = mine(ctx.keys.reuses)
    after = mine(KeyFlow(ModuleIndex(tree), ctx.keys.imported).reuses)  # same key helpers
    if len(after) >= len(before):
        return False
    old = {(r.node.lineno, r.kind) for r in before}
    touched = {line for stmt, _ in plan for line in range(stmt.lineno, stmt.end_lineno + 1)}
    inserts = sorted(
        (e.start.line, e.content.count("\n"))
        for e in edits
        if e.start == e.end and e.content.count("\n")
    )
    for r in after:
        line = _old_line(r.node.lineno, inserts)  # type: ignore[attr-defined]
        if line is None or line in touched or r.kind in ("loop", "escape", "closure"):
            return False
        if (line, r.kind) not in old:
            return False
    return True


def _old_line(line: int, inserts: list[tuple[int, int]]) -> int | None:
    """The line of the original text that `line` of the fixed text comes from (None for an
    inserted line); `inserts` are (original line, number of lines inserted before it)."""
    shift = 0
    for at, count in inserts:
        if line >= at + shift + count:
            shift += count
        elif line >= at + shift:
            return None
        else:
            break
    return line - shift
