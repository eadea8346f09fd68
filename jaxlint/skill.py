"""`jaxlint skill --out DIR`: write an agent skill (a `SKILL.md` plus `references/`) for JAX work.

Agent harnesses load a skill as a folder: `SKILL.md` with YAML front matter (`name`, and a
`description` that tells the agent when to use it), then instructions with the commands to run.
Everything rule-specific here is generated from the rule registry and the template table (the red
flags, the checklist's rule codes, the reference pages), so the skill cannot drift from the
linter; tests/test_skill.py runs every `jaxlint ...` command it shows with `--help` and parses it
with the real argument parser.

No JAX, no `mcp`: this module only reads the registry, like `jaxlint rules`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from jaxlint.core.codes import CODES
from jaxlint.core.errors import UsageError

__all__ = ["SKILL_NAME", "FAMILIES", "register", "render_skill", "write_skill"]

SKILL_NAME = "jaxlint"
DESCRIPTION = (
    "Use when writing, reviewing, debugging or benchmarking JAX code (jax.jit, vmap, grad, "
    "lax.scan, PRNG keys, sharding, shard_map, pmap, Flax/Equinox/Optax training loops): errors "
    "such as TracerBoolConversionError or ConcretizationTypeError, wrong or repeated random "
    "numbers, slow steps, recompilation, suspicious timings, or deprecated JAX APIs. jaxlint "
    "finds JAX sharp bits statically, fixes them, proves them by running the code with JAX, and "
    "benchmarks honestly."
)


@dataclass(frozen=True)
class Family:
    """How a rule family (one module of `jaxlint/rules/`) shows up to someone debugging."""

    title: str
    symptoms: str
    prove: str  # the jaxlint command that measures it


# The problem classes of the workflow's first step, keyed by rule module. The rules listed under
# each come from the registry; a family without an entry here still gets a section (its name).
FAMILIES: dict[str, Family] = {
    "tracing": Family(
        "Tracing",
        "TracerBoolConversionError, ConcretizationTypeError, TracerArrayConversionError, "
        "NonConcreteBooleanIndexError; `print` shows tracers or prints once; shapes from values",
        'jaxlint verify FILE::FUNC --args "f32[8,128]"',
    ),
    "prng": Family(
        "PRNG",
        "identical or correlated random numbers, the same dropout mask every step, results that "
        "change under jit, KeyReuseError",
        'jaxlint verify FILE::FUNC --args "key, f32[8]"',
    ),
    "compile": Family(
        "Compilation",
        "every step slow, compile time that grows, `Compiling ...` repeated in the logs, long "
        "compile of an unrolled loop, memory doubled by undonated state",
        'jaxlint recompile FILE::FUNC --case "f32[4]" --case "f32[8]"',
    ),
    "sharding": Family(
        "Sharding and parallelism",
        "pmap code on JAX 0.10, shard_map gradients off by the device count, arrays on the "
        "wrong devices, `with mesh:` that does nothing",
        'jaxlint probe FILE::FUNC --args "f32[8,128]"',
    ),
    "benchmarking": Family(
        "Benchmarking",
        "timings that are too good (async dispatch) or too bad (compilation inside the timed "
        "region), speed-ups that do not reproduce",
        'jaxlint bench FILE::FUNC --args "f32[512,512]" --compare FILE::FUNC_FIXED',
    ),
    "mutation": Family(
        "State and side effects",
        "TypeError on `x[i] = v`, side effects that run once at trace time, globals whose "
        "changes jit never sees",
        'jaxlint verify FILE::FUNC --args "f32[8]"',
    ),
    "dtypes": Family(
        "Dtypes",
        "float64 silently becoming float32, integer overflow, precision lost",
        "jaxlint env --smoke-test",
    ),
    "deprecations": Family(
        "Removed and deprecated APIs",
        "AttributeError or ImportError after upgrading JAX (`jax.tree_map`, "
        "`jax.experimental.pjit`, removed modules and config options)",
        "jaxlint check --diff PATH",
    ),
}

# The review checklist: each item lists the rules (from the registry) that catch it.
CHECKLIST: tuple[tuple[str, str, Callable[[type], bool]], ...] = (
    (
        "Host round trips in the hot path",
        "no NumPy, `float()`, `.item()`, `device_get` or `print` of traced values inside jitted "
        "code; no host data converted to device arrays in every step; logging with "
        "`jax.debug.print` or outside the step.",
        lambda r: bool(re.search(r"host-conversion|device-get|print-traced|host-data", r.name)),
    ),
    (
        "Hidden PRNG or state bugs",
        "every key consumed once (split, then use each part); no constant seed in a loop; no "
        "host RNG in traced code; no in-place updates, trace-time side effects or mutable "
        "globals read by jitted functions.",
        lambda r: _family(r) in ("prng", "mutation"),
    ),
    (
        "Compile time versus run time",
        "jit built once outside the loop; static arguments hashable and stable; shapes stable "
        "across steps; long loops as `lax.scan`/`fori_loop`; state donated; the first "
        "(compiling) call kept out of timings.",
        lambda r: _family(r) == "compile" or "compilation" in r.name,
    ),
    (
        "An honest verification method",
        "claims are measured, not assumed: `jaxlint verify FILE::FUNC` for a suspected bug, "
        "`jaxlint bench FILE::FUNC --args SPEC` (warm-up, `block_until_ready`, medians, compile "
        "separated) for speed, `jaxlint recompile FILE::FUNC --case SPEC --case SPEC` for "
        "compile counts, outputs compared before and after a fix.",
        lambda r: _family(r) == "benchmarking",
    ),
)


def _family(rule: type) -> str:
    """The rule's family, from the code table (`core/codes.py`); a rule that is not in the table
    (a test double) falls back to its module's package under `jaxlint.rules`."""
    for row in CODES:
        if row.code == getattr(rule, "code", None):
            return row.family
    parts = rule.__module__.split(".")
    return parts[2] if parts[:2] == ["jaxlint", "rules"] and len(parts) > 2 else parts[-1]


