"""Reduced from google-research/meliad transformer/position.py:58-85: a NumPy array of the
relative positions, made from Python ints (parameters annotated `int`)."""

import numpy as np


def relative_positions_np(num_queries: int, num_keys: int, offset: int | None = None):
    if offset is None:
        offset = num_keys - num_queries
    qidx = np.arange(0, num_queries, dtype=np.int32).reshape(num_queries, 1)
    kidx = np.arange(0, num_keys, dtype=np.int32).reshape(1, num_keys)
    return kidx - (qidx + offset)


def relative_positions_of(x):
    return np.arange(x.shape[0]) - x
