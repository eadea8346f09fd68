"""The near misses of shared/reference/jax-0.10-facts.md §4 (all run fine in JAX 0.10.2)."""

import functools
import time

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax import lax
from jax.experimental import checkify

TABLE = np.arange(4.0)
MASK = np.array([True, False, True, False])
LAYERS = [np.eye(3), np.eye(3), np.eye(3)]


@jax.jit
def nm01_02_static_metadata(x, m=None):
    if x.shape[0] > 1:  # NM01
        x = x * 2
    if x.ndim == 1 and len(x) == 4 and x.size == 4 and x.dtype == jnp.float32:  # NM02
        x = x + 1
    if m is None or isinstance(x, jax.Array):  # NM12
        pass
    assert x.shape == (4,), x.shape  # NM-x
    print("shape:", x.shape, f"{x.shape}, {x.dtype}")  # NM10 / NM30
    jax.debug.print("x={}", x)  # NM09
    if jax.process_index() == 0:  # NM21
        pass
    return x


@functools.partial(jax.jit, static_argnames=("training",))
def nm03_static_flag(x, training):
    if training:
        return x * 0.5
    return x


@functools.partial(jax.jit, static_argnums=(1,))
def nm04_static_size(x, n):
    return jnp.zeros(n) + x[:n].sum()


@jax.jit(static_argnames="n")
def nm04b_factory_form(x, n):
    return x[:n]


@jax.jit
def nm05_19_small_static_loops(x):
    for _ in range(3):  # NM05
        x = x * 2
    for w in LAYERS:  # NM19
        x = jnp.tanh(x @ w)
    return x


def nm06_eager(x):
    return float(x.sum())


@jax.jit
def nm07_numpy_constants(x):
    return x + np.asarray(TABLE) + np.sin(TABLE)


def nm08_key_discipline(key, x):
    key, sub = jax.random.split(key)  # NM08
    a = jax.random.normal(sub, x.shape)
    key, sub = jax.random.split(key)
    b = jax.random.uniform(sub, x.shape)
    for i in range(5):  # NM08b
        x = x + jax.random.normal(jax.random.fold_in(key, i), x.shape)
    return a, b, x


@jax.jit
def nm11_functional_update(x):
    return x.at[1].set(9.0)


def nm13_grad_only(v):
    if v > 0:
        return int(v) + v.item() + v
    return -v


nm13 = jax.grad(nm13_grad_only)
nm14 = jax.vmap(lambda v, n: v * 2 if n > 2 else v, in_axes=(0, None))


@jax.jit
def nm15_16_17_masks_and_sizes(x):
    a = x[MASK]  # NM15
    b = jnp.where(x > 1, x, 0.0)  # NM16
    c = jnp.nonzero(x > 1, size=4, fill_value=-1)  # NM17
    return a, b, c


@jax.jit
def nm18_dynamic_trip_count(x, n):
    return lax.fori_loop(0, n, lambda i, acc: acc + x[i], 0.0)


def nm20_host(a):
    return float(a.sum())


@jax.jit
def nm20_callback(x):
    return jax.pure_callback(nm20_host, jax.ShapeDtypeStruct((), x.dtype), x)


def nm24_loader(n):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 3))


@jax.jit
def nm27_28_static_arithmetic(x):
    eps = float(jnp.finfo(x.dtype).eps)  # NM28
    return x.reshape(x.shape[0] // 2, -1) * eps  # NM27


@jax.jit
def nm29_cond_branch(p, x):
    def branch(v):
        if v.ndim == 1:
            return v * 2
        return v

    return lax.cond(p, branch, branch, x)


@eqx.filter_jit
def nm32_filter_jit_int(x, n: int):
    if n > 2:
        return x * 2
    return x


@jax.jit
def nmx_containers_and_static_sizes(params, x, i):
    if params:  # a dict of arrays: container truthiness
        pass
    y = jnp.zeros(x.shape[0]) + x[: len(x) // 2].sum() + jnp.arange(x.size).sum() + x[i]
    z = np.sum(x) + np.mean(x) + np.max(x) + np.argmax(x) + np.cumsum(x)
    return y, z, jnp.stack([x, x]), jnp.concatenate([x, x]), jnp.array([1.0, 2.0])


opt = optax.sgd(0.1)


@jax.jit
def nmx_optax_update(params, state, grads):
    updates, state = opt.update(grads, state)
    return optax.apply_updates(params, updates), state


def nmx_checkify(x):
    checkify.check(jnp.all(x > 0), "x must be positive")
    return x


nmx_checked = jax.jit(checkify.checkify(nmx_checkify))


def nm22_double(x):
    return x * 2


def nm22_25_timing(x):
    f = jax.jit(nm22_double)
    f(x).block_until_ready()
    t0 = time.perf_counter()
    f(x).block_until_ready()
    return time.perf_counter() - t0
