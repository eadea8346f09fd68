"""The plain-Python moves (reduced from v34 Mr-Corentin/AbaloneMCTS src/moves.py): directions
are Python values, nothing here is jitted. `src/cubic/legal_moves.py` imports `moves`, which from its
own folder is `src/cubic/moves.py`; the `src/` layout also names this file `moves`, so the
name is ambiguous there and this module receives no traced argument through it."""


def move_group_inline(board, position, direction):
    if direction > 0:
        return board
    return position
