"""The `helpers` beside `tools/run.py`."""


def scale(x, n):
    if n > 1:  # error: JAX110
        return x * n
    return x