def _rules() -> list[type]:
    from jaxlint.rules import ALL_RULES

    return list(ALL_RULES)


def _by_family(rules: Iterable[type]) -> dict[str, list[type]]:
    out: dict[str, list[type]] = {}
    for rule in rules:
        out.setdefault(_family(rule), []).append(rule)
    order = list(FAMILIES)
    return dict(sorted(out.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99))


def _title(family: str) -> str:
    info = FAMILIES.get(family)
    return info.title if info else family.replace("_", " ").capitalize()


def _flags(rule: type) -> str:
    extras = []
    if not rule.default and "opt-in" not in rule.summary():
        extras.append(f"opt-in: `--extend-select {rule.code}`")
    if rule.fix_safety:
        extras.append(f"{rule.fix_safety} fix")
    return f" ({', '.join(extras)})" if extras else ""


# --------------------------------------------------------------------------- rendering


def _front_matter(target: str) -> str:
    lines = ["---", f"name: {SKILL_NAME}", f"description: {_yaml_str(DESCRIPTION)}"]
    if target == "claude":
        lines.append("allowed-tools: Bash(jaxlint:*), Read, Grep, Glob")
    lines.append("---")
    return "\n".join(lines)


def _yaml_str(text: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is valid YAML)."""
    import json

    return json.dumps(text, ensure_ascii=False)


def _mcp_note(target: str) -> str:
    tools = "check, fix, explain, rules, verify, probe, bench, recompile, env, locate, template"
    if target == "claude":
        return (
            "If the jaxlint MCP server is registered (`claude mcp add jaxlint -- jaxlint mcp`), "
            f"the same steps are the tools `mcp__jaxlint__*` ({tools}): they return JSON and "
            "`fix` only writes with `write=true`."
        )
    return (
        "If your harness has the jaxlint MCP server (`jaxlint mcp`), the same steps are its "
        f"tools ({tools}): they return JSON and `fix` only writes with `write=true`."
    )


def render_skill(target: str = "claude") -> str:
    """The text of SKILL.md for `target` ("claude" or "generic")."""
    rules = _rules()
    families = _by_family(rules)
    out = [_front_matter(target), "", "# JAX with jaxlint", ""]
    out += _intro(target)
    out += WORKFLOW
    out += ["## Problem classes", ""]
    out += _problem_classes(families)
    out += ["", "## Red flags", ""]
    out += _red_flags(families)
    out += ["", "## Review checklist", ""]
    out += _checklist(rules)
    out += [
        "",
        "## References",
        "",
        "- `references/rules-<class>.md`: the documentation of every rule of a class.",
        "- `references/templates.md`: the idiom templates and which rules each one fixes.",
        "",
    ]
    return "\n".join(out)


def _intro(target: str) -> list[str]:
    """What jaxlint does for an agent, and the MCP tools that do the same steps."""
    return [
        "Find JAX sharp bits, fix them, and prove every claim by measurement. `jaxlint check` "
        "reads code without importing it or JAX; `verify`, `probe`, `bench` and `recompile` run "
        "the code with JAX in a sandboxed subprocess (timeouts, memory limit, `__main__` not "
        "run). Each command has `--help`; runtime commands print JSON by default "
        "(`--format text` for people).",
        "",
        _mcp_note(target),
        "",
    ]


# The workflow, one numbered step per stage of debugging JAX code, each with its commands
# (tests/test_skill.py runs every `jaxlint ...` line here with `--help`).
WORKFLOW: tuple[str, ...] = (
    "## Workflow",
    "",
    "1. **Classify the problem** (see *Problem classes* below): tracing, PRNG, compilation, "
    "sharding, benchmarking, state, dtypes or a removed API. The class tells you which rules "
    "and which measurement apply.",
    "2. **Inspect the environment**: versions, backend, devices, and settings that do not do "
    "what they seem to (x64, memory fraction, a GPU plugin on a CPU backend).",
    "",
    "   ```bash",
    "   jaxlint env --format text",
    "   jaxlint env --smoke-test",
    "   ```",
    "",
    "3. **Scan the project** and read the docs of each rule that fires.",
    "",
    "   ```bash",
    "   jaxlint check PATH",
    "   jaxlint check --format json PATH",
    "   jaxlint explain JAX201",
    "   jaxlint rules",
    "   ```",
    "",
    "4. **Reduce to a minimal reproducer**: start from the template (versions, explicit "
    "shapes and dtypes, typed keys), keep only what still shows the problem, and check it.",
    "",
    "   ```bash",
    "   jaxlint template mre --out mre.py",
    "   jaxlint check mre.py",
    "   ```",
    "",
    "5. **Choose the least powerful mechanism** that fixes it: a static argument before "
    "`lax.cond`, `jnp.where` before a callback, `lax.scan` before an unrolled loop, "
    "`jax.jit` + sharding before `shard_map`. Let jaxlint apply its fixes (safe ones never "
    "change results; unsafe ones may, e.g. new random numbers), and copy idioms from the "
    "templates.",
    "",
    "   ```bash",
    "   jaxlint check --diff PATH",
    "   jaxlint check --fix PATH",
    "   jaxlint check --fix --unsafe-fixes PATH",
    "   jaxlint template",
    "   jaxlint template training-step",
    "   ```",
    "",
    "6. **Verify claims by measurement**: prove a finding (and its fix) with JAX, look at "
    "what a function compiles to, count compiles, and time original against fixed.",
    "",
    "   ```bash",
    '   jaxlint verify FILE::FUNC --args "f32[8,128], key"',
    '   jaxlint probe FILE::FUNC --args "f32[8,128]" --brief',
    '   jaxlint recompile FILE::FUNC --case "f32[4]" --case "f32[8]"',
    '   jaxlint bench FILE::FUNC --args "f32[512,512]" --compare FILE::FUNC_FIXED',
    '   jaxlint locate "key reuse"',
    "   ```",
    "",
    "   Input specs: `f32[8,128]`, `i32[]`, `bool[4]`, `key` (a typed PRNG key), `key[4]`, "
    "or a Python literal (`3`, `0.5`, `'mean'`). Report `confirmed` / `not-reproduced` / "
    "`could-not-run` as `verify` prints it; never claim a speed-up without `bench`.",
    "",
)


def _problem_classes(families: dict[str, list[type]]) -> list[str]:
    """Each family with its rule codes, the symptoms it causes and how to measure it."""
    out = []
    for family, members in families.items():
        info = FAMILIES.get(family)
        codes = ", ".join(r.code for r in members)
        out.append(f"- **{_title(family)}** ({codes})")
        if info:
            out.append(f"  - symptoms: {info.symptoms}")
            out.append(f"  - measure: `{info.prove}`")
    return out


def _red_flags(families: dict[str, list[type]]) -> list[str]:
    """Every rule, by family, with its one-line summary and how to enable or fix it."""
    out = [
        "Each rule jaxlint checks, by class. `jaxlint explain CODE` has the full text; "
        "`references/` has it offline."
    ]
    for family, members in families.items():
        out += ["", f"### {_title(family)}", ""]
        for rule in members:
            out.append(f"- `{rule.code}` {rule.name}: {rule.summary()}{_flags(rule)}")
    return out


def _checklist(rules: list[type]) -> list[str]:
    """The review checklist, each item tagged with the rules that catch it."""
    out = ["Before calling JAX code done, check each item (the rules that catch it in brackets):"]
    out.append("")
    for title, text, predicate in CHECKLIST:
        codes = [r.code for r in rules if predicate(r)]
        tag = f" [{', '.join(codes)}]" if codes else ""
        out.append(f"- [ ] **{title}**: {text}{tag}")
    return out


def render_references() -> dict[str, str]:
    """{relative path: text} of the `references/` pages."""
    from jaxlint.templates import TEMPLATES

    pages: dict[str, str] = {}
    for family, members in _by_family(_rules()).items():
        lines = [f"# {_title(family)} rules", ""]
        info = FAMILIES.get(family)
        if info:
            lines += [f"Symptoms: {info.symptoms}.", "", f"Measure: `{info.prove}`", ""]
        for rule in members:
            lines += [f"## {rule.code} {rule.name}{_flags(rule)}", "", rule.docs().strip(), ""]
            if rule.templates:
                shown = ", ".join(f"`jaxlint template {t}`" for t in rule.templates)
                lines += [f"Idiomatic fix: {shown}", ""]
        pages[f"references/rules-{family}.md"] = "\n".join(lines)
    lines = [
        "# Idiom templates",
        "",
        "Starter programs, each the canonical JAX way of doing one thing. Print one with "
        "`jaxlint template NAME`, write it with `jaxlint template NAME --out FILE`.",
        "",
    ]
    for template in TEMPLATES.values():
        fixes = f" Fixes: {', '.join(template.rules)}." if template.rules else ""
        lines.append(f"- `jaxlint template {template.name}`: {template.summary}.{fixes}")
    pages["references/templates.md"] = "\n".join(lines) + "\n"
    return pages


def write_skill(out: Path, target: str = "claude", force: bool = False) -> list[Path]:
    """Write SKILL.md and references/ under `out`; returns the files written."""
    if target not in ("claude", "generic"):
        raise UsageError(f"unknown --for {target!r} (claude or generic)")
    files = {"SKILL.md": render_skill(target), **render_references()}
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a directory")
    if (out / "SKILL.md").exists() and not force:
        raise UsageError(f"{out / 'SKILL.md'} already exists; use --force to overwrite it")
    written = []
    try:
        for rel, text in files.items():
            path = out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise UsageError(f"cannot write the skill to {out}: {exc.strerror or exc}") from None
    return written


# --------------------------------------------------------------------------- CLI


def register(sub: argparse._SubParsersAction) -> None:
    """Add `jaxlint skill` to the CLI."""
    parser = sub.add_parser(
        "skill",
        help="write an agent skill (SKILL.md + references/) for JAX work",
        description=(
            "Write an agent skill folder: SKILL.md (YAML front matter, the JAX debugging "
            "workflow with the jaxlint command of each step, red flags mapped to rule codes, a "
            "review checklist) and references/ generated from the rule docs and templates. "
            "For Claude Code: --out .claude/skills/jaxlint. See docs/agents.md."
        ),
    )
    parser.add_argument("--out", "-o", required=True, metavar="DIR", help="folder to write")
    parser.add_argument(
        "--for",
        dest="target",
        choices=("claude", "generic"),
        default="claude",
        help="tune for Claude (allowed-tools, mcp__jaxlint__* tool names) or any harness",
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing SKILL.md")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    written = write_skill(Path(args.out), args.target, args.force)
    print(f"wrote the {SKILL_NAME} skill to {args.out} ({len(written)} files)", file=sys.stderr)
    return 0
