"""The one atomic file write: a temporary file in the same folder, then one `os.replace`.

An interrupted run leaves each file old or new, never half-written, and a concurrent reader
never sees half a file. Fixed sources keep the original's permissions and are synced to disk;
cache entries skip both (they are disposable and many).
"""

from __future__ import annotations

import os
import stat
import tempfile


def write_atomic(
    path: str,
    data: bytes,
    *,
    prefix: str = ".jaxlint-",
    suffix: str = ".tmp",
    durable: bool = True,
) -> None:
    """Replace `path` with `data` in one rename. `durable`: fsync the data and keep the file's
    mode (0o644 for a new file); otherwise the temporary file's mode (0o600) stays."""
    directory = os.path.dirname(os.path.abspath(path))
    mode = None
    if durable:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, os.path.realpath(path))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def is_read_only(path: str) -> bool:
    """No write permission for us, or no write bit at all (root may write anything, but a
    0444 file says "do not edit me": ruff, black and editors refuse or ask)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
