"""The caller imports the helpers as a package module, falling back to the module beside it
when run as a script, then to loading the file (v41 leonalav/valkyrie
`bigbird_attention.py:21-56`, JAX110 + JAX120 on `original_seq_len`, read false): each way
binds the same function, so element 1 of `pad_to_block_size` is the Python int it returns.
The twin: element 1 of `scaled`, imported the same way, is an array traced under the jit."""

import jax

try:
    from .gutils import pad_to_block_size, scaled
except Exception:
    try:
        from gutils import pad_to_block_size, scaled
    except Exception:
        import importlib.util
        import os

        _spec = importlib.util.spec_from_file_location(
            "gutils", os.path.join(os.path.dirname(__file__), "gutils.py")
        )
        _utils = importlib.util.module_from_spec(_spec)
        _spec.loader.exec_module(_utils)
        pad_to_block_size = getattr(_utils, "pad_to_block_size")  # noqa: B009
        scaled = getattr(_utils, "scaled")  # noqa: B009


@jax.jit
def attend(hidden):
    padded, original_seq_len = pad_to_block_size(hidden, 4)
    output = padded * 2.0
    if original_seq_len < padded.shape[1]:
        output = output[:, :original_seq_len, :]
    return output


@jax.jit
def total(hidden):
    doubled, s = scaled(hidden, 2.0)
    if s > 0:  # error: JAX110
        return doubled
    return -doubled
