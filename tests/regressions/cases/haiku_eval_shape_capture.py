"""haiku/_src/dot.py:132 (JAX502): writing a `nonlocal` from a function traced once by
`jax.eval_shape` (or `jax.make_jaxpr`) is how values are captured from a trace; nothing is
compiled or re-run, so the side effect is the point."""

import jax


def extract(fun, *args):
    dot_out = None

    def dot_extractor_fn(*inner_args):
        nonlocal dot_out
        dot_out = fun(*inner_args)
        return dot_out

    jax.eval_shape(dot_extractor_fn, *args)
    return dot_out
