"""A project file named like a standard-library module, beside `legal_moves.py`: inside a
package, Python 3's `import random` is the standard library's, so nothing here is traced
through it."""


def sample(seq, k):
    if k > 1:
        return seq[:k]
    return seq[0]
