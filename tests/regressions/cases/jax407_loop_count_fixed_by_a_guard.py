"""mia-jinns/jinns `jinns/loss/_BoundaryCondition.py:144-186` (v41 check set, JAX407 high x4,
read false): `elif n_facets == 4:` stands around `tuple(... for facet in range(n_facets))`, so
the generator takes 4 steps, and 4 conversions of two written-out floats cost nothing worth a
finding (`trips.guarded_int`: the int an enclosing `if name == 4:` gives a name no statement
of that arm binds again). The near misses: the same loop under `n_facets >= 4` (any number of
steps), and under `n == 4` where the arm binds `n` again before the loop."""

import jax
import jax.numpy as jnp


def boundary_terms(du_dx, inputs, n, n_facets, eq_type):
    if n_facets == 2:
        return tuple(du_dx(inputs, facet) * n[facet] for facet in range(n_facets))
    elif n_facets == 4:
        if eq_type == "PDEStatio":
            return tuple(
                du_dx(jnp.repeat(jnp.array([1.0, 0.0])[None], inputs.shape[0], axis=0), facet)
                * n[0, facet]
                for facet in range(n_facets)
            )
    raise ValueError("Wrong number of facets")


def boundary_terms_any(du_dx, inputs, n, n_facets):
    if n_facets >= 4:
        return tuple(
            du_dx(
                jnp.repeat(jnp.array([1.0, 0.0])[None], inputs.shape[0], axis=0),  # error: JAX407
                facet,
            )
            for facet in range(n_facets)
        )
    return ()


def boundary_terms_rebound(du_dx, inputs, n):
    if n == 4:
        n = inputs.shape[0]
        return tuple(
            du_dx(jnp.repeat(jnp.array([0.0, 1.0])[None], 2, axis=0), facet)  # error: JAX407
            for facet in range(n)
        )
    return ()


def loss(params, inputs, n):
    return jax.numpy.sum(
        jnp.stack(boundary_terms(lambda x, f: x * params, inputs, n, 4, "PDEStatio"))
    )
