"""`jaxlint mcp`: the linter, fixer and JAX toolbox as a Model Context Protocol server (stdio).

An agent that writes JAX code calls these tools to check it, fix it, prove a suspicion with JAX
and benchmark honestly instead of guessing. Every tool is a thin wrapper over the Python API the
CLI uses (`engine`, `files`, `verify`, `runtime`), so answers match `jaxlint check --format json`
and the runtime tools run in the same sandbox, with the same timeouts and memory limits.

Safety: the client is a language model, so paths are untrusted. Every path is resolved (symlinks
included) and must lie inside one of the server's roots (`--root` folders, else the roots the client
announces, else the working directory); nothing outside them is read or written, and files only
change with `write=true`.
Failures come back as tool errors with a clear message; the server itself keeps running.

The package: `server` (build_server, serve, the rule resources), `lint_tools` and
`runtime_tools` (the tools), `roots` (where paths may point), `schema` (the tools' input and
output types), `toolkit` (errors and argument checks every tool shares). Importing it imports
the `mcp` SDK; `jaxlint.integrations.mcp_command` imports it only when `jaxlint mcp` runs, so
`jaxlint check` never pays for it.
"""

from __future__ import annotations

from jaxlint.integrations.mcp.server import build_server, serve

__all__ = ["build_server", "serve"]
