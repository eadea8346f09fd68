"""JAX2xx: PRNG key discipline."""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.keys import COMPREHENSIONS, KeyFlow, Reuse, base_name, key_argument
from jaxlint.edits.imports import name_is_free, spell
from jaxlint.rules.base import Context, Examples, Rule


class PrngKeyReuse(Rule):
    """Flags a PRNG key consumed twice.

    What it does: follows each key variable through the function: two consumptions (samplers
    such as `normal`/`uniform`, or `split`) on one path without a rebinding in between, a
    consumption inside a loop of a key that the loop never rebinds, a `scan`/`fori_loop` body
    that consumes a key it closes over, and a consumed key handed on: returned (to the caller,
    or as the carry of a loop body), stored in a state object (`state.replace(rng=key)`,
    `state.set(rng=key)`) or in an attribute (`self.key = key`). Keys kept in containers and
    attributes (`rngs["dropout"]`, `self.key`) are followed like names. A helper of the same
    module that consumes its key parameter (also through `step = jax.jit(train_step)`) counts
    as a consumption at the call site. Mutually exclusive branches are fine, and so is
    `fold_in(key, i)`.
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
    templates = ("training-step",)
    examples = Examples(
        invalid=(
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

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for reuse in ctx.keys.reuses:
            self._report(reuse, ctx)

    def _report(self, reuse: Reuse, ctx: Context) -> None:
        short = _callee(ctx, reuse.node) if isinstance(reuse.node, ast.Call) else ""
        if reuse.kind == "twice":
            first = reuse.first
            first_fn = _callee(ctx, first)  # type: ignore[arg-type]
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
                f"key `{reuse.name}` is {reuse.how} after `{_callee(ctx, first)}` on line "  # type: ignore[arg-type]
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
    stmt = _statement_of(reuse.node)
    if stmt is None:
        return None
    owner = _parent(stmt)
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
        if cur is not stmt and isinstance(
            cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, *COMPREHENSIONS)
        ):
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
    cur = _parent(node)
    while cur is not None:
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            path.append(cur.name)
        elif isinstance(cur, ast.Lambda):
            path.append("<lambda>")
        cur = _parent(cur)
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
    after = mine(KeyFlow(ModuleIndex(tree)).reuses)
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


def _callee(ctx: Context, call: ast.Call) -> str:
    """`normal` for `jax.random.normal(...)`, `init` for a helper `init(...)`."""
    q = ctx.qualname(call.func)
    if q:
        return q.replace("jax.random.", "")
    return dotted(call.func) or ctx.text(call.func)


def _parent(node: ast.AST) -> ast.AST | None:
    return getattr(node, "jl_parent", None)


def _statement_of(node: ast.AST) -> ast.stmt | None:
    cur: ast.AST | None = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = _parent(cur)
    if cur is None:
        return None
    # only a statement that starts its own line can take an inserted line before it
    return cur if isinstance(cur, ast.stmt) else None


HOST_RNG_PREFIXES = ("numpy.random.", "random.")
GENERATOR_FACTORIES = {
    "numpy.random.default_rng",
    "numpy.random.RandomState",
    "numpy.random.Generator",
}


class HostRngInTraced(Rule):
    """Flags `numpy.random` / Python `random` inside traced functions.

    What it does: finds calls to `np.random.*`, NumPy `Generator` methods and the `random`
    module inside a function that JAX traces.
    Why is this bad: the host RNG runs once, at trace time; its result is baked into the
    compiled program as a constant, so every call returns the same "random" numbers.
    Host-side data loaders and `pure_callback` bodies are fine.
    Example:
        @jax.jit
        def add_noise(x):
            return x + np.random.normal(size=x.shape)
    Use instead:
        @jax.jit
        def add_noise(x, key):
            return x + jax.random.normal(key, x.shape)
    No automatic fix: the function needs a key argument.
    """

    code = "JAX204"
    traced_evidence = True
    name = "host-rng-in-traced"
    message = "`{call}` in a traced function runs once at trace time and is baked in as a constant ({why}); use `jax.random` with an explicit key"
    verifier = "retrace-cmp"
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax
            import numpy as np

            @jax.jit
            def add_noise(x):
                return x + np.random.normal(size=x.shape)  # error: JAX204
            """,
            """
            import jax
            import random

            @jax.vmap
            def jitter(x):
                return x * random.random()  # error: JAX204
            """,
            """
            import jax
            import numpy as np

            rng = np.random.default_rng(0)

            @jax.jit
            def f(x):
                return x + rng.normal()  # error: JAX204
            """,
        ),
        valid=(
            """
            import jax
            import numpy as np

            def loader(n):
                rng = np.random.default_rng(0)
                return rng.normal(size=(n, 3))

            @jax.jit
            def f(x, key):
                return x + jax.random.normal(key, x.shape)
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        fn = ctx.function
        if fn is None or not fn.is_jit:
            return
        q = ctx.qualname(node.func)
        call = None
        if q and q.startswith(HOST_RNG_PREFIXES) and q not in GENERATOR_FACTORIES:
            call = q.replace("numpy.", "np.")
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            b = ctx.index.binding(node.func.value.id, ctx.index.scope_of(node.func.value))
            if b is not None and b.kind == "assign" and isinstance(b.value, ast.Call):
                if ctx.qualname(b.value.func) in GENERATOR_FACTORIES:
                    call = ctx.text(node.func)
        if call:
            why = fn.describe()
            self.report(node, call=call, why=why)


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
    Not reported: a loop over configurations whose draws take their shape from the loop
    variable and stay in the iteration (see JAX201), and a benchmark loop (it reads a clock,
    itself or through a function it calls), which regenerates the same inputs on purpose.
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
            consumer = _callee(ctx, seed.consumer)
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


class SplitFoldinCollision(Rule):
    """Flags one parent key used by both `split` and `fold_in` (or by two equal `fold_in`).

    What it does: follows each key variable through the function and finds a parent key
    from which children are derived both with `jax.random.split(k, ...)` and with
    `jax.random.fold_in(k, i)` (on one path, without rebinding `k` in between), or with two
    `fold_in(k, c)` of the same constant `c`.
    Why is this bad: with the default `jax_threefry_partitionable=True`, `split(k, n)[i]` is
    bit-identical to `fold_in(k, i)`, so the "independent" keys collide and draw the same
    numbers. Neither `jax.debug_key_reuse` nor any warning catches it.
    Example:
        dropout_key = jax.random.fold_in(key, step)
        key, init_key = jax.random.split(key)
    Use instead:
        key, init_key, dropout_key = jax.random.split(key, 3)
    Or derive every child with `fold_in` and distinct data. No automatic fix.
    """

    code = "JAX203"
    name = "split-foldin-collision"
    message = (
        "key `{name}` is {how}: with `jax_threefry_partitionable=True` (the default) "
        "`split(k, n)[i]` equals `fold_in(k, i)`, so these child keys can be identical; derive "
        "all children of `{name}` one way (one `split(k, n)`, or `fold_in` with distinct data)"
    )
    verifier = "draws"
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            def init_and_dropout(key, step):
                dropout_key = jax.random.fold_in(key, step)
                k1, k2 = jax.random.split(key)  # error: JAX203
                return dropout_key, k1, k2
            """,
            """
            from jax import random

            def keys_for(rng):
                a = random.fold_in(rng, 0)
                b = random.fold_in(rng, 0)  # error: JAX203
                return a, b
            """,
            """
            import jax

            def train(key, n):
                for i in range(n):
                    step_key = jax.random.fold_in(key, i)
                    print(jax.random.normal(step_key))
                eval_keys = jax.random.split(key, 4)  # error: JAX203
                return eval_keys
            """,
        ),
        valid=(
            """
            import jax

            def f(key, step):
                key = jax.random.fold_in(key, step)
                key, sub = jax.random.split(key)
                a = jax.random.fold_in(sub, 1)
                b = jax.random.fold_in(sub, 2)
                return key, a, b
            """,
            """
            import jax

            def f(key, flag):
                if flag:
                    return jax.random.split(key)
                return jax.random.fold_in(key, 0)
            """,
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for c in ctx.keys.collisions:
            later, first = _callee(ctx, c.node), _callee(ctx, c.first)
            if later == first:
                how = f"folded in twice with the same data (lines {c.first.lineno} and {c.node.lineno})"
            else:
                how = (
                    f"the parent of both `{first}` (line {c.first.lineno}) and `{later}` "
                    f"(line {c.node.lineno})"
                )
            self.report(c.node, name=c.name, how=how)


class LegacyPrngKey(Rule):
    """Flags `jax.random.PRNGKey` (legacy raw uint32 keys); prefer typed `jax.random.key`.

    What it does: finds calls to `jax.random.PRNGKey(seed)` (opt-in: select `JAX205`).
    Why is this bad: `PRNGKey` makes a raw `uint32[2]` array that JAX cannot tell from data:
    `key + 1` or `key[0]` silently corrupt it, and `jax.debug_key_reuse` does not track it.
    A typed key (`jax.random.key`, dtype `key<fry>`, shape `()`) rejects arithmetic and is
    checked for reuse. The random streams are identical. `PRNGKey` is legacy, not deprecated.
    Example:
        key = jax.random.PRNGKey(0)
        x = jax.random.normal(key, (3,))
    Use instead:
        key = jax.random.key(0)
        x = jax.random.normal(key, (3,))
    Fix: `PRNGKey(s)` -> `key(s)` (unsafe: the key's shape and dtype change, which breaks
    `key[0]`, `key.shape` checks, arithmetic, NumPy conversion and checkpoints of raw keys).
    Offered only when every use of the key is as the key argument of a `jax.random` function.
    """

    code = "JAX205"
    name = "legacy-prng-key"
    message = (
        "`{call}` creates a legacy raw uint32 key that JAX cannot tell from data (no reuse "
        "checking, arithmetic silently corrupts it); use the typed `jax.random.key({args})`"
    )
    fix_safety = "unsafe"
    verifier = "trace"
    default = False
    tier = 2
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            key = jax.random.PRNGKey(0)  # error: JAX205
            x = jax.random.normal(key, (3,))
            """,
            """
            from jax.random import PRNGKey, split

            def init(seed):
                rng = PRNGKey(seed)  # error: JAX205
                return split(rng)[0]
            """,
        ),
        valid=(
            """
            import jax

            key = jax.random.key(0)
            x = jax.random.normal(key, (3,))
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                def sample(seed):
                    key = jax.random.PRNGKey(seed)
                    k1, k2 = jax.random.split(key)
                    return jax.random.normal(k1), jax.random.normal(jax.random.PRNGKey(1))
                """,
                """
                import jax

                def sample(seed):
                    key = jax.random.key(seed)
                    k1, k2 = jax.random.split(key)
                    return jax.random.normal(k1), jax.random.normal(jax.random.key(1))
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) != "jax.random.PRNGKey":
            return
        args = ", ".join(ctx.text(a) for a in [*node.args, *node.keywords])
        self.report(node, call=ctx.text(node), args=args, fix=self._fix(node, ctx))

    def _fix(self, node: ast.Call, ctx: Context):  # noqa: ANN202
        parent = _parent(node)
        ok = isinstance(parent, ast.Call) and (
            (ctx.qualname(parent.func) or "").startswith("jax.random.")
            and key_argument(parent) is node
        )
        if (
            not ok
            and isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            name = parent.targets[0].id
            scope = ctx.index.scope_of(parent)
            bindings = scope.bindings.get(name, [])
            ok = len(bindings) == 1 and ctx.keys.only_key_uses(name, scope.node)
        if not ok:
            return None
        if isinstance(node.func, ast.Attribute):
            return self.fix(
                ctx.replace(node.func, ctx.text(node.func.value) + ".key"),
                message="Use the typed `jax.random.key`",
            )
        try:
            key_fn, edits = spell(ctx, "jax.random.key")
        except LookupError:
            return None
        return self.fix(ctx.replace(node.func, key_fn), *edits, message="Use `jax.random.key`")


class RawKeyArithmetic(Rule):
    """Flags indexing, arithmetic and raw-array operations on PRNG keys.

    What it does: finds `key[0]`, `key.shape[-1]`, `key + 1`, `key.astype(...)` and
    `np.asarray(key)` where `key` is made in this module by `jax.random.key` (typed), and
    arithmetic on legacy `jax.random.PRNGKey` keys.
    Why is this bad: a typed key is a scalar of dtype `key<fry>`: indexing it raises
    `IndexError` (its shape is `()`), arithmetic raises `TypeError: add does not accept dtypes
    key<fry>`, `astype` raises `NotImplementedError` and NumPy conversion `TypeError`. On a
    legacy uint32 key, arithmetic silently produces a different, correlated key.
    Example:
        key = jax.random.key(0)
        seed = key[0]
        next_key = key + 1
    Use instead:
        key = jax.random.key(0)
        seed = jax.random.key_data(key)[0]
        key, next_key = jax.random.split(key)
    No automatic fix: derive keys with `split`/`fold_in`; read raw bits with `key_data`.
    """

    code = "JAX206"
    name = "raw-key-arithmetic"
    message = (
        "{what} on the PRNG key `{name}` {consequence}; derive new keys with "
        "`jax.random.split`/`fold_in` and read raw bits with `jax.random.key_data({name})`"
    )
    verifier = "trace"
    tier = 2
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax

            key = jax.random.key(0)
            seed = key[0]  # error: JAX206
            """,
            """
            import jax

            def make_keys(seed):
                key = jax.random.key(seed)
                k1, k2 = jax.random.split(key)
                return k1 + 1, k2  # error: JAX206
            """,
            """
            from jax import random

            def check(seed):
                rng = random.fold_in(random.key(seed), 3)
                assert rng.shape[-1] == 2  # error: JAX206
                return rng.astype("uint32")  # error: JAX206
            """,
            """
            import jax

            def legacy(seed):
                key = jax.random.PRNGKey(seed)
                return key * 2  # error: JAX206
            """,
        ),
        valid=(
            """
            import jax

            key = jax.random.key(0)
            keys = jax.random.split(key, 4)
            first = keys[0]
            raw = jax.random.key_data(key)[0]
            old = jax.random.PRNGKey(0)
            seed_word = old[0]
            """,
            """
            def f(key):
                return key[0] + 1
            """,
        ),
    )

    def _kind(self, node: ast.AST, ctx: Context):  # noqa: ANN202
        if isinstance(node, (ast.Name, ast.Subscript, ast.Call)):
            return ctx.keys.key_kind(node)
        return None

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            kind = self._kind(value.value, ctx)
            if kind == ("typed", True):
                self.report(
                    node,
                    what="`.shape[...]`",
                    name=ctx.text(value.value),
                    consequence="raises IndexError: a typed key has shape `()`, not `(2,)`",
                )
            return
        kind = self._kind(value, ctx)
        if kind == ("typed", True):
            self.report(
                node,
                what="indexing",
                name=ctx.text(value),
                consequence="raises IndexError: a typed key is a scalar (shape `()`)",
            )

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        for operand in (node.left, node.right):
            kind = self._kind(operand, ctx)
            if kind is not None:
                self._arith(node, operand, kind, ctx)
                return

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        kind = self._kind(node.target, ctx) if isinstance(node.target, ast.Name) else None
        if kind is not None:
            self._arith(node, node.target, kind, ctx)

    def _arith(self, node: ast.AST, operand: ast.AST, kind, ctx: Context) -> None:  # noqa: ANN001
        consequence = (
            "raises TypeError (arithmetic is not defined for `key<fry>` arrays)"
            if kind[0] == "typed"
            else "silently turns it into a different key that may collide with other seeds"
        )
        self.report(node, what="arithmetic", name=ctx.text(operand), consequence=consequence)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        target = None
        what = ""
        if isinstance(func, ast.Attribute) and func.attr in ("astype", "view"):
            target, what = func.value, f"`.{func.attr}()`"
            consequence = "raises NotImplementedError for a typed key"
        elif ctx.qualname(func) in ("numpy.asarray", "numpy.array") and node.args:
            target, what = node.args[0], f"`{ctx.text(func)}`"
            consequence = "raises TypeError: a typed key cannot be converted to a NumPy array"
        if target is None:
            return
        kind = self._kind(target, ctx)
        if kind is not None and kind[0] == "typed":
            self.report(node, what=what, name=ctx.text(target), consequence=consequence)


class KeyUnmappedInVmap(Rule):
    """Flags a key that `jax.vmap` broadcasts into a function that consumes it.

    What it does: finds `jax.vmap(f, in_axes=(None, ...))` (and `@partial(jax.vmap,
    in_axes=...)`) where the parameter mapped with `None` is a key that `f` consumes (a
    sampler, `split`, or a helper that consumes it), and vmapped functions that consume a key
    closed over from the enclosing function.
    Why is this bad: an unmapped argument is the same for every batch element, so every
    element draws exactly the same numbers: the "per-example" noise, dropout masks or
    initialisations are identical across the batch. JAX does not warn.
    `jax.random.fold_in(key, i)` with a mapped `i` is fine (each element gets its own key), and
    so is `split(key, n)[i]` with a mapped index.
    Example:
        def add_noise(key, x):
            return x + jax.random.normal(key, x.shape)

        noisy = jax.vmap(add_noise, in_axes=(None, 0))(key, batch)
    Use instead:
        keys = jax.random.split(key, batch.shape[0])
        noisy = jax.vmap(add_noise, in_axes=(0, 0))(keys, batch)
    No automatic fix: the caller has to split the key into one per element.
    """

    code = "JAX207"
    name = "key-unmapped-in-vmap"
    message = (
        "{what}, and `{fn}` consumes it (`{consumer}` on line {line}): every batch element "
        "draws the same numbers; map over per-element keys instead (`in_axes=0` over "
        "`jax.random.split(key, n)`)"
    )
    verifier = "draws"
    examples = Examples(
        invalid=(
            """
            import jax

            def add_noise(key, x):
                return x + jax.random.normal(key, x.shape)

            def augment(key, batch):
                return jax.vmap(add_noise, in_axes=(None, 0))(key, batch)  # error: JAX207
            """,
            """
            from functools import partial

            import jax

            @partial(jax.vmap, in_axes=(0, None))
            def dropout(x, rng):
                keep = jax.random.bernoulli(rng, 0.9, x.shape)  # error: JAX207
                return jax.numpy.where(keep, x / 0.9, 0.0)
            """,
            """
            import jax

            def perturb(key, params):
                def one(p):
                    return p + 0.01 * jax.random.normal(key, p.shape)
                return jax.vmap(one)(params)  # error: JAX207
            """,
        ),
        valid=(
            """
            import jax

            def add_noise(key, x):
                return x + jax.random.normal(key, x.shape)

            def augment(key, batch):
                keys = jax.random.split(key, batch.shape[0])
                return jax.vmap(add_noise, in_axes=(0, 0))(keys, batch)
            """,
            """
            import jax

            def add_noise(key, i, x):
                k = jax.random.fold_in(key, i)
                return x + jax.random.normal(k, x.shape)

            def augment(key, batch, idx):
                return jax.vmap(add_noise, in_axes=(None, 0, 0))(key, idx, batch)
            """,
            """
            import jax

            def scale(key, x):
                return x * 2.0

            def run(key, batch):
                return jax.vmap(scale, in_axes=(None, 0))(key, batch)
            """,
            """
            import jax

            def perturb(key, params, idx):
                def one(p, i):
                    return p + jax.random.normal(jax.random.split(key, 8)[i], p.shape)
                return jax.vmap(one)(params, idx)
            """,
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for u in ctx.keys.unmapped_keys:
            fn = getattr(u.fn, "name", "lambda")
            if u.how == "in_axes":
                what = f"`vmap` broadcasts the key `{u.name}` to every batch element (`in_axes` is `None` for it)"
            else:
                what = f"the vmapped `{fn}` closes over the key `{u.name}`, which is the same for every batch element"
            self.report(
                u.node,
                what=what,
                fn=fn,
                consumer=_callee(ctx, u.consumer),
                line=str(u.consumer.lineno),
            )


class FixedSeedInRepeatedFunction(Rule):
    """Flags `jax.random.key(<constant>)` made inside a function that runs repeatedly.

    What it does: finds `jax.random.key(seed)` / `PRNGKey(seed)` with a constant seed (a
    literal or a module-level name) inside a function that runs more than once with the
    same inputs, when the key is then consumed there. "Runs more than once": the body of
    `lax.scan`/`fori_loop`/`while_loop`, a vmapped function, a step called in a loop whose
    result is carried into the next iteration (`state = train_step(state, batch)`), and the
    functions these call. Not counted: test functions, and benchmarks (a function that reads
    a clock, itself or through a function it calls), which repeat their inputs on purpose; a
    function called once per configuration (`results[n] = run(n)`) is not a step either. A
    key made inside a loop of the same function is JAX202's.
    Why is this bad: the function recreates the same key on every call, so every step draws
    the same "random" numbers (the same dropout mask, the same noise, the same minibatch).
    Example:
        def train_step(params, batch):
            key = jax.random.key(0)
            mask = jax.random.bernoulli(key, 0.9, batch.shape)
            ...

        for batch in batches:
            params = train_step(params, batch)
    Use instead:
        def train_step(params, batch, key):
            mask = jax.random.bernoulli(key, 0.9, batch.shape)
            ...

        for batch in batches:
            key, step_key = jax.random.split(key)
            params = train_step(params, batch, step_key)
    No automatic fix: the function needs a key parameter and its callers a key to split.
    """

    code = "JAX208"
    name = "fixed-seed-in-repeated-function"
    message = (
        "`{call}` makes the same key on every run of `{fn}` ({why}), so `{consumer}` draws "
        "the same numbers each time; take a key parameter and split a fresh key per call"
    )
    verifier = "draws"
    examples = Examples(
        invalid=(
            """
            import jax

            def train_step(params, batch):
                key = jax.random.key(0)  # error: JAX208
                mask = jax.random.bernoulli(key, 0.9, batch.shape)
                return params - 0.1 * (batch * mask).mean()

            def train(params, batches):
                for batch in batches:
                    params = train_step(params, batch)
                return params
            """,
            """
            import jax
            from jax import lax

            SEED = 42

            def simulate(x0, n):
                def step(x, _):
                    noise = jax.random.normal(jax.random.PRNGKey(SEED), x.shape)  # error: JAX208
                    return x + 0.1 * noise, x
                return lax.scan(step, x0, None, length=n)
            """,
        ),
        valid=(
            """
            import jax

            def train_step(params, batch, key):
                mask = jax.random.bernoulli(key, 0.9, batch.shape)
                return params - 0.1 * (batch * mask).mean()

            def train(params, batches, key):
                for batch in batches:
                    key, step_key = jax.random.split(key)
                    params = train_step(params, batch, step_key)
                return params
            """,
            """
            import jax

            def init(shape):
                key = jax.random.key(0)
                return jax.random.normal(key, shape)

            params = init((3, 3))
            """,
            """
            import jax

            def test_step_shapes():
                for n in (1, 2):
                    assert make(n).shape == (n,)

            def make(n):
                return jax.random.normal(jax.random.key(0), (n,))
            """,
            """
            import jax

            def step(x, seed):
                key = jax.random.key(seed)
                return x + jax.random.normal(key, x.shape)

            def run(x, n):
                for i in range(n):
                    x = step(x, i)
                return x
            """,
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for f in ctx.keys.fixed_seeds:
            self.report(
                f.node,
                call=ctx.text(f.node),
                fn=getattr(f.fn, "name", "lambda"),
                why=f.why,
                consumer=_callee(ctx, f.consumer),
            )


class ModuleLevelKeyConsumed(Rule):
    """Flags a key created at module level and consumed inside a function.

    What it does: finds a key bound at module level (`KEY = jax.random.key(0)`, or a `split`
    of one) that a function consumes (a sampler, `split`, or a helper that consumes it), when
    that function runs repeatedly (see JAX208: loop bodies, vmapped functions, functions called
    in a loop) or when the key is consumed in more than one place (two functions, or a
    function and the module body). Test functions are not counted.
    Why is this bad: the function reads the same global key every time, so every call draws
    the same numbers, and two functions consuming it draw correlated numbers. Under `jax.jit`
    the key is even baked into the compiled function as a constant.
    Example:
        KEY = jax.random.key(0)

        def dropout(x):
            return x * jax.random.bernoulli(KEY, 0.9, x.shape)
    Use instead:
        def dropout(x, key):
            return x * jax.random.bernoulli(key, 0.9, x.shape)
    No automatic fix: the function needs a key parameter.
    """

    code = "JAX209"
    name = "module-level-key-consumed"
    message = (
        "the module-level key `{name}` (line {line}) is consumed here by `{consumer}` in "
        "`{fn}` ({why}): every use draws the same numbers; pass a key in and split a "
        "fresh one per call"
    )
    verifier = "draws"
    tier = 2
    examples = Examples(
        invalid=(
            """
            import jax

            KEY = jax.random.key(0)

            def dropout(x):
                return x * jax.random.bernoulli(KEY, 0.9, x.shape)  # error: JAX209

            def train(xs):
                return [dropout(x) for x in xs]
            """,
            """
            import jax

            rng = jax.random.PRNGKey(0)
            params = jax.random.normal(rng, (3, 3))

            def sample_noise(shape):
                return jax.random.normal(rng, shape)  # error: JAX209
            """,
        ),
        valid=(
            """
            import jax

            KEY = jax.random.key(0)

            def main():
                k1, k2 = jax.random.split(KEY)
                return jax.random.normal(k1), jax.random.normal(k2)

            if __name__ == "__main__":
                main()
            """,
            """
            import jax

            key = jax.random.key(0)

            def test_normal_shape():
                assert jax.random.normal(key, (2,)).shape == (2,)

            def test_uniform_shape():
                assert jax.random.uniform(key, (2,)).shape == (2,)
            """,
            """
            import jax

            BASE = jax.random.key(0)

            def step_key(i):
                return jax.random.fold_in(BASE, i)
            """,
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for use in ctx.keys.module_key_uses:
            self.report(
                use.node,
                name=use.name,
                line=str(getattr(use.binding, "lineno", "?")),
                consumer=_callee(ctx, use.node),
                fn=getattr(use.fn, "name", "lambda"),
                why=use.why,
            )
