"""A jit built per step around a function that the step itself picks needs its own program
every step: nothing can be hoisted (pgx fig/generate_svgs.py:14, `jax.jit(jax.vmap(env.init))`
with `env = pgx.make(game)` per game; probdiffeq examples/C4_stability.py:72,
`jax.jit(jax.vmap(partial(solver.offgrid_marginals, solution=solution)))` with a new solver
every iteration). The twin wraps a function made from step data: passed as an argument, one
program would do.
"""

import functools

import jax
import jax.numpy as jnp


class Solver:
    def __init__(self, order):
        self.order = order

    def offgrid_marginals(self, t, *, solution):
        return solution.sum() * t**self.order

    def init(self, key):
        return jax.random.normal(key, (self.order,))


def make_env(name):
    return Solver(len(name))


def render_all(names, keys):
    for name in names:
        env = make_env(name)
        init = jax.jit(jax.vmap(env.init))
        print(init(keys))


def stability(configs):
    for order, num in configs:
        solver = Solver(order)
        solution = jnp.linspace(0.0, 1.0, num) * 2.0
        dense = functools.partial(solver.offgrid_marginals, solution=solution)
        print(jax.jit(jax.vmap(dense))(jnp.linspace(0.1, 0.9, 7)))


def make_loss(batch):
    return lambda p: (p * batch).sum()


def train(p, loader):
    for batch in loader:
        g = jax.jit(jax.grad(make_loss(batch)))  # error: JAX401
        p = p - g(p)
    return p
