"""nan-gradient-through-where (JAX704): `jnp.where(x > 0, jnp.sqrt(x), 0.)` in a function
`jax.grad` differentiates: the untaken branch's derivative is NaN or infinite where the
condition excludes it, and NaN times the zero cotangent the where gives it is NaN.

Facts, measured on JAX 0.12.1, 0.10.2 and 0.6.2 (CPU), `jax.grad` of
`sum(where(cond(x), f(x), 0.))` at `x = [-1, 0, 2]`: NaN for sqrt, log, log2, log10, log1p
(at -1), rsqrt, cbrt, `1 / x`, `jnp.divide`, `jnp.reciprocal`, `x ** 0.5`, `x ** 1.5` (below
0), `x ** -1`, `jnp.power(x, 0.5)`, arcsin/arccos/arctanh (at |x| >= 1), and
`jnp.linalg.norm(v)` at `v = 0`; finite for `x ** 2`, `x ** 3`, `jnp.exp`. The double where
(`f(jnp.where(cond, x, safe))`) was finite with safe = 1.0, 0.0 and 0.5 for every one of them
(the inner where drops the NaN cotangent); SAFE is 1.0, or 0.0 inside (-1, 1) for
arcsin/arccos/arctanh/log1p, so the untaken value stays finite too. `jnp.maximum(x, eps)` and
`jnp.clip(x, eps)` inside are finite; `x + eps` is not for negative `x` (the rule stays silent
on it: `x` may be known non-negative). `v / n` with `n = jnp.linalg.norm(v)` stays NaN after
a double where on `n`: the norm's own derivative at 0 is NaN.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from jaxlint.analysis.constants import non_finite_constant
from jaxlint.analysis.jax_api import NO_DERIVATIVE
from jaxlint.analysis.syntax import FUNCTION_NODES, parent
from jaxlint.edits.imports import spell
from jaxlint.rules.base import Context, Examples, Rule

WHERE = "jax.numpy.where"


@dataclass(frozen=True)
class Singularity:
    """Where an op's derivative is NaN or infinite: `points` are values of its argument there
    (the boundary of its domain), `safe` a value with a finite derivative."""

    points: tuple[float, ...]
    safe: str


# undefined below 0 (a point there: `x >= 0` picks the op at 0 but not at -1), infinite
# derivative at 0
POSITIVE = Singularity((0.0, -1.0), "1.0")
NONZERO = Singularity((0.0,), "1.0")
ABOVE_MINUS_ONE = Singularity((-1.0, -2.0), "0.0")
OPEN_UNIT = Singularity((1.0, -1.0), "0.0")
SINGULAR_CALLS: dict[str, tuple[int, Singularity]] = {
    **{f"jax.numpy.{n}": (0, POSITIVE) for n in ("sqrt", "log", "log2", "log10")},
    **{f"jax.lax.{n}": (0, POSITIVE) for n in ("sqrt", "log", "rsqrt")},
    "jax.numpy.log1p": (0, ABOVE_MINUS_ONE),
    "jax.lax.log1p": (0, ABOVE_MINUS_ONE),
    "jax.numpy.cbrt": (0, NONZERO),
    "jax.lax.cbrt": (0, NONZERO),
    "jax.numpy.reciprocal": (0, NONZERO),
    "jax.numpy.divide": (1, NONZERO),
    "jax.numpy.true_divide": (1, NONZERO),
    "jax.lax.div": (1, NONZERO),
    **{f"jax.numpy.{n}": (0, OPEN_UNIT) for n in ("arcsin", "arccos", "arctanh")},
    **{f"jax.lax.{n}": (0, OPEN_UNIT) for n in ("asin", "acos", "atanh")},
    "jax.numpy.linalg.norm": (0, POSITIVE),
}
POWERS = frozenset({"jax.numpy.power", "jax.numpy.float_power", "jax.lax.pow"})
NORMS = frozenset({"jax.numpy.linalg.norm"})
# calls whose result is kept away from a singular point: the argument is already made safe
CLAMPS = frozenset(
    {
        "jax.numpy.where",
        "jax.numpy.maximum",
        "jax.numpy.fmax",
        "jax.numpy.clip",
        "jax.lax.clamp",
        "jax.lax.max",
        "jax.nn.softplus",
        "jax.numpy.exp",
    }
)
COMPARISONS: dict[type, Callable[[float, float], bool]] = {
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
ABS = frozenset({"jax.numpy.abs", "jax.numpy.absolute", "abs", "jax.lax.abs"})
SQUARED_NORMS = frozenset({"jax.numpy.sum", "jax.numpy.dot", "jax.numpy.vdot", "jax.numpy.inner"})
EPSILON_WORDS = ("eps", "tol", "tiny")  # a threshold named so is a small positive number
SMALL = 1e-6
AND_CALLS = frozenset({"jax.numpy.logical_and"})
PURE_PREFIXES = ("jax.numpy.", "jax.lax.")


@dataclass(frozen=True)
class Guarded:
    """A singular op in a branch of a `jnp.where` whose condition excludes its singular
    point: `arg` is the op's argument, `taken` the branch (True: the where's second argument)."""

    op: ast.AST
    arg: ast.expr
    singularity: Singularity
    taken: bool


class NanGradientThroughWhere(Rule):
    """Flags a `jnp.where` that guards a singular op (sqrt, log, `1 / x`) in a differentiated function.

    What it does: finds `jnp.where(cond, a, b)` where a branch applies an op whose derivative
    is NaN or infinite at some point (`jnp.sqrt`, `jnp.log`, `1 / x`, `x ** 0.5`,
    `jnp.arcsin`, `jnp.linalg.norm`, ...) to an expression that the condition compares with a
    constant so that the other branch is chosen at that point (`x > 0`, `x != 0`,
    `jnp.abs(x) > 1e-8`, `x >= eps`), inside a function that `jax.grad` & co. differentiate
    (in this module, directly or through the helpers it calls with a differentiated value),
    when the op's value depends on a differentiated value (`a / x` with only `a`
    differentiated has the derivative `1 / x`).
    Why is this bad: `jnp.where` computes both branches. Its forward value is fine, but under
    `jax.grad` the untaken branch gets a zero cotangent, and zero times the op's NaN or
    infinite derivative there is NaN: the gradient is NaN wherever the condition is false,
    and the NaN spreads to every parameter through the rest of the backward pass.
    Example:
        def loss(x):
            return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))

        grads = jax.grad(loss)(x)  # NaN where x <= 0
    Use instead:
        def loss(x):
            safe_x = jnp.where(x > 0, x, 1.0)  # the "double where" of the JAX FAQ
            return jnp.sum(jnp.where(x > 0, jnp.sqrt(safe_x), 0.0))
    Fix (unsafe): the op's argument `x` becomes `jnp.where(cond, x, SAFE)` (SAFE a value with
    a finite derivative: 1.0, or 0.0 for arcsin/arccos/arctanh/log1p) when `x` is a name or an
    attribute and the condition has no side effects. The forward value is unchanged; it is
    unsafe because it evaluates the condition twice and changes the gradient (NaN to 0).
    Known problems: it stays silent where the argument is already clamped (`jnp.maximum(x,
    eps)`, `jnp.clip`, `x + eps`, a name bound to one of these), where the condition is about
    another variable than the op's argument (`jnp.where(mask, jnp.log(x), 0.)`: nothing
    proves `x` is singular where `mask` is false), where the threshold is a name that is
    neither a module constant nor named like an epsilon, and where no grad of this module
    reaches the function. The function's inputs are not known: a gradient is NaN only if
    some element takes the singular value.
    References: https://docs.jax.dev/en/latest/faq.html#gradients-contain-nan-where-using-where
    """

    code = "JAX704"
    name = "nan-gradient-through-where"
    message = (
        "`{op}` in the untaken branch of this `jnp.where` has a NaN or infinite derivative "
        "where `{cond}` is {truth}: {grad} is NaN there; apply the where to `{arg}` too "
        "(double where)"
    )
    fix_safety = "unsafe"
    # `trace` and `numeric` run the function forward, where the where's value is right:
    # `gradnan` takes `jax.value_and_grad` of the flagged function at inputs that put it on
    # the excluded points (runtime/kinds/gradnan.py), NaN before the fix, finite after
    verifier = "gradnan"
    tier = 2
    prefilter_words = ("where",)
    prefilter_with_default = True
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            def logp(x):
                # -inf where the guard fails, but logsumexp makes it finite: the NaN counts
                return jax.nn.logsumexp(jnp.where(x > 0, jnp.log(x), -jnp.inf))  # error: JAX704

            def root(x):
                return jnp.sum(jnp.where(x >= 0, jnp.sqrt(x), 0.0))  # error: JAX704

            g = jax.grad(logp)
            h = jax.grad(root)
            """,
            """
            import jax
            import jax.numpy as jnp

            def loss(x):
                return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))  # error: JAX704

            grads = jax.grad(loss)(jnp.array([-1.0, 0.0, 2.0]))
            """,
            """
            import jax
            import jax.numpy as np

            @jax.jit
            @jax.value_and_grad
            def loss(x):
                inv = np.where(x != 0, 1 / x, 0.0)  # error: JAX704
                logs = np.where(x > 1e-8, np.log(x), -18.0)  # error: JAX704
                return np.sum(inv + logs)
            """,
            """
            import jax
            import jax.numpy as jnp

            def safe_norm(v):
                r = jnp.sum(v * v)
                return jnp.where(r > 0, jnp.sqrt(r), 0.0)  # error: JAX704

            def loss(params, batch):
                return jnp.mean(safe_norm(params["w"] - batch))

            step = jax.jit(jax.grad(loss))
            """,
            """
            import jax
            import jax.numpy as jnp

            EPS = 1e-6

            def energy(r, n):
                root = jnp.where(r >= EPS, r ** 0.5, 0.0)  # error: JAX704
                unit = jnp.where(jnp.abs(n) > 1e-8, r / n, 0.0)  # error: JAX704
                return jnp.sum(root + unit)

            forces = jax.grad(energy, argnums=(0, 1))
            """,
            """
            import jax
            import jax.numpy as jnp

            def angle(c, v):
                a = jnp.where(jnp.abs(c) < 1, jnp.arccos(c), 0.0)  # error: JAX704
                n = jnp.where(v == 0, 0.0, 1.0 / v)  # error: JAX704
                return a + n

            tangent = jax.jacfwd(angle, argnums=(0, 1))
            """,
        ),
        valid=(
            """
            import jax.numpy as jnp

            def loss(x):  # nothing differentiates it
                return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))
            """,
            """
            import jax
            import jax.numpy as jnp

            def log_prior(x):
                # -inf where the guard fails: no finite value there, its gradient is moot
                return jnp.sum(jnp.where(x > 0, -0.5 * jnp.log(x) ** 2, -jnp.inf))

            grad_prior = jax.grad(log_prior)
            """,
            """
            import jax
            import jax.numpy as jnp

            def loss(x, eps):
                safe = jnp.where(x > 0, x, 1.0)
                a = jnp.where(x > 0, jnp.sqrt(safe), 0.0)  # the double where
                b = jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0)
                c = jnp.where(x > 0, jnp.sqrt(jnp.maximum(x, 1e-12)), 0.0)
                d = jnp.where(x > 0, jnp.log(x + eps), 0.0)
                clipped = jnp.clip(x, 1e-6, None)
                e = jnp.where(clipped > 0, jnp.log(clipped), 0.0)
                f = jnp.where(x > 0, x ** 2, 0.0)  # not singular
                g = jnp.where(x > 0, jnp.exp(x), 0.0)
                return jnp.sum(a + b + c + d + e + f + g)

            grads = jax.grad(loss)
            """,
            """
            import jax
            import jax.numpy as jnp

            def loss(params, x, mask):
                w = params["w"]
                a = jnp.where(mask, jnp.log(w), 0.0)  # the condition is about another value
                b = jnp.where(x > 0, jnp.sqrt(x), 0.0)  # x is data: not differentiated
                c = jnp.where(w > 1.0, jnp.log(w + 1.0), 0.0)
                idx = jnp.where(w > 0)  # one argument: indices
                e = jnp.where(w > 0, jax.lax.stop_gradient(jnp.sqrt(w)), 0.0)
                return jnp.sum(a + b + c + e) + idx[0].size

            grads = jax.grad(loss)
            """,
        ),
        unsafe_fixes=(
            (
                # `jax.numpy` imported inside the function: the fix spells the where as the
                # flagged call does (v34 gp_pipeline: a fresh import there was a LookupError)
                """
                from jax import grad

                def loss(x):
                    import jax.numpy as jnp

                    return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))

                grad_loss = grad(loss)
                """,
                """
                from jax import grad

                def loss(x):
                    import jax.numpy as jnp

                    return jnp.sum(jnp.where(x > 0, jnp.sqrt(jnp.where(x > 0, x, 1.0)), 0.0))

                grad_loss = grad(loss)
                """,
            ),
            (
                """
                import jax
                import jax.numpy as jnp

                def loss(x, cfg):
                    a = jnp.where(x > 0, jnp.sqrt(x), 0.0)
                    b = jnp.where(cfg.n != 0, x / cfg.n, 0.0)
                    c = jnp.where(x == 0, 0.0, 1 / x)
                    return jnp.sum(a + b + c)

                grads = jax.grad(loss, argnums=(0, 1))
                """,
                """
                import jax
                import jax.numpy as jnp

                def loss(x, cfg):
                    a = jnp.where(x > 0, jnp.sqrt(jnp.where(x > 0, x, 1.0)), 0.0)
                    b = jnp.where(cfg.n != 0, x / jnp.where(cfg.n != 0, cfg.n, 1.0), 0.0)
                    c = jnp.where(x == 0, 0.0, 1 / jnp.where(x == 0, 1.0, x))
                    return jnp.sum(a + b + c)

                grads = jax.grad(loss, argnums=(0, 1))
                """,
            ),
            (
                """
                import jax
                from jax import numpy as np

                def norm(v):
                    r = np.sum(v * v)
                    return np.where(r > 0, np.linalg.norm(v), 0.0)

                g = jax.grad(norm)
                """,
                """
                import jax
                from jax import numpy as np

                def norm(v):
                    r = np.sum(v * v)
                    return np.where(r > 0, np.linalg.norm(np.where(r > 0, v, 1.0)), 0.0)

                g = jax.grad(norm)
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 3 or node.keywords or ctx.qualname(node.func) != WHERE:
            return
        if any(isinstance(a, ast.Starred) for a in node.args):
            return
        fn = ctx.index.enclosing_function(node)
        row = ctx.facts.differentiation.get(fn)
        if fn is None or row is None:
            return
        cond = node.args[0]
        for found in _guarded_ops(ctx, cond, node.args[1], node.args[2]):
            # the op's value, not only its argument: `a / x` has the derivative `1 / x` in `a`
            if not ctx.facts.differentiation.depends(fn, found.op):
                continue
            if _made_safe(ctx, found.arg):
                continue
            grad = (
                f"`{row.via}` of `{row.entry}`"
                if not row.chain
                else f"`{row.via}` of `{row.entry}` ({row.describe()})"
            )
            self.report(
                found.op,
                op=_short(ctx.text(found.op)),
                cond=_short(ctx.text(cond)),
                truth="false" if found.taken else "true",
                grad=grad,
                arg=_short(ctx.text(found.arg)),
                fix=self._fix(ctx, cond, found),
                confidence=row.confidence,
            )

    def _fix(self, ctx: Context, cond: ast.expr, found: Guarded):  # noqa: ANN202
        if not isinstance(found.arg, (ast.Name, ast.Attribute)) or not _pure(ctx, cond):
            return None
        call = parent(cond)
        if isinstance(call, ast.Call) and call.args and call.args[0] is cond:
            # the where being fixed spells it already (`jnp.where`, `np.where` with `import
            # jax.numpy as np`): a module whose `jax` is another name needs no import then
            where, imports = ctx.text(call.func), []
        else:
            try:
                where, imports = spell(ctx, WHERE)
            except LookupError:  # `jax` is bound to something else here (v34 gp_pipeline)
                return None
        arg, test, safe = ctx.text(found.arg), ctx.text(cond), found.singularity.safe
        picked = f"{arg}, {safe}" if found.taken else f"{safe}, {arg}"
        edit = ctx.replace(found.arg, f"{where}({test}, {picked})")
        return self.fix(*imports, edit, message=f"Apply the where to `{arg}` too (double where)")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _guarded_ops(ctx: Context, cond: ast.expr, yes: ast.expr, no: ast.expr) -> Iterator[Guarded]:
    where = parent(cond)
    for branch, taken in ((yes, True), (no, False)):
        other = no if taken else yes
        if non_finite_constant(ctx.index, other) and _returned_as_is(ctx, where):
            # `return jnp.where(x > 0, jnp.log(x), -jnp.inf)`: the function's value is not
            # finite there either, so its gradient is moot; fed to `logsumexp` or `exp` the
            # -inf turns finite and the NaN gradient is real (a new user's repro, stop 53)
            continue
        for op, arg, sing in _singular_ops(ctx, branch):
            if _excludes(ctx, cond, arg, sing, taken):
                yield Guarded(op, arg, sing, taken)


# what keeps an infinity infinite on the way to the return value
_KEEPS_INFINITY = frozenset({"jax.numpy.sum", "jax.numpy.mean", "jax.numpy.squeeze"})


def _returned_as_is(ctx: Context, node: ast.AST | None) -> bool:
    """`node`'s value is the function's return value, through `+`, `-`, `*`, a unary minus or
    a sum/mean only: an infinity in it stays one in what the function returns."""
    cur = node
    while cur is not None:
        up = parent(cur)
        if isinstance(up, ast.Return):
            return True
        if isinstance(up, ast.BinOp) and isinstance(up.op, (ast.Add, ast.Sub, ast.Mult)):
            cur = up
        elif isinstance(up, ast.UnaryOp) and isinstance(up.op, (ast.USub, ast.UAdd)):
            cur = up
        elif (
            isinstance(up, ast.Call)
            and ctx.qualname(up.func) in _KEEPS_INFINITY
            and up.args
            and up.args[0] is cur
        ):
            cur = up
        else:
            return False
    return False


def _singular_ops(
    ctx: Context, branch: ast.expr
) -> Iterator[tuple[ast.AST, ast.expr, Singularity]]:
    """The singular ops of a branch whose value reaches the where with its derivative."""
    stack: list[ast.AST] = [branch]
    while stack:
        cur = stack.pop()
        if isinstance(cur, (*FUNCTION_NODES, ast.Compare, ast.BoolOp)):
            continue
        if isinstance(cur, ast.Call):
            q = ctx.qualname(cur.func)
            if q in NO_DERIVATIVE or q == WHERE:  # jax_api: no derivative flows back through it
                continue
            if isinstance(cur.func, ast.Attribute) and cur.func.attr == "astype":
                continue
            found = _singular_call(ctx, cur, q)
            if found is not None:
                yield cur, found[0], found[1]
        elif isinstance(cur, ast.BinOp):
            if isinstance(cur.op, ast.Div):
                yield cur, cur.right, NONZERO
            elif isinstance(cur.op, ast.Pow):
                sing = _power(cur.right)
                if sing is not None:
                    yield cur, cur.left, sing
        stack.extend(ast.iter_child_nodes(cur))


def _singular_call(
    ctx: Context, call: ast.Call, q: str | None
) -> tuple[ast.expr, Singularity] | None:
    if q is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if q in POWERS and len(call.args) == 2:
        sing = _power(call.args[1])
        return (call.args[0], sing) if sing is not None else None
    entry = SINGULAR_CALLS.get(q)
    if entry is None or len(call.args) <= entry[0]:
        return None
    if q in NORMS and (len(call.args) > 1 or call.keywords):
        return None  # an axis or an order: which elements are zero is not the condition's
    return call.args[entry[0]], entry[1]


def _power(exponent: ast.expr) -> Singularity | None:
    """`x ** c`: a negative integer `c` is singular at 0, a non-integer `c < 1` below and at
    0; a positive integer, or a non-integer above 1 at 0, is not singular there."""
    c = _number(exponent)
    if c is None or c == 0:
        return None
    if float(c).is_integer():
        return NONZERO if c < 0 else None
    return POSITIVE if c < 1 else None


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand)
        if v is None:
            return None
        return -v if isinstance(node.op, ast.USub) else v
    return None


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def _excludes(ctx: Context, cond: ast.expr, arg: ast.expr, sing: Singularity, taken: bool) -> bool:
    """The where picks the other branch at one of the op's singular points: `cond` is a
    comparison of `arg` (or `abs(arg)`, or a squared norm of the norm's vector) with a
    number, false there when the op is in the taken branch (true when in the other)."""
    if taken:
        parts = _conjuncts(ctx, cond)  # one false conjunct makes the condition false
    else:
        parts = [cond]
    for part in parts:
        for point in sing.points:
            value = _evaluate(ctx, part, arg, point)
            if value is not None and value is not taken:
                return True
    return False


def _conjuncts(ctx: Context, cond: ast.expr) -> list[ast.expr]:
    if isinstance(cond, ast.BinOp) and isinstance(cond.op, ast.BitAnd):
        return [*_conjuncts(ctx, cond.left), *_conjuncts(ctx, cond.right)]
    if isinstance(cond, ast.BoolOp) and isinstance(cond.op, ast.And):
        return [c for v in cond.values for c in _conjuncts(ctx, v)]
    if isinstance(cond, ast.Call) and ctx.qualname(cond.func) in AND_CALLS and not cond.keywords:
        return [c for v in cond.args for c in _conjuncts(ctx, v)]
    return [cond]


def _evaluate(ctx: Context, cond: ast.expr, arg: ast.expr, point: float) -> bool | None:
    """`cond` with `arg` at `point`, or None when it is not a comparison of `arg` (or of its
    absolute value) with a number."""
    if not isinstance(cond, ast.Compare) or len(cond.ops) != 1:
        return None
    compare = COMPARISONS.get(type(cond.ops[0]))
    if compare is None:
        return None
    left, right = cond.left, cond.comparators[0]
    lv = _value_at(ctx, left, arg, point)
    rv = _value_at(ctx, right, arg, point)
    if lv is None or rv is None or (lv[1] == rv[1]):
        return None  # both constants, or both the argument
    return compare(lv[0], rv[0])


def _value_at(
    ctx: Context, side: ast.expr, arg: ast.expr, point: float
) -> tuple[float, bool] | None:
    """(value, is the argument) of one side of a comparison with `arg` at `point`."""
    if _same(side, arg) or _norm_of(ctx, side, arg):
        return point, True
    if isinstance(side, ast.Call) and ctx.qualname(side.func) in ABS and len(side.args) == 1:
        if _same(side.args[0], arg):
            return abs(point), True
    value = _threshold(ctx, side)
    return (value, False) if value is not None else None


def _norm_of(ctx: Context, side: ast.expr, arg: ast.expr) -> bool:
    """`side` is the squared norm of the norm's vector (`r > 0` with `r = jnp.sum(v * v)`
    and the op `jnp.linalg.norm(v)`): zero exactly where the norm is."""
    norm = parent(arg)
    if not (isinstance(norm, ast.Call) and ctx.qualname(norm.func) in NORMS):
        return False
    value = side
    if isinstance(side, ast.Name):
        bindings = ctx.index.lookup(side.id, ctx.index.scope_of(side)) or []
        if len(bindings) != 1 or bindings[0].value is None:
            return False
        value = bindings[0].value
    if not isinstance(value, ast.Call):
        return False
    q = ctx.qualname(value.func)
    if q in NORMS and len(value.args) == 1 and not value.keywords:
        return _same(value.args[0], arg)
    if q in SQUARED_NORMS and value.args:
        inner = value.args[0]
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, (ast.Mult, ast.Pow)):
            return _same(inner.left, arg)
        return q != "jax.numpy.sum" and all(_same(a, arg) for a in value.args)
    return False


def _threshold(ctx: Context, node: ast.expr) -> float | None:
    """A number: a literal, a module constant bound once to one, or a name that says it is a
    small positive tolerance (`eps`, `tol`, `tiny`)."""
    value = _number(node)
    if value is not None:
        return value
    if isinstance(node, (ast.Name, ast.Attribute)):
        if isinstance(node, ast.Name):
            bindings = ctx.index.lookup(node.id, ctx.index.scope_of(node)) or []
            if len(bindings) == 1 and bindings[0].value is not None:
                bound = _number(bindings[0].value)
                if bound is not None:
                    return bound
        word = node.id if isinstance(node, ast.Name) else node.attr
        if any(w in word.lower() for w in EPSILON_WORDS):
            return SMALL
    return None


def _made_safe(ctx: Context, arg: ast.expr) -> bool:
    """The op's argument is a name bound to a clamped value (`x = jnp.maximum(x, eps)`,
    `safe = jnp.where(...)`, `x = y + eps`): its singular point may never be reached."""
    if not isinstance(arg, ast.Name):
        return False
    for b in ctx.index.lookup(arg.id, ctx.index.scope_of(arg)) or []:
        if b.value is not None and _clamped(ctx, b.value):
            return True
    return False


def _clamped(ctx: Context, value: ast.expr) -> bool:
    if isinstance(value, ast.Call):
        return ctx.qualname(value.func) in CLAMPS
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        return any(_threshold(ctx, side) not in (None, 0.0) for side in (value.left, value.right))
    return False


def _pure(ctx: Context, cond: ast.AST) -> bool:
    """Evaluating `cond` twice does what evaluating it once does: names, attributes,
    constants, operators and jax.numpy/lax calls of those."""
    for node in ast.walk(cond):
        if isinstance(node, ast.Call):
            q = ctx.qualname(node.func)
            if q is None or not q.startswith(PURE_PREFIXES) or q.startswith("jax.random."):
                return False
        elif isinstance(node, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda)):
            return False
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.SetComp)):
            return False
    return True
