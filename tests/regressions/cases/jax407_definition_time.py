"""Conversions that do not run once per step although they sit in a loop's code:

- a parameter's default value is evaluated when the `def` runs, not on each call (v14 tuning
  half, MAVRIK_Tilt_Wing_VTOL_JAX `jax_mavrik/examples/system_id.py:196`:
  `initial_params: jnp.ndarray = jnp.array([...])` of a method called every step);
- one arm of a conditional expression that holds on one step (`jnp.array(...) if t == 10 else
  ...` over `range(300)`: allen_v1_chen_2022_jax `02_glif3_single_neuron.ipynb` cell 19);
- a handful of written-out steps through a name bound once to a literal list (`for case in
  test_cases:` with four cases: aequus_jax `quick_check.py:82`), like a list written in the
  `for` itself (`hoisting.few_steps`).

The twins: the same conversion in the function's body, in an arm that holds on most steps,
and in a loop over a list that is filled before the loop (its length is not the literal's).
"""

import jax.numpy as jnp


def fit(initial_params: jnp.ndarray = jnp.array([1.0e6, 1.0e6, 1.0e4])):  # noqa: B008
    return initial_params * 2


def fit_twin(initial_params=None):
    base = jnp.array([1.0e6, 1.0e6, 1.0e4])  # error: JAX407
    return base if initial_params is None else initial_params


def run(n=100):
    out = []
    for _ in range(n):
        out.append(fit())
        out.append(fit_twin())
    return out


def simulate(v0):
    v = v0
    for t in range(300):
        stim = jnp.array([[1.0, 1.0, 1.0, 1.0]]) if t == 10 else jnp.zeros((1, 4))
        v = v + stim
    for t in range(300):
        drive = jnp.array([[0.5, 0.5]]) if t > 10 else jnp.zeros((1, 2))  # error: JAX407
        v = v + drive.sum()
    return v


test_cases = [
    (jnp.array([23, 0]), "72o", 0),
    (jnp.array([44, 45]), "KK", 2),
    (jnp.array([12, 25]), "AKs", 1),
    (jnp.array([3, 7]), "54o", 3),
]
for cards, name, pos in test_cases:
    pot = jnp.array([50.0])
    print(name, cards.sum() + pos + pot)

grown = []
for i in range(200):
    grown.append(i)
for item in grown:
    pot = jnp.array([50.0])  # error: JAX407
    print(item + pot)
