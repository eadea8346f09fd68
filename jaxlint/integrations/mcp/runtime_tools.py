"""The MCP tools that run the user's code with JAX: `verify`, `probe`, `bench`, `recompile`,
`env` and `locate`.

Each hands its job to the same sandboxed subprocess as the CLI command of that name (timeouts,
memory limit, `__main__` not run), so the server itself never imports JAX; a failure of the
subprocess comes back as a tool error with its reason and stderr's last lines.
"""

from __future__ import annotations

import inspect
import os
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from jaxlint import __version__, api
from jaxlint.core.errors import UsageError
from jaxlint.integrations.mcp.roots import Roots, RootsPolicy
from jaxlint.integrations.mcp.schema import (
    ArgsSpec,
    Memory,
    Names,
    PreviewArg,
    Selectors,
    Target,
    Timeout,
)
from jaxlint.integrations.mcp.toolkit import (
    READ_ONLY,
    RUNS_CODE,
    ToolFailed,
    jsonable,
    parse_codes,
    positive_timeout,
    require_jax,
    tool_errors,
)


def _function(box: Roots, target: str) -> tuple[str, str]:
    """(the canonical `REALPATH::FUNC` for the sandbox, the target as the client wrote it)."""
    path_part, sep, function = target.partition("::")
    if not sep or not function:
        raise ToolError(f"expected FILE::FUNCTION, got {target!r}")
    real = box.resolve(path_part)
    return api.function_ref(f"{real}::{function}"), target


def _sandbox(
    target: str, payload: dict[str, Any], timeout: float | None, memory_mb: int | None
) -> dict[str, Any]:
    if memory_mb is not None and memory_mb <= 0:
        raise ToolError("memory_mb must be positive")
    seconds = positive_timeout(timeout, api.TOOL_TIMEOUT)
    try:
        return api.run_sandboxed(target, payload, seconds, memory_mb)
    except api.SandboxFailed as exc:
        raise ToolFailed(exc.outcome) from None


def _specs(text: str, what: str) -> str:
    from jaxlint.runtime.toolbox.common import check_specs

    return check_specs(text, what)


def _names(values: list[str] | None) -> str | None:
    return ",".join(values) if values else None


