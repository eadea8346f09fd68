"""diffrax/_integrate.py:135, 1279, 1288, 1296 (JAX111, JAX110, JAX120): under
`eqx.filter_jit` only array leaves are traced; fields of Module arguments such as
`solver.term_structure` or `saveat.subs[i].steps` are static Python values."""

from typing import get_args

import equinox as eqx
import jax.numpy as jnp
import jax.tree_util as jtu


def _assert_term_compatible(terms, term_structure):
    def _check(term_cls, term):
        [_tmp] = get_args(term_cls)
        assert _tmp in (tuple,), "Malformed term_structure"

    jtu.tree_map(_check, term_structure, terms)


@eqx.filter_jit
def diffeqsolve(terms, solver, y0, saveat, max_steps: int = 4096):
    _assert_term_compatible(terms, solver.term_structure)

    def _allocate_output(subsaveat):
        out_size = 0
        if subsaveat.t0:
            out_size += 1
        if subsaveat.steps != 0:
            out_size += max_steps // subsaveat.steps
        return jnp.full(out_size, jnp.inf)

    return jtu.tree_map(_allocate_output, saveat.subs), y0 * 2
