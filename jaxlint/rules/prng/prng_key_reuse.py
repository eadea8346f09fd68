"""JAX201 prng-key-reuse: a PRNG key consumed twice (two draws on one path, a draw in a loop that
never rebinds the key, a consumed key handed on), with the split-a-subkey fix. The key flow
itself is a shared fact (analysis/flow/keys.py); this file reports it and writes the fix.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.analysis.flow.keys import KeyFlow, Reuse, base_name
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import COMPREHENSIONS, SCOPE_BOUNDARIES, parent, statement_of
from jaxlint.analysis.values import CONTAINERS
from jaxlint.core.diagnostic import Edit, Fix
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
    (images and labels stay paired) and are not reported, nor are two draws in the two
    operands of one `jax.lax.select` / `jnp.where` (each element comes from one of them).
    Confidence: high when every consumption is proven to draw from the key (a `jax.random`
    draw of the module, or a helper, method, constructor, equinox layer or flax `init` /
    `apply` that draws from it on every path: analysis/flow/key_draws.py); medium (in
    preview) when one may draw nothing (a helper that draws under a branch, a flax `init`
    whose parameters come from a checkpoint).
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
    key_reuses = True
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
        elif reuse.kind == "loop" and reuse.how == "arms":
            detail = (
                f"key `{reuse.name}` is consumed by `{short}` on one step of the loop on line "
                f"{reuse.loop.lineno} and by another call of the loop on other steps, but never "  # type: ignore[union-attr]
                "rebound there"
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
                confidence="medium" if ctx.keys.through_helper(reuse) else "high",
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
        confidence = "medium" if ctx.keys.through_helper(reuse) else "high"
        if ctx.keys.draw_beside_split(reuse):
            name = reuse.name
            self.report(
                reuse.node,
                message=(
                    f"{detail}: a draw and a split of one key collide with "
                    "`jax_threefry_partitionable` off (the default before JAX 0.5) when the "
                    "draw takes about as many 32-bit words as the split keys hold "
                    "(`bits(k, (4,))` is `split(k)`'s key data), and `jax.debug_key_reuse` "
                    f"rejects the reuse on any version; split first (`{name}, sub = "
                    f"jax.random.split({name})`) and draw from `sub`"
                ),
                fix=fix,
                confidence=confidence,
            )
            return
        self.report(reuse.node, detail=detail, name=reuse.name, fix=fix, confidence=confidence)

    def _fix(self, reuse: Reuse, ctx: Context) -> Fix | None:
        """Give every consumption of the key in its run of statements its own subkey:
        `key, subkey = split(key)` before each one, so the key stays fresh for whatever comes
        after (the next draw, the next iteration, the caller). Offered only when the key
        analysis of the fixed module finds no reuse of that key left in the function: that
        check is deferred (an uncertain lazy fix) and made for all of the module's findings
        together (`_FixBatch`), when a count, a marker or `--fix` first asks."""
        name = reuse.name
        if reuse.kind not in ("twice", "loop") or name != base_name(name):
            return None
        plan = _split_plan(reuse, ctx)
        if plan is None:
            return None
        if any(ctx.facts.values.of(arg) in CONTAINERS for _, args in plan for arg in args):
            # `rngs = {"params": k1, "dropout": k2}` handed to two `init`s: `split(rngs)`
            # raises TypeError and the subkey would drop the other streams (fortuna,
            # new-user review 4)
            return None
        batch = self.__dict__.get("_fix_batch")
        if batch is None:
            batch = self._fix_batch = _FixBatch(ctx)
        sub = batch.subkey_name()
        spelled = batch.split()
        if spelled is None:
            return None
        split, edits = spelled[0], list(spelled[1])
        for stmt, args in plan:
            line_start = ctx.start(stmt).__class__(stmt.lineno, 0)
            indent = ctx.line_indent(stmt.lineno)
            edits.append(
                ctx.insert(
                    line_start, f"{indent}{name}, {sub} = {split}({name}){ctx.source.newline}"
                )
            )
            edits.extend(ctx.replace(arg, sub) for arg in args)
        candidate = batch.add(edits, name, reuse.node, plan)
        what = "each use" if len(plan) > 1 else "the use"
        return Fix.lazy(
            lambda: batch.edits_of(candidate),
            self.fix_safety,  # type: ignore[arg-type]
            message=f"Split a fresh subkey off `{name}` for {what}",
            certain=False,
        )


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


Where = tuple[tuple[str, ...], int]


def _where(node: ast.AST, inserts: list[tuple[int, int]] | None = None) -> Where:
    """The function a node is in: its path of names and the line of its innermost def
    (module level: 0), as a line of the original text (`inserts`: the lines a fix inserted,
    for a node of the fixed text). Two functions of one name (a file of pasted copies) are
    two functions."""
    cur = parent(node)
    while cur is not None and not isinstance(
        cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
    ):
        cur = parent(cur)
    line = 0 if cur is None else cur.lineno  # type: ignore[attr-defined]
    if line and inserts:
        line = _old_line(line, inserts) or line
    return _function_path(node), line


@dataclass(eq=False)
class _Candidate:
    """One finding's fix, waiting for the check that the key analysis of the fixed code is
    clean (`_FixBatch`)."""

    edits: list[Edit]
    name: str
    where: Where  # the function the reuse is in
    touched: set[int]  # the lines of the statements the fix rewrites
    clean: bool | None = None  # None: not checked yet


class _FixBatch:
    """The JAX201 fixes of one module, checked together. Checking a fix means re-parsing the
    fixed module and re-running the key analysis (`_clean`); once per finding that made a
    file with n findings cost n whole-module analyses (quadratic: 4x the findings, 20x the
    CPU). Here the fixes are applied together in rounds, one parse and one analysis per
    round; a round holds at most one fix per (key, function), since only the reuses of that
    key in that function decide a fix (a fix rebinds a local key of its function, which no
    other function's or other key's reuses can see), so a round gives each fix the verdict it
    gets alone. A file whose fixes each touch their own function needs one round."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.candidates: list[_Candidate] = []
        self._before: dict[tuple[str, Where], list[Reuse]] | None = None
        self._sub: str | None = None
        self._split: tuple[str, list[Edit]] | None | bool = False  # False: not asked yet

    def subkey_name(self) -> str:
        """`subkey` (or `subkey1`, ...: the first name no scope binds), once per module:
        each finding asking scanned every scope."""
        if self._sub is None:
            sub, n = "subkey", 1
            while not name_is_free(self.ctx, sub):
                sub, n = f"subkey{n}", n + 1
            self._sub = sub
        return self._sub

    def split(self) -> tuple[str, list[Edit]] | None:
        """How this module spells `jax.random.split` and the import that needs (None:
        it cannot be spelled), once per module."""
        if self._split is False:
            try:
                self._split = spell(self.ctx, "jax.random.split")
            except LookupError:
                self._split = None
        return self._split  # type: ignore[return-value]

    def add(self, edits: list[Edit], name: str, node: ast.AST, plan: list) -> _Candidate:
        touched = {line for stmt, _ in plan for line in range(stmt.lineno, stmt.end_lineno + 1)}
        candidate = _Candidate(edits, name, _where(node), touched)
        self.candidates.append(candidate)
        return candidate

    def edits_of(self, candidate: _Candidate) -> list[Edit] | None:
        """The candidate's edits when its fix leaves the key analysis clean, else None."""
        if candidate.clean is None:
            self._check([c for c in self.candidates if c.clean is None])
        return candidate.edits if candidate.clean else None

    def _check(self, todo: list[_Candidate]) -> None:
        # findings of one run of reuse get the same fix: checked once
        same: dict[tuple, _Candidate] = {}
        copies: list[tuple[_Candidate, _Candidate]] = []
        unique = []
        for c in todo:
            key = (c.name, c.where, tuple(sorted(_edit_key(e) for e in c.edits)))
            if key in same:
                copies.append((c, same[key]))
            else:
                same[key] = c
                unique.append(c)
        for group in _rounds(unique):
            self._check_round(group)
        for c, original in copies:
            c.clean = original.clean

    def _check_round(self, group: list[_Candidate]) -> None:
        edits = list({_edit_key(e): e for c in group for e in c.edits}.values())
        inserts = sorted(
            (e.start.line, e.content.count("\n"))
            for e in edits
            if e.start == e.end and e.content.count("\n")
        )
        after = self._reuses_after(edits, inserts)
        if after is None:  # together they do not parse: each on its own
            if len(group) > 1:
                for c in group:
                    self._check_round([c])
            else:
                group[0].clean = False
            return
        before = self._reuses_before()
        for c in group:
            key = (c.name, c.where)
            c.clean = _clean(before.get(key, []), after.get(key, []), c, inserts)

    def _reuses_before(self) -> dict[tuple[str, Where], list[Reuse]]:
        if self._before is None:
            self._before = _by_function(self.ctx.keys.reuses)
        return self._before

    def _reuses_after(
        self, edits: list[Edit], inserts: list[tuple[int, int]]
    ) -> dict[tuple[str, Where], list[Reuse]] | None:
        """The key analysis of the fixed text (the same imported key helpers), or None when
        it does not parse."""
        try:
            tree = ast.parse(self.ctx.source.apply(edits))
        except (SyntaxError, ValueError):
            return None
        return _by_function(KeyFlow(ModuleIndex(tree), self.ctx.keys.imported).reuses, inserts)


