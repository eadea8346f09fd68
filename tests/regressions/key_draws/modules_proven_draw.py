"""JAX201's confidence through constructors, methods and flax `init`/`apply` (issues 23, 24).
High: a user `__init__` that draws from its key (blackjax#400's two towers), a method that
splits `self.rng_key` and uses the half (numpyro#479), a flax Module of this module whose
`__call__` always makes a random parameter (a `Dense`, `self.param` with a random
initialiser, a submodule that does: p-doom/jasmine#36), and `apply(..., rngs={"dropout": k})`
into an active `nn.Dropout` (flax#2593). Medium, as on flaxmodels and xlstm-jax (v4): a Module
whose parameters come from `lambda *_: w` (a checkpoint), one with only a LayerNorm (ones), a
`Dense` under a branch, `apply` with the dropout off."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Tower:
    def __init__(self, key):
        self.w = jax.random.normal(key, (4, 4))


class MaybeTower:
    def __init__(self, key, random=False):
        self.w = jax.random.normal(key, (4, 4)) if random else jnp.zeros((4, 4))


class Sampler:
    def __init__(self, seed):
        self.rng_key = jax.random.key(seed)

    def run(self, n):
        rng_key, sub = jax.random.split(self.rng_key)
        return jax.random.normal(sub, (n,))


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.relu(nn.Dense(16)(x)))


class Scaled(nn.Module):
    def setup(self):
        self.w = self.param("w", nn.initializers.normal(0.02), (4,))

    def __call__(self, x):
        return x * self.w


class Outer(nn.Module):
    def setup(self):
        self.inner = MLP()

    def __call__(self, x):
        return self.inner(x)


class Pretrained(nn.Module):
    weights: tuple = ()

    @nn.compact
    def __call__(self, x):
        w = self.param("w", lambda *_: jnp.asarray(self.weights))
        return nn.Dense(4, kernel_init=lambda *_: w)(x)


class Norm(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.LayerNorm()(x)


class Gated(nn.Module):
    project: bool = False

    @nn.compact
    def __call__(self, x):
        if self.project:
            x = nn.Dense(4)(x)
        return x


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, drop):
        x = nn.Dense(8)(x)
        return nn.Dropout(0.5, deterministic=not drop)(x)


def towers():
    key = jax.random.key(1)
    left = Tower(key)
    right = Tower(key)  # error: JAX201
    return left, right


def maybe_towers():
    key = jax.random.key(1)
    left = MaybeTower(key)
    right = MaybeTower(key)  # medium: JAX201
    return left, right


def runs():
    sampler = Sampler(0)
    return sampler.run(5), sampler.run(5)  # error: JAX201


def inits(x):
    key = jax.random.key(0)
    actor, critic = MLP(), MLP()
    a = actor.init(key, x)
    b = critic.init(key, x)  # error: JAX201
    c = Scaled().init(key, x)  # error: JAX201
    d = Outer().init(key, x)  # error: JAX201
    return a, b, c, d


def draw_free_inits(x, w):
    key = jax.random.key(0)
    a = Pretrained(w).init(key, x)
    b = Pretrained(w).init(key, x + 1)  # medium: JAX201
    c = Norm().init(key, x)  # a LayerNorm draws nothing (flow/key_drawfree.py): no reuse
    d = Gated().init(key, x)  # medium: JAX201
    return a, b, c, d


def dropout_steps(params, x):
    key = jax.random.key(0)
    outs = []
    for _ in range(3):
        outs.append(Net().apply(params, x, drop=True, rngs={"dropout": key}))  # error: JAX201
    return outs


def dropout_off(params, x):
    key = jax.random.key(0)
    outs = []
    for _ in range(3):
        outs.append(Net().apply(params, x, drop=False, rngs={"dropout": key}))  # medium: JAX201
    return outs
