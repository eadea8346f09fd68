"""probdiffeq examples/C4_stability.py:72 (JAX401): `jax.jit(jax.vmap(dense))` in a loop where
`dense = partial(solver.offgrid_marginals, solution=solution)` and both the solver (built from the
loop's tuple) and its solution are new in every iteration: every iteration needs its own program,
and there is nothing to hoist.

Expected after the fix: no finding."""

import functools

import jax
import jax.numpy as jnp


class Solver:
    def __init__(self, order):
        self.order = order

    def offgrid_marginals(self, t, *, solution):
        return solution.sum() * t**self.order


def main():
    configs = [("first", 1, 3), ("second", 2, 4), ("third", 3, 5)]
    for label, order, num in configs:
        solver = Solver(order)
        grid = jnp.linspace(0.0, 1.0, num)
        solution = grid * 2.0
        ts = jnp.linspace(0.1, 0.9, 7)
        dense = functools.partial(solver.offgrid_marginals, solution=solution)
        u = jax.jit(jax.vmap(dense))(ts)
        print(label, u.shape)


if __name__ == "__main__":
    main()
