"""The job a `jaxlint verify` finding becomes: its schema and its edit format.

A job is plain JSON, made by the static half (`verify.plan`, no JAX) and run by the child
(`runtime.runner`, inside the sandbox), which never re-runs the linter. The TypedDicts below name
every key either side reads, so the two halves agree on one schema; at runtime a job stays a
plain `dict` (it crosses the process boundary as JSON). Edits travel as
`[start line, start col, end line, end col, text]` lists; `apply_edits` and the line maps turn
them back into text and map the original's lines onto the edited text, on both sides. Imports
nothing but `jaxlint.core.source` and `jaxlint.core.diagnostic`, so the child can load it cheaply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from jaxlint.core.source import SourceText

# [start line, start col, end line, end col, replacement text]
EditList = list[list[Any]]


class EntrySpec(TypedDict, total=False):
    """How the child reaches the flagged line (`plan_entries.Candidate` as JSON)."""

    mode: str  # jit | grad | call | attr | module
    function: str | None  # module attribute (qualname) to fetch
    static: list[str]  # parameters passed as static (jit) or held fixed (grad)
    inputs: list[list[str]]  # [parameter, spec, source of the spec]
    via: str | None  # the transform the analysis saw (`jax.jit`, `jax.lax.scan`, ...)
    note: str
    params: list[str]  # positional parameters the inputs fill (without `self`)
    then: EntrySpec  # factory: call the entry, then call what it returns with these inputs


class FixSpec(TypedDict, total=False):
    """This finding's own fix, applied alone (or a whole fixed file, `text`)."""

    edits: EditList
    safety: str
    message: str
    text: str  # a whole fixed source instead of edits (an example's `after`)
    names_kept: list[str]  # `import`: names the fix keeps on the finding's lines
    names_added: list[str]  # `import`: dotted names the fix introduces


class OtherFinding(TypedDict):
    """Another finding of the same file (a check stopped by it can say so, or apply its fix)."""

    code: str
    line: int
    edits: EditList | None


class VerifySpec(TypedDict, total=False):
    """The rule's `Verify` data the child reads (`rules.base.Verify.job_fields`: only the fields
    that differ from the default), so the child never imports a rule."""

    expect: list[str]  # trace: exception names / message fragments that match the rule
    observe: list[str]  # trace: [module, attribute] of the JAX function to wrap and record
    observe_confirms: str  # trace: what an observed call must show (traced-input, uint32-key)
    typed_keys: bool  # trace: `jax.random.PRNGKey` returns typed keys while the job runs
    changes_result: bool  # numeric: the fix is meant to change the result
    compare: str  # numeric: the reference instead of the fix (pmap, stale-globals, check-vma-off)
    runs_twice: bool  # draws: the flagged function runs more than once
    unmapped_key: bool  # draws: run the entry's vmap as written; a draw from one key confirms
    compile_time: bool  # compiles / bench: the finding is compilation counted as run time
    donation: bool  # lower: compare with and without donating the arguments


def verify_spec(job: Job) -> VerifySpec:
    """The job's rule data for the kinds (empty for a job planned without it)."""
    return job.get("verify") or {}


class Job(TypedDict, total=False):
    """One finding to verify. `plan_one` fills the keys up to `devices` for every finding; the
    entry and the kind hints only when they apply; the driver adds `seed` and `check_fix`."""

    id: int
    code: str
    name: str
    message: str
    line: int
    col: int
    end_line: int
    lines: list[int]  # lines a verifier attributes to the finding
    loop_lines: list[int] | None  # [first, last] body line of the loop around it
    kinds: list[str]  # verifier kinds, the first decides
    verify: VerifySpec  # the rule's data for its kinds
    file: str  # absolute path
    display: str  # the path as the user gave it
    source: str
    function: str | None  # qualname of the outermost named function around the finding
    others: list[OtherFinding]
    entry: EntrySpec | None
    error: str | None  # the job cannot run at all (no verifier, unknown kind)
    devices: int | None  # fake CPU devices for code that mentions pmap / meshes
    entry_error: str  # why no entry was found (kinds that need none still run)
    guessed: bool  # some input came from a name-based guess
    fix: FixSpec
    # kind hints (`plan_hints`)
    names: list[str]  # import
    config_options: list[str]  # import
    suspects: list[str]  # retrace-static
    prints: bool  # execcount
    globals: list[str]  # numeric
    call: dict[str, Any] | None  # lower: {"callee", "donate", "line"}
    pmap_target: str | None  # JAX301
    axis_name: str | None  # JAX301
    pmap_entry: EntrySpec  # JAX301
    sharded_entry: EntrySpec  # JAX303
    # added by the driver
    seed: int
    check_fix: bool


def line_map(source: SourceText, edits: Sequence[Any]) -> list[int]:
    """`map[L]` = line of original line L in the text with `edits` applied (index 0 unused)."""
    count = source.line_count
    result = [0] * (count + 2)
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for line in range(1, count + 2):
        text = source.line(line)
        first = len(text) - len(text.lstrip())
        pos = (line, first)
        shift = 0
        inside = None
        for e in ordered:
            s, t = (e.start.line, e.start.col), (e.end.line, e.end.col)
            delta = e.content.count("\n") - (e.end.line - e.start.line)
            if t <= pos and s < pos or (s == t == pos and e.content.endswith("\n")):
                shift += delta
            elif s <= pos < t:
                inside = e.start.line + shift
        result[line] = inside if inside is not None else line + shift
    return result


# --------------------------------------------------------------------------- planning


def edit_list(edits: Sequence[Any]) -> list[list[Any]]:
    return [[e.start.line, e.start.col, e.end.line, e.end.col, e.content] for e in edits]


def apply_edits(text: str, edits: Sequence[Sequence[Any]]) -> tuple[str, list[int]]:
    """(new text, line map) for edits given as [start line, start col, end line, end col, text]."""
    from jaxlint.core.diagnostic import Edit, Position

    source = SourceText(text)
    objs = [Edit(Position(a, b), Position(c, d), content) for a, b, c, d, content in edits]
    return source.apply(objs), line_map(source, objs)


def line_map_between(before: str, after: str) -> list[int]:
    """`map[L]` = the line of `after` that line L of `before` became (difflib on lines); a line
    that was rewritten maps to the start of its replacement."""
    import difflib

    a, b = before.splitlines(), after.splitlines()
    result = list(range(len(a) + 2))
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(i1, i2):
            if tag == "equal":
                result[k + 1] = j1 + (k - i1) + 1
            else:
                result[k + 1] = min(j1 + (k - i1), max(j2 - 1, j1)) + 1
    result[len(a) + 1] = len(b) + 1
    return result


# Jobs of a file that mentions devices run in a child with this many simulated CPU devices
# (`--xla_force_host_platform_device_count`); `--capture-*` runs such a file with as many.
DEVICES = 8
DEVICE_WORDS = (
    "pmap",
    "shard_map",
    "make_mesh",
    "Mesh(",
    "mesh",
    "pjit",
    "device_put_replicated",
    "device_put_sharded",
    "PositionalSharding",
    "NamedSharding",
)


def mentions_devices(text: str) -> bool:
    return any(word in text for word in DEVICE_WORDS)