def _edit_key(e: Edit) -> tuple:
    return (e.start, e.end, e.content)


def _by_function(
    reuses: list[Reuse], inserts: list[tuple[int, int]] | None = None
) -> dict[tuple[str, Where], list[Reuse]]:
    out: dict[tuple[str, Where], list[Reuse]] = {}
    for r in reuses:
        out.setdefault((base_name(r.name), _where(r.node, inserts)), []).append(r)
    return out


def _rounds(candidates: list[_Candidate]) -> list[list[_Candidate]]:
    """The candidates in rounds: in each, one per (key, function) and no two whose edits
    overlap (the same edit in two fixes, an import, is made once). Edits are indexed by line:
    a fix's edits sit on its own statements' lines, so this stays linear."""
    rounds: list[tuple[list[_Candidate], set, set, dict[int, list[tuple]]]] = []
    for c in candidates:
        mine = {_edit_key(e) for e in c.edits}
        free = (
            r for r in rounds if (c.name, c.where) not in r[1] and not _overlaps(mine, r[2], r[3])
        )
        found = next(free, None)
        if found is None:
            found = ([], set(), set(), {})
            rounds.append(found)
        group, owners, taken, lines = found
        group.append(c)
        owners.add((c.name, c.where))
        for key in mine - taken:
            taken.add(key)
            for line in range(key[0].line, key[1].line + 1):
                lines.setdefault(line, []).append(key)
    return [group for group, _, _, _ in rounds]


