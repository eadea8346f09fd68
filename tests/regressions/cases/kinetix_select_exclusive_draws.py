"""Kinetix kinetix/environment/ued/util.py:68-94 (v5): `jax.lax.select(n <= 3,
on_triangle(rng, v), on_rectangle(rng, v))` draws from one key in both operands, but each
element of the result comes from one of them only, so nothing kept is correlated. The near
miss stacks both draws (both kept: the same bits twice)."""

import jax
import jax.numpy as jnp


def on_triangle(rng, verts):
    rng, _rng, _rng2 = jax.random.split(rng, 3)
    f1 = jax.random.uniform(_rng)
    f2 = jax.random.uniform(_rng2)
    return verts[0] + jnp.sqrt(f1) * (-verts[0] + verts[1] + f2 * (verts[2] - verts[1]))


def on_rectangle(rng, verts):
    rng, _rng, _rng2 = jax.random.split(rng, 3)
    f1 = jax.random.uniform(_rng)
    f2 = jax.random.uniform(_rng2)
    return jnp.array([f1 * verts[0, 0], f2 * verts[1, 1]])


def on_polygon(rng, verts, n):
    return jax.lax.select(n <= 3, on_triangle(rng, verts), on_rectangle(rng, verts))


def on_polygon_where(rng, verts, n):
    return jnp.where(n <= 3, 2.0 * on_triangle(rng, verts), on_rectangle(rng, verts))


def both_kept(rng, verts):
    return jnp.stack([on_triangle(rng, verts), on_rectangle(rng, verts)])  # error: JAX201
