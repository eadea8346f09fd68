"""jit-on-method (JAX409): `@jax.jit` on a method of a plain class. `self` is traced
like any argument and is not a JAX type (a TypeError), or, made static, is hashed
by identity so attribute changes return stale results.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.instance_state import attributes_set_after_init, self_attributes_read
from jaxlint.analysis.jit_sites import defines_flattening, jit_spec_of_def
from jaxlint.analysis.syntax import parent, positional_params
from jaxlint.core.diagnostic import Position
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.compile._values import identity_hashed_class

JIT_ON_METHOD = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"})


def _pytree_class(ctx: Context, cls: ast.ClassDef) -> bool:
    """`self` may be a pytree: decorated, derived from anything but `object`, registered,
    or defining `tree_flatten`."""
    if cls.decorator_list or cls.keywords:
        return True
    if any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return True
    if defines_flattening(cls):
        return True
    for call in ctx.index.calls:
        q = ctx.qualname(call.func) or ""
        if "register" in q and any(isinstance(a, ast.Name) and a.id == cls.name for a in call.args):
            return True
    return False


def _stale_attributes(ctx: Context, cls: ast.ClassDef, method: ast.FunctionDef) -> bool:
    """Some attribute that `method` reads (or any, when that is unknown) is reassigned by a
    method that can run after construction (not a public helper that only `__init__` calls
    and no project module calls: `ModuleFacts.construction_only`)."""
    prefix = cls.name + "."
    public = frozenset(
        m[len(prefix) :] for m in ctx.facts.construction_only if m.startswith(prefix)
    )
    changed = attributes_set_after_init(cls, public)
    read = self_attributes_read(cls, method)
    return bool(changed if read is None else changed & read)


class JitOnMethod(Rule):
    """Flags `@jax.jit` on a method.

    What it does: finds `@jax.jit` (or `@partial(jax.jit, ...)`, `@jit(...)`) on a `def` whose
    first parameter is `self`, in a plain class (not a registered pytree, dataclass or
    framework Module). With `static_argnums=0`, flags it when the class hashes by identity
    and an attribute the method reads (itself or through the class's other methods) is
    reassigned by a method that can run after construction (not `__init__`, nor a private
    helper only `__init__` calls).
    Why is this bad: `self` is passed like any argument: a plain object is not a valid JAX
    type, so the call raises `TypeError: Error interpreting argument to <function A.calc>
    as an abstract array ... at path self`. Marking `self` static hashes it by identity, so
    attribute changes are ignored and stale results come back.
    Example:
        class Scaler:
            @jax.jit
            def apply(self, x):
                return x * self.scale
    Use instead:
        @jax.jit
        def apply(scale, x):             # module-level, state passed explicitly
            return x * scale

        class Scaler:
            def apply(self, x):
                return apply(self.scale, x)
    Fix: none (the state has to become explicit arguments, or the class a pytree).
    """

    code = "JAX409"
    name = "jit-on-method"
    message = "{why}; jit a module-level function that takes the state as arguments (or make the class a pytree)"
    verifier = "trace"
    tier = 3
    examples = Examples(
        invalid=(
            """
            import jax

            class Scaler:
                def __init__(self, scale):
                    self.scale = scale

                @jax.jit
                def apply(self, x):  # error: JAX409
                    return x * self.scale
            """,
            """
            from functools import partial
            from jax import jit

            class Counter:
                def __init__(self):
                    self.mul = 2.0

                def set(self, v):
                    self.mul = v

                @partial(jit, static_argnums=0)
                def calc(self, x):  # error: JAX409
                    return x * self.mul
            """,
            """
            from functools import partial
            import jax

            class Schedule:
                def __init__(self):
                    self._lr = 0.1

                def decay(self):
                    self._lr = self._lr / 2

                @property
                def lr(self):
                    return self._lr

                @partial(jax.jit, static_argnums=0)
                def step(self, params, grads):  # error: JAX409
                    return params - self.lr * grads
            """,
        ),
        valid=(
            """
            import jax
            import equinox as eqx
            from flax import struct

            class Linear(eqx.Module):
                w: jax.Array

                @jax.jit
                def __call__(self, x):
                    return x @ self.w

            @struct.dataclass
            class State:
                step: int

                @jax.jit
                def next(self):
                    return self.replace(step=self.step + 1)

            class Tools:
                @staticmethod
                @jax.jit
                def double(x):
                    return x * 2
            """,
            """
            from functools import partial
            import jax

            class Frozen:
                def __init__(self, mul):
                    self.mul = mul

                @partial(jax.jit, static_argnums=0)
                def calc(self, x):  # static self, never mutated after __init__
                    return x * self.mul
            """,
            """
            from functools import partial
            import jax

            class Trainer:
                def __init__(self, lr):
                    self.lr = lr
                    self.steps = 0

                def train(self, params, grads):
                    self.steps += 1  # changes, but `_step` never reads it
                    return self._step(params, grads)

                @partial(jax.jit, static_argnums=0)
                def _step(self, params, grads):
                    return params - self.lr * grads
            """,
        ),
    )

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        ctx.index  # noqa: B018 - builds the parent links
        cls = parent(node)
        if not isinstance(cls, ast.ClassDef):
            return
        params = positional_params(node)
        if not params or params[0] != "self":
            return
        spec = jit_spec_of_def(ctx.index, node)
        if spec is None or spec.qualname not in JIT_ON_METHOD or spec.unknown_static:
            return
        static_self = 0 in spec.static_positions or "self" in spec.static_names
        if static_self:
            if not identity_hashed_class(ctx, cls) or not _stale_attributes(ctx, cls, node):
                return
            why = (
                f"`{node.name}` is jitted with `self` static, but `{cls.name}` hashes by identity "
                "and its attributes change: calls after a change reuse the stale compiled result"
            )
        else:
            if _pytree_class(ctx, cls):
                return
            why = (
                f"`@jit` on the method `{cls.name}.{node.name}` traces `self`, which is not a JAX type: "
                "the call raises `TypeError: Error interpreting argument ... at path self`"
            )
        self.report(node, why=why, span=_def_span(ctx, node))

    visit_AsyncFunctionDef = visit_FunctionDef


def _def_span(ctx: Context, node: ast.FunctionDef):  # noqa: ANN202
    from jaxlint.core.diagnostic import Span

    line = node.lineno
    text = ctx.source.line(line)
    col = len(text) - len(text.lstrip())
    return Span(Position(line, col), Position(line, len(text.rstrip())))
