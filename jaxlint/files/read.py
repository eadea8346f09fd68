"""Reading a file's bytes and decoding them as Python source, with errors a caller can report.

Callers that need the bytes themselves (the cache key) read them once with `read_bytes` and
pass them on, so the bytes keyed are the bytes analysed.
"""

from __future__ import annotations

from jaxlint.core.source import ReadError, SourceText, decode_source


def read_bytes(path: str) -> bytes:
    """The file's bytes; raises OSError."""
    with open(path, "rb") as fh:
        return fh.read()


def read_source(path: str) -> SourceText:
    """The file decoded as Python source (PEP 263 coding, BOM); raises ReadError."""
    try:
        data = read_bytes(path)
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    return decode_source(data)
