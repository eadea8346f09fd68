"""Row 27 (PennyLaneAI/catalyst frontend/catalyst/api_extensions/callbacks.py:344-352): a jitted
`total` rebuilds the nonlocal `users_func` (a jax.tree_util.Partial) from traced `context`.
Checks that (a) the nonlocal keeps tracers after tracing (the claim), and (b) later calls, also
with new context values and a retrace for a new shape, still compute the right result, because the
rebuilt value is used only inside the same trace and only its tree structure is read outside.
"""

import jax
import jax.numpy as jnp
from jax.tree_util import Partial, tree_flatten, tree_leaves, tree_unflatten


def accelerate_impl(users_func: Partial):  # noqa: ANN201 - mirrors the source shape
    context = tree_leaves(users_func)

    def total(context, *args):  # noqa: ANN001, ANN202
        nonlocal users_func
        _, shape = tree_flatten(users_func)
        users_func = tree_unflatten(shape, context)
        return users_func(*args)

    jitted = jax.jit(total)

    def back_to_user(*args):  # noqa: ANN002, ANN202
        return jitted(context, *args)

    def peek():  # noqa: ANN202
        return users_func

    return back_to_user, peek


f, peek = accelerate_impl(Partial(lambda a, x: a * x, jnp.float32(3.0)))
print(f(jnp.float32(2.0)))  # 6
print("nonlocal holds a tracer:", isinstance(tree_leaves(peek())[0], jax.core.Tracer))
print(f(jnp.float32(5.0)))  # 15, cached
print(f(jnp.ones(3)))  # retrace for a new shape: [3 3 3]