def _overlaps(mine: set[tuple], taken: set[tuple], lines: dict[int, list[tuple]]) -> bool:
    """Whether an edit of `mine` clashes with a different edit already in the round."""
    for key in mine:
        if key in taken:
            continue
        for line in range(key[0].line, key[1].line + 1):
            for other in lines.get(line, ()):
                if _edits_clash(key, other):
                    return True
    return False


def _edits_clash(a: tuple, b: tuple) -> bool:
    (a0, a1, _), (b0, b1, _) = a, b
    if a0 == a1 == b0 == b1:  # two insertions at one point
        return True
    return a0 < b1 and b0 < a1


def _clean(before: list[Reuse], after: list[Reuse], c: _Candidate, inserts: list) -> bool:
    """The fix must not move the reuse to the next draw, the next iteration or the caller:
    no reuse of the key in the function may sit on an inserted or rewritten line, none may
    be a reuse across iterations or a consumed key handed on, and there must be fewer reuses
    than before. Other runs of reuse in the function (fixed by their own findings, in the
    next round) may remain."""
    if len(after) >= len(before):
        return False
    old = {(r.node.lineno, r.kind) for r in before}  # type: ignore[attr-defined]
    for r in after:
        line = _old_line(r.node.lineno, inserts)  # type: ignore[attr-defined]
        if line is None or line in c.touched or r.kind in ("loop", "escape", "closure"):
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
