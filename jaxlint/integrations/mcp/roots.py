"""Which paths an MCP tool may touch: the client is a language model, so paths are untrusted.

Every path is resolved (symlinks included) and must lie inside one of the server's roots
(`--root` folders, else the roots the client announces, else the working directory); nothing
outside them is read or written.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

logger = logging.getLogger("jaxlint.mcp")

# --------------------------------------------------------------------------- paths


class Roots:
    """The folders the server may read and write; every path is checked against them.

    Relative paths are taken from the first root. A path counts as inside when its fully
    resolved form (symlinks followed, `..` collapsed) is a root or lies below one, so neither
    `../x` nor a symlink pointing out of the tree escapes.
    """

    def __init__(self, roots: Sequence[str], base: str | None = None) -> None:
        if not roots:
            raise ValueError("at least one root is needed")
        self.roots = [os.path.realpath(r) for r in roots]
        real_base = os.path.realpath(base) if base else None
        self.base = real_base if real_base and self.contains(real_base) else self.roots[0]

    def contains(self, real: str) -> bool:
        return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in self.roots)

    def resolve(self, path: str, *, must_exist: bool = True) -> str:
        """The real path of `path`, or a ToolError when it is outside the roots or missing."""
        if not isinstance(path, str) or not path.strip():
            raise ToolError("empty path")
        if "\x00" in path:
            raise ToolError("invalid path (NUL byte)")
        expanded = path if os.path.isabs(path) else os.path.join(self.base, path)
        real = os.path.realpath(expanded)
        if not self.contains(real):
            raise ToolError(
                f"{path!r} is outside the server's root ({', '.join(self.roots)}); "
                "only files below it can be read or written"
            )
        if must_exist and not os.path.exists(real):
            raise ToolError(f"{path!r}: no such file or directory")
        return real

    def display(self, real: str) -> str:
        """How a path is shown to the client: relative to the first root when below it."""
        base = self.base.rstrip(os.sep) + os.sep
        return real[len(base) :] if real.startswith(base) else real

    def files(self, paths: Sequence[str], settings_for: Callable[[str], Any]) -> list[str]:
        """Real paths of the Python files under `paths`, honouring the config's excludes, and
        dropping any file (a symlink, say) that resolves outside the roots."""
        from jaxlint.files.discover import iter_python_files

        real_paths = [self.resolve(p) for p in paths]
        out: list[str] = []
        seen: set[str] = set()
        for found, _display in iter_python_files(real_paths, settings_for, warn=lambda m: None):
            real = os.path.realpath(found)
            if real in seen or not self.contains(real):
                continue
            seen.add(real)
            out.append(real)
        return out


class RootsPolicy:
    """Which roots apply to a tool call.

    `--root` folders win. Otherwise, when the client announces roots (the MCP `roots`
    capability: the folders its user opened), those are the roots, asked for on each call since
    they can change; relative paths start at the working directory when it lies inside them.
    Otherwise the working directory is the one root.
    """

    ASK_SECONDS = 5.0

    def __init__(self, fixed: Sequence[str] | None) -> None:
        self.cwd = os.getcwd()
        self.fixed = Roots(list(fixed)) if fixed else None
        self.default = Roots([self.cwd])

    def for_call(self, ctx: Context | None) -> Roots:
        if self.fixed is not None:
            return self.fixed
        announced = self._client_roots(ctx) if ctx is not None else None
        return Roots(announced, base=self.cwd) if announced else self.default

    def _client_roots(self, ctx: Context) -> list[str] | None:
        import warnings
        from urllib.parse import unquote, urlparse

        import anyio.from_thread

        try:
            capabilities = ctx.client_capabilities
        except Exception:  # no request context (a direct call in tests)
            return None
        if capabilities is None or capabilities.roots is None:
            return None

        async def ask() -> Any:
            with anyio.fail_after(self.ASK_SECONDS), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # roots are deprecated in the newest protocol
                return await ctx.session.list_roots()

        try:
            result = anyio.from_thread.run(ask)
        except Exception as exc:  # a client that announces roots but does not answer
            logger.warning("could not list the client's roots (%s); using %s", exc, self.cwd)
            return None
        folders = []
        for root in result.roots:
            uri = urlparse(str(root.uri))
            if uri.scheme == "file" and os.path.isdir(unquote(uri.path)):
                folders.append(unquote(uri.path))
        return folders or None
