"""jaxopt tests/common_test.py:418 (JAX403), learned_optimization time_filter/timings.py:148-178
and ott docs/tutorials/linear/400_Hessians.ipynb cell 10 (JAX401): each iteration needs its own
program (a different solver object, a different batch size, a different derivative); nothing can
be hoisted or made traced."""
import functools

import jax
import jax.numpy as jnp


class GD:
    def __init__(self, lr):
        self.lr = lr

    def run(self, p):
        return p - self.lr * p


def test_solvers():
    solvers = (GD(0.1), GD(0.2), GD(0.3))

    @functools.partial(jax.jit, static_argnums=(1,))
    def run_solver(p0, solver):
        return solver.run(p0)

    for solver in solvers:
        jax.block_until_ready(run_solver(jnp.arange(2.0), solver))


def time_unroll_func(num_tasks):
    keys = jax.random.split(jax.random.key(0), num_tasks)

    @jax.vmap
    def init(key):
        return jax.random.normal(key, (3,))

    p = jax.jit(init)(keys)
    return lambda: p


def time_unroll(num_tasks):
    return time_unroll_func(num_tasks)()


def timings(num_tasks_list=None):
    if num_tasks_list is None:
        num_tasks_list = [1, 2, 4, 8, 16, 32]
    ret = {}
    for num_task in num_tasks_list:
        ret[num_task] = time_unroll(num_tasks=num_task)
    return ret


def loss(a, x, implicit):
    return jnp.sum(a * x**2) if implicit else jnp.sum(a**2 * x)


a = x = jnp.ones(2)
for arg in [0, 1]:
    for imp, method in zip((False, True), ("Unrolled", "Implicit")):
        hess_loss = jax.jit(jax.hessian(lambda a, x: loss(a, x, imp), argnums=arg))
        print(method, hess_loss(a, x).shape)

test_solvers()
print(len(timings()))
