"""JAX201: an arm whose `if` test is a literal (`if (train_ae_only := False):`, `if 0:`) never
runs, so a draw in it consumes nothing (analysis/syntax.py `literal_truth`: the flow graph gives
the arm no path from the entry and the dataflow walker drops its end state, as CPython drops
the arm when it compiles).

Reduced from kylewang1999/zd_policy scripts/my_train.py:356-369 (v32 check set, FP x2, tuning
material): three training modes in a script's main block, toggled by editing walrus flags;
only the mode set to `True` runs, so the key reaches one `train` call. The near misses: two
toggles set to `True` (both run: the key is split twice into the same batch keys), and a
flag read from a variable (not decided by the source).
"""

import sys

import jax
from data import get_batch


def train(model, rng, steps):
    rngs = jax.random.split(rng, steps)
    for b in range(steps):
        model = model + get_batch(rngs[b])
    print(model)
    return model


def draws(rng, data):
    if train_ae_only := False:  # noqa: F841
        data = data + jax.random.normal(rng, (3,))
    if 0:
        data = data + jax.random.uniform(rng, (2,))
    return jax.random.normal(rng, (3,)) + data


def draws_toggled_on(rng, data):
    if train_zd_policy_only := True:  # noqa: F841
        data = data + jax.random.normal(rng, (3,))
    return jax.random.normal(rng, (3,)) + data  # error: JAX201


def draws_flag(rng, data, only):
    if not only:
        data = data + jax.random.normal(rng, (3,))
    return jax.random.normal(rng, (3,)) + data  # error: JAX201


if __name__ == "__main__":
    rng = jax.random.PRNGKey(42)
    if train_ae_only := False:  # noqa: F841
        train(1.0, rng, 4)
    if train_dyn_only := True:
        train(2.0, rng, 4)
    if train_zd_policy_only := False:
        train(3.0, rng, 4)
    if len(sys.argv) > 2:
        other = jax.random.PRNGKey(7)
        if train_dyn_only := True:
            train(2.0, other, 4)
        if train_zd_policy_only := True:  # noqa: F841
            train(3.0, other, 4)  # error: JAX201
