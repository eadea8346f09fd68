"""dreamerv3 jits through its own wrapper (embodied/jax/transform.py `apply`, which ends in
`jax.jit(fn, ...)`); whisper-jax has `pjit_with_cpu_fallback` (whisper_jax/partitioner.py:89).
A function of the module that returns a jit-like transform of its own parameter is a jit
wrapper found in the code (like the `jit-decorators` setting): what it is given is traced.
That keeps per-step rules quiet in loops unrolled at trace time (JAX407, repro fp22) and makes
the tracing rules see these functions: the two marked lines are true positives. A wrapper that
returns its parameter untouched traces nothing, and static options the wrapper forwards from
its own parameters are unknown, so the function they configure stays silent."""

import jax
import jax.numpy as jnp


def apply(fn):
    return jax.jit(fn)


def identity(fn):
    return fn


def pjit_like(fun, static_argnums=()):
    return jax.jit(fun, static_argnums=static_argnums)


def relu(x):
    if x > 0:  # error: JAX110
        return x
    return jnp.zeros_like(x)


def relu_eager(x):
    if x > 0:
        return x
    return jnp.zeros_like(x)


@apply
def to_float(x):
    return float(x)  # error: JAX101


def configured(x, n):
    if n > 0:
        return x
    return -x


relu_fn = apply(relu)
eager_fn = identity(relu_eager)
configured_fn = pjit_like(configured, static_argnums=1)


class Runner:
    """A method wrapper: `self.jit(f)` hands `f` to the wrapper's second parameter."""

    def jit(self, fn):
        return jax.jit(fn)

    def setup(self):
        self.step = self.jit(self.step_fn)

    def step_fn(self, x):
        return float(x)  # error: JAX101
