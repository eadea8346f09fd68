"""The jaxlint MCP server: its name and instructions, the tools in their order, the rule docs
as resources, and `serve` (stdio).

The tools are registered by `lint_tools` (static: check, fix, explain, rules, template) and
`runtime_tools` (with JAX in a sandbox: verify, probe, bench, recompile, env, locate); every one
checks its paths against the `RootsPolicy` built here from `--root`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mcp.server.mcpserver import MCPServer

from jaxlint import __version__
from jaxlint.integrations.mcp import lint_tools, runtime_tools
from jaxlint.integrations.mcp.roots import RootsPolicy

SERVER_NAME = "jaxlint"
INSTRUCTIONS = (
    "jaxlint finds, fixes and proves JAX sharp bits. Typical loop: `check` the files you wrote "
    "(or inline `code`), read `explain` for a rule you do not know, `fix` (a diff first, "
    "`write=true` to apply), then prove a suspicion with `verify` (runs the flagged function "
    "with JAX in a sandbox) and measure with `bench` / `recompile` / `probe`. `env` describes "
    "the JAX installation; `template` gives idiomatic starter code; `locate` searches JAX's own "
    "docs and sources. Paths are relative to the server's working directory and must stay "
    "inside it."
)

# the tools in the order a client lists them
TOOLS: tuple[Callable[[MCPServer, RootsPolicy], None], ...] = (
    lint_tools.add_check,
    lint_tools.add_fix,
    lint_tools.add_explain,
    lint_tools.add_rules,
    runtime_tools.add_verify,
    runtime_tools.add_probe,
    runtime_tools.add_bench,
    runtime_tools.add_recompile,
    runtime_tools.add_env,
    runtime_tools.add_locate,
    lint_tools.add_template,
)


def build_server(roots: Sequence[str] | None = None) -> MCPServer:
    """The MCP server with every jaxlint tool and the rule docs as resources."""
    policy = RootsPolicy(roots)
    server: MCPServer = MCPServer(
        SERVER_NAME,
        title="jaxlint",
        description="Find, fix and prove JAX sharp bits.",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    for add in TOOLS:
        add(server, policy)
    _register_rule_resources(server)
    return server


def _register_rule_resources(server: MCPServer) -> None:
    """`jaxlint://rules/JAX201` for every rule (listed), plus the index `jaxlint://rules`."""
    from jaxlint.api import explain
    from jaxlint.rules import ALL_RULES

    def reader(code: str) -> Callable[[], str]:
        def read() -> str:
            return explain(code)

        return read

    for rule in ALL_RULES:
        server.resource(
            f"jaxlint://rules/{rule.code}",
            name=f"{rule.code} {rule.name}",
            description=rule.summary(),
            mime_type="text/markdown",
        )(reader(rule.code))

    @server.resource(
        "jaxlint://rules",
        name="jaxlint rules",
        description="the rule index",
        mime_type="text/markdown",
    )
    def index() -> str:
        return "\n".join(f"- {r.code} `{r.name}`: {r.summary()}" for r in ALL_RULES) + "\n"


def serve(roots: Sequence[str] | None = None) -> int:
    """Run the server over stdio until the client closes the connection."""
    build_server(roots).run("stdio")
    return 0
