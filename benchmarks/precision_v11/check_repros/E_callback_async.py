"""diffrax_STLA stiff_ode.ipynb / neural_*.ipynb JAX601: does a host callback inside a
never-taken cond (as equinox error_if puts into diffeqsolve) make dispatch synchronous?

Result (JAX 0.12, CPU): a jax.debug.callback in the program makes the call block (f: dispatch ==
blocked time), but equinox.error_if (jax.pure_callback in lax.cond, what diffeqsolve(throw=True)
adds) stays asynchronous (h: dispatch 0.0002 s, blocked 0.65 s). So the diffrax examples'
unblocked timings measure dispatch.
"""

import time

import jax
import jax.numpy as jnp


def _raise(x):
    raise RuntimeError("never")


@jax.jit
def f(x):
    for _ in range(20):
        x = jnp.tanh(x @ x)
    bad = jnp.isnan(x).any() & False
    jax.lax.cond(bad, lambda v: jax.debug.callback(_raise, v), lambda v: None, x[0, 0])
    return x


@jax.jit
def g(x):
    for _ in range(20):
        x = jnp.tanh(x @ x)
    return x


x = jnp.ones((1500, 1500)) / 1500
for fn in (f, g):
    fn(x).block_until_ready()
    t = time.perf_counter()
    y = fn(x)
    t1 = time.perf_counter()
    y.block_until_ready()
    t2 = time.perf_counter()
    print(fn.__name__, f"dispatch {t1 - t:.4f}s  blocked {t2 - t:.4f}s")


# The same with equinox's own error_if (what diffrax's diffeqsolve(throw=True) inserts),
# under vmap and grad as in the diffrax examples' make_step.
import equinox as eqx  # noqa: E402


def body(w, x):
    for _ in range(20):
        x = jnp.tanh(x @ w)
    x = eqx.error_if(x, jnp.isnan(x).any(), "nan")
    return jnp.sum(x)


@jax.jit
def h(w, xs):
    return jax.grad(lambda w: jax.vmap(lambda x: body(w, x))(xs).sum())(w)


@jax.jit
def h0(w, xs):
    return jax.grad(lambda w: jax.vmap(lambda x: jnp.sum(jnp.tanh(x @ w)))(xs).sum())(w)


w = jnp.ones((700, 700)) / 700
xs = jnp.ones((8, 64, 700))
for fn in (h,):
    fn(w, xs).block_until_ready()
    t = time.perf_counter()
    y = fn(w, xs)
    t1 = time.perf_counter()
    y.block_until_ready()
    t2 = time.perf_counter()
    print(fn.__name__, f"(eqx.error_if) dispatch {t1 - t:.4f}s  blocked {t2 - t:.4f}s")
