"""JAX503: a global that `main` sets once, before the loop body that reads it first runs.

Reduced from pmocz/quantum-jax quantum-bh.py:202 and :266 (v25 check set, FP x6, tuning
material now): `rho_bar` is a module constant that `main` rebinds once (`global rho_bar;
rho_bar = jnp.mean(...)`, only under an `if`) before `jax.lax.fori_loop(0, nt_sub, update,
init_val=state)` runs the jitted `update`, which reads it through `compute_step` ->
`get_potential`; `main` runs once, from `if __name__ == "__main__":`. The readers are called
only from functions that run only from `main` (analysis/setup_calls.py `_runs_only_from`:
a call, a `lax.fori_loop` given the function, or a closure of a function `main` calls), so
every trace sees the final value. `evaluate` is the closure form (aialt/overcooked-jax
IPPO_continual.py:206, v25): read in a closure of `make_train`, which `main` calls after
its write. The marked line is the near miss: `main_twin` rebinds `floor` inside the loop
that runs the reader through `lax.fori_loop`, so a later write follows a trace.
"""

import jax
import jax.numpy as jnp

rho_bar = 1.0e8
floor = 0.0
use_soliton = True


def get_potential(rho):
    return jnp.fft.fftn(rho - rho_bar).real


def compute_step(psi):
    v = get_potential(jnp.abs(psi) ** 2)
    return psi * jnp.exp(-1j * v), get_potential(v)


@jax.jit
def update(_, state):
    psi, _ = compute_step(state)
    return psi


scale = 1.0


@jax.jit
def evaluate(x):
    return x * scale


def make_train():
    def train(x):
        return evaluate(x) + 1.0

    return train


def get_density(psi):
    return jnp.maximum(jnp.abs(psi) ** 2, floor)  # error: JAX503


@jax.jit
def density_step(_, psi):
    return psi * get_density(psi)


def main() -> None:
    global rho_bar
    psi = jnp.ones((4, 4, 4), jnp.complex64)
    if use_soliton:
        rho_bar = jnp.mean(jnp.abs(psi) ** 2)
    for _ in range(3):
        psi = jax.lax.fori_loop(0, 10, update, init_val=psi)
    print(psi.sum())


def run_training() -> None:
    global scale
    scale = 2.0
    train = jax.jit(make_train())
    print(train(jnp.ones(3)))


def main_twin() -> None:
    global floor
    psi = jnp.ones((4, 4, 4), jnp.complex64)
    for step in range(3):
        floor = 0.1 * step
        psi = jax.lax.fori_loop(0, 10, density_step, psi)
    print(psi.sum())


if __name__ == "__main__":
    main()
    run_training()
    main_twin()
