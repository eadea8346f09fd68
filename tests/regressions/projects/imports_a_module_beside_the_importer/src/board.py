"""Reached as `board` through the `src/` layout from `src/cubic/legal_moves.py`: no module of
that name lies beside the importer, so the one candidate stands."""


def get_cell_content(board, x):
    if x > 0:  # error: JAX110
        return board
    return None
