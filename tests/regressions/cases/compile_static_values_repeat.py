"""JAX403/JAX404/JAX405: a recompile (or unroll) finding needs a static value that provably
changes the program between calls; silent where the value repeats, where the values are a
written-out sweep, or where nothing compiles (issue 23, "compile").

Reduced from the tuning half of the fresh corpus (precision v3):
- google/learned_optimization eval_training.py:208: static `with_metrics` is a bool (2 compiles);
- google/evojax examples/train_ant_map_elites.py:171: static `ix` takes the values of
  `range(num_viz)` again in every step of the outer loop (num_viz compiles, then cache hits);
- google/jaxopt tests/common_test.py:418: static `solver` walks a written-out tuple of solvers;
- google/neural-tangents notebooks/learning_curves.ipynb cell 13: static `degree` walks a
  parameter whose default is a written-out list; cell 14: the training-set sizes of an inner
  comprehension repeat for every outer average;
- google/neural-tangents notebooks/neural_tangents_cookbook.ipynb cell 56: a 10,000-step loop in a
  function that is only `vmap`ped (it runs step by step; nothing is unrolled into a program).
The marked lines are the true positives kept next to each near miss.
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("with_metrics",))
def next_state(state, with_metrics=False):
    return state + 1.0 if with_metrics else state


@functools.partial(jax.jit, static_argnums=(1,))
def get_qp(state, ix):
    return state * ix


@functools.partial(jax.jit, static_argnums=(1,))
def scaled(state, lr):
    return state - lr * state


def rollout(state, num_steps, num_viz, every):
    for i in range(num_steps):
        with_metrics = i % every == 0
        state = next_state(state, with_metrics=with_metrics)
        for j in range(num_viz):
            state = get_qp(state, j)
    return state


def schedule(state, num_steps):
    for i in range(num_steps):
        state = scaled(state, 0.1 / (i + 1))  # error: JAX403
    return state


class GD:
    def __init__(self, lr):
        self.lr = lr

    def run(self, p):
        return p - self.lr * p

    def __hash__(self):
        return hash(self.lr)

    def __eq__(self, other):
        return isinstance(other, GD) and other.lr == self.lr


@functools.partial(jax.jit, static_argnums=(1,))
def run_solver(p0, solver):
    return solver.run(p0)


def test_solvers(p0):
    solvers = (GD(0.1), GD(0.2), GD(0.3), GD(0.4))
    for solver in solvers:
        run_solver(p0, solver)


def kernel(x, degrees=[1, 2, 3, 4, 5, 6, 7]):  # noqa: B006 (as in the notebook)
    out = 0.0
    for degree in degrees:
        out = out + scaled(x, degree)
    return out


@jax.jit
def get_mse(k, y):
    return (k @ y).sum()


def learning_curve(kdd, y, n_trains, n_average):
    losses = []
    for _ in range(n_average):
        losses.append([get_mse(kdd[:n, :n], y[:n]) for n in n_trains])
    return losses


def growing(kdd, y, n):
    losses = []
    for i in range(1, n):
        losses.append(get_mse(kdd[:i, :i], y[:i]))  # error: JAX404
    return losses


def train_network(x):
    for i in range(10_000):
        x = jnp.sin(x) + 0.01 * i
    return x


batched = jax.vmap(train_network)(jnp.ones((4, 3)))


@jax.jit
def train_compiled(x):
    for i in range(10_000):  # error: JAX405
        x = jnp.sin(x) + 0.01 * i
    return x
