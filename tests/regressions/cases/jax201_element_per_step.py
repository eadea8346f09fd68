"""A loop that redraws the same array every step but reads a different element of it, by
the loop's own variable, gets the elements of one draw: independent, as if drawn once and
indexed (v17 rows, tuning material: rsantana-isg/nasjax descriptors/rnn.py:174,
`bool(jax.random.bernoulli(k4, 0.5, (num_layers,))[i]) for i in range(num_layers)`, JAX201;
`shape_only.element_per_step`). The twins: one scalar drawn per step (all equal), and the same
element read every step."""

import jax


def bidirectional_flags(k4, num_layers):
    return tuple(bool(jax.random.bernoulli(k4, 0.5, (num_layers,))[i]) for i in range(num_layers))


def units(k3, num_layers):
    return tuple(int(jax.random.randint(k3, (), 1, 9)) for _ in range(num_layers))  # error: JAX201


def first_elements(k, n):
    out = []
    for _ in range(n):
        out.append(jax.random.normal(k, (n,))[0])  # error: JAX201
    return out
