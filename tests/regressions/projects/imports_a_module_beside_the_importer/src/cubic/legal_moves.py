"""`from moves import ...` beside `moves.py`: what the scripts of this folder run (reduced from
v34 Mr-Corentin/AbaloneMCTS src/cubic/legal_moves.py, where jaxlint took `src/moves.py` and
reported traced values in its plain-Python code: JAX110 x20, check-set rows, tuning material
after their reading). The near miss: `board` has no module beside this one, so it is still
`src/board.py`, whose `if` on a traced argument is reported; `random` names the standard
library's module, not `src/cubic/random.py` beside this one."""

import random

import jax
from board import get_cell_content
from moves import move_group_inline


@jax.jit
def check_move(board, position, direction):
    return move_group_inline(board, position, direction)


@jax.jit
def cell(board, x):
    return get_cell_content(board, x)


@jax.jit
def pick(moves, k):
    return random.sample(moves, k)  # error: JAX204