def add_verify(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `verify`: prove findings by running the flagged code with JAX (sandboxed)."""

    @server.tool(annotations=RUNS_CODE, structured_output=True)
    @tool_errors
    def verify(
        target: Annotated[
            str,
            Field(
                description="FILE or FILE::FUNCTION to verify, e.g. train.py::train_step "
                "(relative to the server's working directory)"
            ),
        ],
        args: Annotated[
            str | None,
            Field(
                description='example inputs of FUNCTION, e.g. "f32[8,128], i32[], key, 3" '
                "(without them: pyproject [tool.jaxlint.verify], annotations or guesses)"
            ),
        ] = None,
        static: Annotated[list[str] | None, Field(description="parameters to keep static")] = None,
        select: Selectors = None,
        preview: PreviewArg = None,
        guess_inputs: Annotated[
            bool, Field(description="fill parameters without inputs by their names")
        ] = False,
        check_fixes: Annotated[
            bool, Field(description="also verify each finding's fix (slower)")
        ] = True,
        capture_main: Annotated[
            bool,
            Field(
                description="take inputs recorded from the file's own `__main__` run (as "
                "`jaxlint verify --capture-main`)"
            ),
        ] = False,
        timeout: Annotated[
            float | None, Field(description="seconds per finding (default: as the CLI, 60)")
        ] = None,
        memory_mb: Annotated[
            int | None, Field(description="address-space limit of the JAX subprocess")
        ] = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Prove findings by running the flagged code with JAX in a sandboxed subprocess (the
        module is imported, its `__main__` block is not run): each finding gets `confirmed`,
        `not-reproduced` or `could-not-run` with evidence (exceptions, compile counts, draws,
        transfers, timings of original and fixed code)."""
        box = policy.for_call(ctx)
        from jaxlint.verify import driver as verify_mod

        path_part, sep, function = target.partition("::")
        real = box.resolve(path_part)
        if not os.path.isfile(real):
            raise ToolError(f"{path_part!r} is not a file")
        local = f"{real}{sep}{function}"
        path, function_name = verify_mod.split_target(local)
        if args:
            from jaxlint.runtime.toolbox.inputs import parse_specs, split_items

            try:
                parse_specs([i for i in split_items(args) if not i.strip().startswith("=")])
            except UsageError as exc:
                raise ToolError(f"args: {exc}") from None
        kwargs: dict[str, Any] = {}
        if capture_main:
            if "capture_main" not in inspect.signature(verify_mod.verify_file).parameters:
                raise ToolError(
                    "capture_main is not available in this version of jaxlint "
                    f"({__version__}); pass `args` instead"
                )
            kwargs["capture_main"] = True
        if memory_mb is not None and memory_mb <= 0:
            raise ToolError("memory_mb must be positive")
        require_jax("verify")
        report = verify_mod.verify_file(
            path,
            function=function_name,
            args=args,
            static=tuple(static or ()),
            select=",".join(parse_codes(select, "select")) or None,
            preview=preview,
            guess=guess_inputs,
            check_fixes=check_fixes,
            seed=0,
            timeout=positive_timeout(timeout, verify_mod.DEFAULT_TIMEOUT),
            memory_mb=memory_mb,
            echo=False,
            **kwargs,
        )
        report["file"] = box.display(real)
        return jsonable(report)


def add_probe(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `probe`: what a function traces, lowers and compiles to."""

    @server.tool(annotations=RUNS_CODE, structured_output=True)
    @tool_errors
    def probe(
        target: Target,
        args: ArgsSpec,
        static: Names = None,
        donate: Names = None,
        include: Annotated[
            list[Literal["jaxpr", "stablehlo", "hlo"]] | None,
            Field(description='big texts to include (default ["jaxpr"])'),
        ] = None,
        seed: int = 0,
        timeout: Timeout = None,
        memory_mb: Memory = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Trace, lower and compile FILE::FUNCTION on example inputs (nothing is executed):
        output shapes, jaxpr, StableHLO, HLO, XLA cost and memory analysis, donation aliasing,
        host callbacks (as `jaxlint probe`)."""
        box = policy.for_call(ctx)
        from jaxlint.runtime.toolbox.probe import BIG_TEXT_KEYS

        function, shown = _function(box, target)
        require_jax("probe")
        payload = {
            "function": function,
            "args": _specs(args, "args"),
            "static": _names(static),
            "donate": _names(donate),
            "seed": seed,
        }
        result = _sandbox("jaxlint.runtime.toolbox.probe:run", payload, timeout, memory_mb)
        result["function"] = shown
        keep = set(include if include is not None else ["jaxpr"])
        return jsonable({k: v for k, v in result.items() if k not in BIG_TEXT_KEYS or k in keep})


def add_bench(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `bench`: an honest benchmark, optionally against a second function."""

    @server.tool(annotations=RUNS_CODE, structured_output=True)
    @tool_errors
    def bench(
        target: Target,
        args: ArgsSpec,
        repeat: Annotated[int, Field(ge=1, description="timed runs")] = 20,
        warmup: Annotated[int, Field(ge=0, description="untimed warm-up runs")] = 3,
        static: Names = None,
        donate: Names = None,
        jit: Annotated[bool, Field(description="false: call the function as is")] = True,
        compare: Annotated[
            str | None, Field(description="a second FILE::FUNCTION to run alternately")
        ] = None,
        seed: int = 0,
        timeout: Timeout = None,
        memory_mb: Memory = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Honest benchmark (as `jaxlint bench`): input transfer, trace, lower and compile timed
        separately, then warm-up and blocked steady-state runs (median, IQR); `compare` times a
        second function alternately on the same inputs and checks the outputs match."""
        box = policy.for_call(ctx)
        function, shown = _function(box, target)
        other = _function(box, compare) if compare else None
        require_jax("bench")
        payload = {
            "function": function,
            "compare": other[0] if other else None,
            "args": _specs(args, "args"),
            "repeat": repeat,
            "warmup": warmup,
            "static": _names(static),
            "donate": _names(donate),
            "jit": jit,
            "seed": seed,
            "progress": False,
        }
        result = _sandbox("jaxlint.runtime.toolbox.bench:run", payload, timeout, memory_mb)
        result["function"] = shown
        if other and isinstance(result.get("compare"), dict):
            result["compare"]["function"] = other[1]
        return jsonable(result)


def add_recompile(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `recompile`: which calls compile again, and why."""

    @server.tool(annotations=RUNS_CODE, structured_output=True)
    @tool_errors
    def recompile(
        target: Target,
        cases: Annotated[
            list[str],
            Field(min_length=1, description='one input spec per call, e.g. ["f32[4]", "f32[8]"]'),
        ],
        static: Names = None,
        seed: int = 0,
        timeout: Timeout = None,
        memory_mb: Memory = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Run each case through ONE jax.jit wrapper and report which compiled, JAX's reason
        for each cache miss and warnings (weak types, dtype drift, shape/static changes)."""
        box = policy.for_call(ctx)
        function, shown = _function(box, target)
        require_jax("recompile")
        payload = {
            "function": function,
            "cases": [_specs(case, f"case {i + 1}") for i, case in enumerate(cases)],
            "static": _names(static),
            "seed": seed,
        }
        result = _sandbox("jaxlint.runtime.toolbox.recompile:run", payload, timeout, memory_mb)
        result["function"] = shown
        return jsonable(result)


def add_env(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `env`: the JAX installation and settings that do not do what they seem to."""

    @server.tool(annotations=RUNS_CODE, structured_output=True)
    @tool_errors
    def env(
        smoke_test: Annotated[bool, Field(description="also jit and time a small matmul")] = False,
        timeout: Timeout = None,
    ) -> dict[str, Any]:
        """The JAX environment (as `jaxlint env`): versions, backend, devices, config, relevant
        environment variables and warnings about settings that do not do what they seem to."""
        from jaxlint.runtime.toolbox.env import collect_env

        seconds = positive_timeout(timeout, api.TOOL_TIMEOUT)
        return jsonable(collect_env(smoke_test=smoke_test, timeout=seconds))


def add_locate(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `locate`: search JAX's own docs, tests and sources offline."""

    @server.tool(annotations=READ_ONLY, structured_output=True)
    @tool_errors
    def locate(
        topic: Annotated[str, Field(description="words, e.g. 'shard_map' or 'key reuse'")],
        kind: Annotated[
            Literal["doc", "test", "source"] | None, Field(description="only this kind of file")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 10,
    ) -> dict[str, Any]:
        """Search the installed JAX package's docs, tests and sources for a topic (offline)."""
        from jaxlint.runtime.toolbox.locate import locate as run_locate

        if not topic.strip():
            raise ToolError("empty topic")
        return jsonable(run_locate(topic, root=None, kind=kind, limit=limit, use_cache=True))
