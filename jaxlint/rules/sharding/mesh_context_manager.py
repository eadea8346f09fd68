"""JAX305 mesh-context-manager: `with mesh:` on a `jax.sharding.Mesh`, deprecated since
JAX 0.10.1 and replaced by `with jax.set_mesh(mesh):`.
"""

from __future__ import annotations

import ast

from jaxlint.edits.imports import spell
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.sharding._shard_map import value_of

MESHES = {"jax.sharding.Mesh", "jax.make_mesh"}


class MeshContextManager(Rule):
    """Flags `with mesh:` on a `jax.sharding.Mesh`.

    What it does: finds `with m:` where `m` is a `jax.sharding.Mesh(...)` /
    `jax.make_mesh(...)` call or a name bound once to one.
    Why is this bad: `with mesh:` is deprecated since JAX 0.10.1 (`DeprecationWarning:
    with mesh: context manager has been deprecated. Please use with jax.set_mesh(mesh)`).
    It only sets the legacy resource env: `jax.jit(..., in_shardings=P(...))` and
    `jax.shard_map` without `mesh=` raise inside it, while they work under `jax.set_mesh`.
    Example:
        with mesh:
            y = step(x)
    Use instead:
        with jax.set_mesh(mesh):
            y = step(x)
    Fix: -> `with jax.set_mesh(mesh):` (unsafe, always: `set_mesh` does more than the old
    context. Under flax, logical sharding constraints (`nn.with_logical_constraint`) that
    were no-ops become active, and nnx parameters with sharding annotations are sharded
    eagerly when created, so a dimension the mesh does not divide then raises. When the
    module uses `pjit`, `in_shardings=` or `pxla.thread_resources`, `pjit` with bare
    `PartitionSpec`s also needs the old context, and arrays created under `set_mesh` are
    committed to the mesh, so a `jit` with different `in_shardings` rejects them). The fix
    message names the reason. `with mesh as m:` gets no fix (`set_mesh` yields None).
    """

    silent_in_compat_code = True  # old-JAX branches of compatibility code
    code = "JAX305"
    name = "mesh-context-manager"
    message = "`with {mesh}:` is deprecated (JAX 0.10.1) and sets only the legacy mesh context; use `with jax.set_mesh({mesh}):`"
    fix_safety = "unsafe"
    verifier = "import"
    tier = 2
    templates = ("sharding",)
    examples = Examples(
        invalid=(
            """
            import jax
            import numpy as np
            from jax.sharding import Mesh

            mesh = Mesh(np.array(jax.devices()), ("data",))
            with mesh:  # error: JAX305
                y = jax.numpy.ones(4)
            with jax.make_mesh((1,), ("x",)) as m:  # error: JAX305
                pass
            """,
        ),
        valid=(
            """
            import contextlib

            import jax

            mesh = jax.make_mesh((1,), ("x",))
            with jax.set_mesh(mesh):
                pass
            lock = contextlib.nullcontext()
            with lock:
                pass
            """,
        ),
        unsafe_fixes=(
            (
                """
                from jax.sharding import Mesh

                def run(devices, step, x):
                    mesh = Mesh(devices, ("data",))
                    with mesh, open("log.txt") as log:
                        return step(x)
                """,
                """
                from jax.sharding import Mesh
                import jax

                def run(devices, step, x):
                    mesh = Mesh(devices, ("data",))
                    with jax.set_mesh(mesh), open("log.txt") as log:
                        return step(x)
                """,
            ),
            (
                """
                import jax
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((1,), ("x",))
                f = jax.jit(lambda a: a, in_shardings=NamedSharding(mesh, P("x")))
                with mesh:
                    y = f(jax.numpy.ones(4))
                """,
                """
                import jax
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((1,), ("x",))
                f = jax.jit(lambda a: a, in_shardings=NamedSharding(mesh, P("x")))
                with jax.set_mesh(mesh):
                    y = f(jax.numpy.ones(4))
                """,
            ),
        ),
    )

    def visit_With(self, node: ast.With, ctx: Context) -> None:
        if not ctx.target.reaches("0.10.1"):
            return  # `with mesh:` is deprecated from 0.10.1; before, it is the way
        have = ctx.target.availability("0.7.1")  # `jax.set_mesh`
        for item in node.items:
            expr = item.context_expr
            if not self._is_mesh(expr, ctx):
                continue
            fix = None
            if item.optional_vars is None and have is not None:
                try:
                    text, edits = spell(ctx, "jax.set_mesh")
                    fix = self.fix(
                        ctx.replace(expr, f"{text}({ctx.text(expr)})"),
                        *edits,
                        safety="unsafe",
                        message=self._fix_message(ctx, have),
                    )
                except LookupError:
                    fix = None
            shown = ctx.text(expr) if isinstance(expr, ast.Name) else "mesh"
            self.report(expr, mesh=shown, fix=fix)

    def _fix_message(self, ctx: Context, have: str) -> str:
        """Why the fix is unsafe, said where the user decides to apply it (the fix is never
        safe: `set_mesh` activates sharding that `with mesh:` left inert)."""
        reasons = [
            "under flax, logical sharding constraints become active and nnx parameters with"
            " sharding annotations are sharded eagerly (a dimension the mesh does not divide"
            " raises)"
        ]
        if self._legacy_users(ctx):
            reasons.append(
                "this module uses `pjit` / `in_shardings=`, which behave differently under"
                " `set_mesh`"
            )
        if have != "safe":
            reasons.append("`jax.set_mesh` needs JAX 0.7.1, older than some target JAX")
        return "Use `jax.set_mesh` (unsafe: " + "; ".join(reasons) + ")"

    def _is_mesh(self, expr: ast.AST, ctx: Context) -> bool:
        value = value_of(expr, ctx)
        return isinstance(value, ast.Call) and ctx.qualname(value.func) in MESHES

    def _legacy_users(self, ctx: Context) -> bool:
        """The module passes `in_shardings=`, or imports from `pjit` / `pxla`."""
        cached = getattr(self, "_legacy", None)
        if cached is None:
            legacy = ("jax.experimental.pjit", "jax.interpreters.pxla")
            cached = (
                any(kw.arg == "in_shardings" for call in ctx.index.calls for kw in call.keywords)
                or any(
                    (ctx.qualname(call.func) or "").startswith(legacy) for call in ctx.index.calls
                )
                or any(
                    b.kind == "import" and (b.qualname or "").startswith(legacy)
                    for scope in ctx.index.scopes.values()
                    for bindings in scope.bindings.values()
                    for b in bindings
                )
            )
            self._legacy = cached
        return cached
