"""An `if structure is None:` arm of a helper whose every traced caller hands it a value is the
eager path: under tracing it never runs (`param_constants.not_none_argument`, the first traced
application of a helper records what it binds, later ones narrow it).

From the v38 check set (tuning material, read in context): kuchar-one/momemura
`src/simulation/jax/moment_scorer.py:151-155`: `jax_equivalent_gaussian(params,
structure=None)` reads the structure concretely with `np.asarray` only when `structure is None`
("call EAGERLY"); the vmapped loss hands it `structure` through `moment_score_one`, a required
parameter of the bucket scorer (JAX101 x6 on the `np.asarray` lines).

The twins (still reported): the same helper reached from a traced function that passes None,
or a parameter whose default is None, runs that arm on tracers (checked with JAX 0.12:
`np.asarray` of the vmapped params raises TracerArrayConversionError).
"""

import jax
import jax.numpy as jnp
import numpy as np


def extract_structure(params):
    return tuple(int(v) for v in np.asarray(params["n"]))


def equivalent(params, structure=None):
    if structure is None:
        structure = extract_structure(params)
    return params["x"] * len(structure)


def score_one(params, structure):
    return jnp.sum(equivalent(params, structure))


def bucket_score(xs, structure):
    def loss(x):
        return score_one({"x": x, "n": x}, structure)

    return jax.vmap(loss)(xs)


def extract_twin(params):
    return tuple(int(v) for v in np.asarray(params["n"]))  # error: JAX101


def equivalent_twin(params, structure=None):
    if structure is None:
        structure = extract_twin(params)
    return params["x"] * len(structure)


def score_twin(params, structure=None):
    return jnp.sum(equivalent_twin(params, structure))


@jax.jit
def loss_twin(x):
    return score_twin({"x": x, "n": x})
