"""The part of an absolute path below a folder, by slicing: what `os.path.relpath` answers for
a path under the folder, without its component-by-component walk (discovery and the
configuration ask it for every file of a project, several times; a warm run is mostly that)."""

from __future__ import annotations

import os

__all__ = ["below"]


def below(full: str, top: str) -> str | None:
    """`full` relative to `top` ("." for `top` itself) when both are normalised absolute paths
    and `full` is `top` or under it; None otherwise, and on systems whose paths are not
    plainly case-sensitive strings joined by `/` (the caller asks `relpath` then)."""
    if os.name != "posix":
        return None
    if full == top:
        return "."
    prefix = top if top.endswith("/") else top + "/"
    return full[len(prefix) :] if full.startswith(prefix) else None
