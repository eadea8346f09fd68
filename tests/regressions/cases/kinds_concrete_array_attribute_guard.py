"""JAX101/JAX102: an arm behind `hasattr(x, "device_buffer")` (or another attribute no tracer
has: `copy_to_host_async`, `block_until_ready`, `_value`) runs only on a concrete array, so a
host conversion there never meets a tracer (analysis/kinds.py `CONCRETE_ARRAY_ATTRIBUTES`,
read by flow/concrete_guards.py; checked on the jit, vmap, grad and scan tracers of JAX 0.10.2
and 0.12.1).

Reduced from shreyas-kowshik/vlaft experimental/train_opt.py:113 (v33 check set, JAX102 FP,
tuning material): a logging helper a jitted step calls writes `int(jax.device_get(step)) if
hasattr(step, "device_buffer") else int(step)`. The near misses: the `else` arm, which does
get the tracer, and a guard on an attribute every tracer has too (`devices`).
"""

import jax
import jax.numpy as jnp


def log_norms(step, gnorm):
    if hasattr(step, "device_buffer"):
        print(int(jax.device_get(step)))
    else:
        print(int(step))  # error: JAX101
    if hasattr(gnorm, "copy_to_host_async"):
        print(float(gnorm))
    if hasattr(gnorm, "devices"):
        print(float(gnorm))  # error: JAX101
    return gnorm


@jax.jit
def train_step(step, g):
    log_norms(step, jnp.linalg.norm(g))
    return step + 1
