"""JAX207 key-unmapped-in-vmap: a key that `vmap` broadcasts (`in_axes=None` or closed over) into a
draw, so every batch element draws the same numbers (fact: `KeyFlow.unmapped_keys`).
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS, callee_name


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
    verify = Verify(unmapped_key=True)
    prefilter_words = KEY_FLOW_WORDS
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
                consumer=callee_name(ctx, u.consumer),
                line=str(u.consumer.lineno),
            )
