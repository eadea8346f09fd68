"""learned_optimization summary.py:130/134 (JAX503): a summary library keeps a module-level
name-scope stack and per-name counter that are meant to be read at trace time (they name the
summaries of the program being traced); no array value is baked in."""
import contextlib

import jax

_summary_scope_stack = []
count_per_tags = {}


@contextlib.contextmanager
def summary_scope(val: str):
    _summary_scope_stack.append(val)
    try:
        yield
    finally:
        _summary_scope_stack.pop(-1)


def reset_summary_counter():
    global count_per_tags
    count_per_tags = {}


def summary(name: str, val):
    prefix = "/".join(_summary_scope_stack)
    if prefix:
        name = prefix + "/" + name
    if name in count_per_tags:
        count_per_tags[name] += 1
        name += "___%d" % count_per_tags[name]
    else:
        count_per_tags[name] = 0
    return val


@jax.jit
def fn(a):
    with summary_scope("outer"):
        summary("a", a[0])
    return a * 2


print(fn(jax.numpy.ones(2)))
reset_summary_counter()
