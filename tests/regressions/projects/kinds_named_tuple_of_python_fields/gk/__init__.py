"""JAX110: a parameter annotated with a `typing.NamedTuple` of this project whose fields are
all Python values (`nvpar: int`, ...) holds a tuple of Python values, as `tuple[int, ...]`
does (analysis/annotations.py `_named_tuple_fields`); comparing its fields with an array's
shape is Python control flow on static data. At a jit entry its int fields still become
tracers (JAX traces a NamedTuple's leaves), so there the annotation proves nothing.

Reduced from gerkone/gyaradax gyaradax/{solver,precompute,sharding}.py (v33 check set, JAX110
FP x6, tuning material): a jitted solver's precompute step, on several GPUs, builds grid
sizes from `.shape` into a `GridShape` and hands them to the classifier that picks each
output leaf's sharding. The near misses (gk/sharding.py): a NamedTuple with an array field,
and a `GridShape` that is a jitted function's own argument.
"""
