"""The jitted moves (reduced from v34 Mr-Corentin/AbaloneMCTS src/cubic/moves.py)."""

import jax.numpy as jnp


def move_group_inline(board, position, direction):
    return jnp.where(direction > 0, board, position)
