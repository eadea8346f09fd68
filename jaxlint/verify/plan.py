"""Static half of `jaxlint verify`: turn each finding into a job the sandboxed child can run.

Nothing here imports JAX or executes user code. For every diagnostic it works out, from the same
facts the linter used (`jaxlint.analysis`):

- which verifier kinds confirm it, and what they need to know of the rule (the rule's `verify`);
- the *entry*: how to reach the flagged line so that it runs the way JAX would run it: trace the
  function under our own `jax.jit` with the parameters the analysis found traced (a jitted
  function, a helper called from one, a scan body...), push it through `jax.jvp` (grad-only
  contexts), call it as plain Python (eager code, host loops, timing code), call a module-level
  name (`g = jax.jit(lambda ...)`), or execute the module's top-level statements (`module`);
- the example inputs of that entry, per parameter: `--args`, `[tool.jaxlint.verify]`, annotations
  (jaxtyping, `jax.Array` with `verify.default-shape`), defaults (omitted), and with `guess` a
  name-based guess; a parameter none of these covers makes the job `could-not-run`;
- the fixed source (this finding's own fix applied) and a line map, so each verifier can show that
  the fix removes the problem and keeps the results;
- kind-specific hints: dotted names for `import`, suspect parameters for `retrace-static`, whether
  the line prints (`execcount`), the pmapped name (`numeric` for JAX301).

A job is plain JSON (its schema: `jobs.Job`); the child (`runtime.runner`) never re-runs the
linter. This module chooses the kinds and drives `plan_one`: the header every job has, the entry
(`_choose_entry` over `plan_entries.candidates_for`, inputs from `plan_inputs`), one hint builder
per kind (`plan_hints.KIND_HINTS`) and per rule (`RULE_HINTS`, named by the rule's `verify.hint`),
and the fix (`_plan_fix`).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from jaxlint.analysis import ModuleFacts, ModuleIndex
from jaxlint.core.config import Settings
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.core.source import SourceText
from jaxlint.rules.base import Verify, verifier_kinds
from jaxlint.verify.jobs import (
    DEVICE_WORDS,  # noqa: F401 - re-exported
    DEVICES,
    EditList,
    apply_edits,
    edit_list,
    line_map_between,
    mentions_devices,
)
from jaxlint.verify.plan_entries import (
    Candidate,
    candidates_for,
    capture_targets,
    entry_dict,
    mode_for,
)
from jaxlint.verify.plan_hints import (
    KIND_HINTS,
    axis_name_of,
    enclosing_loop_lines,
    line_names,
    pmap_function,
    pmap_target_of,
    sharded_name,
)
from jaxlint.verify.plan_inputs import (
    InputOptions,
    config_inputs,
    guess_spec,
    infer_rank,
    resolve_inputs,
    spec_from_annotation,
    unmatched_config_entries,
)
from jaxlint.verify.plan_locate import Located, def_qualname, is_method

ALL_KINDS = (
    "trace",
    "retrace-static",
    "compiles",
    "keycheck",
    "draws",
    "retrace-cmp",
    "execcount",
    "leaks",
    "bench",
    "lower",
    "transfers",
    "numeric",
    "dtype",
    "import",
    "gradnan",
)
# The first kind of a rule decides the verdict; SUPPLEMENTARY kinds only add evidence.
# Kinds that never decide a verdict on their own when another kind comes first.
SUPPLEMENTARY = {"retrace-static", "numeric"}
CLOCKS = {
    "time.perf_counter",
    "time.perf_counter_ns",
    "time.time",
    "time.time_ns",
    "time.monotonic",
    "time.monotonic_ns",
    "time.process_time",
    "timeit.default_timer",
}


# --------------------------------------------------------------------------- helpers


def verify_of(rule: Any) -> Verify:
    """A rule class's `verify` data; for an object that is not a `Rule`, its `verifier` kinds."""
    verify = getattr(rule, "verify", None)
    if isinstance(verify, Verify):
        return verify
    return Verify(kinds=verifier_kinds(getattr(rule, "verifier", None)))


def kinds_for(rule: Any) -> tuple[str, ...]:
    """Verifier kinds for a rule class (`verify.kinds`, by default its `verifier` split on `+`)."""
    return verify_of(rule).kinds


def _source_mentions_devices(text: str) -> bool:
    return mentions_devices(text)


def plan_file(
    path: str,
    source: SourceText | str,
    diags: Iterable[Diagnostic],
    settings: Settings,
    rules: dict[str, Any],
    options: InputOptions | None = None,
    *,
    with_fixes: bool = True,
    context: Iterable[Diagnostic] | None = None,
    seeds: Any = None,
    facts: ModuleFacts | None = None,
) -> list[dict[str, Any]]:
    """One job per diagnostic (the caller filters by function first); `context` is every finding
    of the file, so a check stopped by one outside the selection can say so. `seeds` are the
    project index's facts the findings were linted with (a helper jitted from another module
    is then run under `jax.jit`, as its finding says, not as a plain call). `facts`: the
    module's facts from the lint that found `diags` (`jaxlint.api.plan_verify`), so the
    module is not parsed and analysed again; without them they are computed here."""
    options = options or InputOptions()
    source = source if isinstance(source, SourceText) else SourceText(source)
    if facts is None:
        facts = ModuleFacts(ast.parse(source.text), settings.jit_decorators, seeds)
    tree = facts.tree
    diags = list(diags)
    abspath = str(Path(path).resolve())
    others = [
        {
            "code": d.code,
            "line": d.line,
            "edits": edit_list(d.fix.edits) if d.fix is not None and d.fix.edits else None,
        }
        for d in (list(context) if context is not None else diags)
    ]
    return [
        plan_one(
            i,
            abspath,
            path,
            source,
            tree,
            facts,
            diag,
            settings,
            rules,
            options,
            others,
            with_fixes,
        )
        for i, diag in enumerate(diags)
    ]


def function_of(diag: Diagnostic, index: ModuleIndex, source: SourceText) -> str | None:
    """`name` / `Class.name` of the outermost named function around a diagnostic, or of the
    function whose `def` it flags (JAX409's `@jax.jit` on `Model.__call__`: a new user's
    `verify file.py::Model.__call__` found "no findings" beside it)."""
    loc = Located(index, source, diag)
    tops = [f for f in loc.functions if def_qualname(f, index.tree) is not None]
    if not tops and loc.node is not None and def_qualname(loc.node, index.tree) is not None:
        return def_qualname(loc.node, index.tree)
    return def_qualname(tops[-1], index.tree) if tops else None


class _Inputs:
    """Resolves the example inputs of one finding's entry candidates, and says which are missing."""

    def __init__(
        self, display: str, settings: Settings, facts: ModuleFacts, options: InputOptions
    ) -> None:
        self.display = display
        self.settings = settings
        self.facts = facts
        self.options = options

    def resolve(
        self, fn: ast.AST, qualname: str, mode: str, static: Sequence[str]
    ) -> tuple[list[tuple[str, str, str]], list[str]]:
        skip_first = mode != "attr" and not isinstance(fn, ast.Lambda) and is_method(fn)
        return resolve_inputs(
            fn,
            qualname,
            self.display,
            self.settings,
            self.facts,
            self.options,
            skip_first=skip_first,
            static=static,
        )

    def missing_message(self, where: str, missing: list[str]) -> str:
        display = self.display
        spec_hint = ", ".join(f"<{m}>" for m in missing)
        plural = len(missing) > 1
        return (
            f"parameter{'s' if plural else ''} {', '.join(f'`{m}`' for m in missing)} of `{where}` "
            f'need{"" if plural else "s"} an input: pass `{display}::{where} --args "{spec_hint}"`, '
            f'add an annotation, or set [tool.jaxlint.verify] "{Path(display).name}::{where}" = "..."'
        )


def plan_one(
    index: int,
    abspath: str,
    display: str,
    source: SourceText,
    tree: ast.Module,
    facts: ModuleFacts,
    diag: Diagnostic,
    settings: Settings,
    rules: dict[str, Any],
    options: InputOptions,
    others: list[dict[str, Any]],
    with_fixes: bool = True,
) -> dict[str, Any]:
    """The job of one finding (`jobs.Job`): where it is, which kinds verify it, the entry that
    reaches it with its inputs, each kind's hints, and its own fix applied alone."""
    rule = rules.get(diag.code)
    loc = Located(facts.index, source, diag)
    verify = verify_of(rule) if rule is not None else Verify()
    kinds = verify.kinds
    job = _job_header(index, abspath, display, source, tree, diag, loc, kinds, others)
    job["verify"] = verify.job_fields()
    error = _kinds_error(rule, kinds)
    if error is not None:
        job["error"] = error
        return job
    in_main = _in_main_block(tree, diag.line)
    if in_main and not options.run_main:
        job["error"] = MAIN_BLOCK_ERROR
        return job
    inputs = _Inputs(display, settings, facts, options)
    chosen = _choose_entry(job, loc, facts, kinds, inputs)
    if in_main and job.get("entry") is not None and job["entry"].get("mode") == "module":
        job["entry"]["run_main"] = True
    for kind, hint in KIND_HINTS.items():
        if kind in kinds:
            job.update(hint(loc, facts, chosen.node if chosen else None))
    rule_hint = RULE_HINTS.get(verify.hint or "")
    if rule_hint is not None:
        rule_hint(job, loc, tree, inputs)
    if with_fixes and diag.fix is not None and diag.fix.edits:
        _plan_fix(job, diag, source, loc, kinds)
    return job


MAIN_BLOCK_ERROR = (
    'could not run: the line is in the `if __name__ == "__main__":` block, which verify never '
    "runs (it imports the module under another name); use --capture-main to run that block"
)


def _in_main_block(tree: ast.Module, line: int) -> bool:
    """Is `line` inside the module's `if __name__ == "__main__":` block (verify imports the
    module under a private name, so that block only runs when the user asks for it)?"""
    from jaxlint.runtime.capture import main_block_lines

    span = main_block_lines(tree)
    return span is not None and span[0] <= line <= span[1]


def _job_header(
    index: int,
    abspath: str,
    display: str,
    source: SourceText,
    tree: ast.Module,
    diag: Diagnostic,
    loc: Located,
    kinds: Sequence[str],
    others: list[dict[str, Any]],
) -> dict[str, Any]:
    """The keys every job has, whether or not it can run."""
    tops = [f for f in loc.functions if def_qualname(f, tree) is not None]
    return {
        "id": index,
        "code": diag.code,
        "name": diag.name,
        "message": diag.message,
        "line": diag.line,
        "col": diag.col,
        "end_line": diag.span.end.line,
        "lines": loc.lines,
        "loop_lines": enclosing_loop_lines(loc),
        "kinds": list(kinds),
        "file": abspath,
        "display": display,
        "source": source.text,
        "function": def_qualname(tops[-1], tree) if tops else None,
        "others": others,
        "entry": None,
        "error": None,
        "devices": DEVICES if _source_mentions_devices(source.text) else None,
    }


def _kinds_error(rule: Any, kinds: Sequence[str]) -> str | None:
    """Why the finding cannot be verified at all: no verifier, or one this child does not know."""
    if not kinds:
        reason = "the rule has no runtime verifier"
        if rule is not None and getattr(rule, "verifier", None) is None:
            reason += " (see docs/rules.md)"
        return reason
    unknown = [k for k in kinds if k not in ALL_KINDS]
    if unknown:
        return f"unknown verifier kind(s) {', '.join(unknown)}"
    return None


def _choose_entry(
    job: dict[str, Any], loc: Located, facts: ModuleFacts, kinds: Sequence[str], inputs: _Inputs
) -> Candidate | None:
    """The entry and its inputs: the first candidate whose inputs are all known (a factory's
    candidate also needs the inputs of the def it returns). Records it, or why there is none."""
    missing_note = None
    chosen: Candidate | None = None
    got: list[tuple[str, str, str]] = []
    then: dict[str, Any] | None = None
    for cand in candidates_for(loc, facts, kinds, inputs.options.static):
        if cand.mode == "module":
            chosen, got = cand, []
            break
        got, missing = inputs.resolve(cand.node, cand.qualname or "", cand.mode, cand.static)
        if cand.capture_only and (missing or any(w != "capture" for _, _, w in got)):
            continue  # per-device shapes from elsewhere would not fit W's global inputs
        then = None
        if not missing and cand.then is not None:
            inner = mode_for(cand.then, facts, inputs.options.static)
            inner_name = f"{cand.qualname}.{getattr(cand.then, 'name', 'inner')}"
            more, missing = inputs.resolve(cand.then, inner_name, inner.mode, inner.static)
            if not missing:
                then = entry_dict(inner, more)
                then["function"] = inner_name
            else:
                cand_where = inner_name
        else:
            cand_where = cand.qualname or "the function"
        if missing:
            if missing_note is None:
                missing_note = inputs.missing_message(cand_where, missing)
            continue
        chosen = cand
        break
    if chosen is None:
        # kinds that need no entry (e.g. `import` of a removed name) can still run
        job["entry_error"] = missing_note or "no way to run the flagged code was found"
    else:
        job["entry"] = entry_dict(chosen, got)
        if then is not None:
            job["entry"]["then"] = then
        alternatives = _other_calls(chosen.qualname, got, inputs.options)
        if alternatives:
            job["entry"]["alternatives"] = alternatives
        job["guessed"] = any(src == "guess" for _, _, src in got) or bool(
            then and any(src == "guess" for _, _, src in then["inputs"])
        )
    return chosen


def _other_calls(
    qualname: str | None, got: list[tuple[str, str, str]], options: InputOptions
) -> list[list[list[str]]]:
    """The entry's inputs with each later recorded call's specs in place of the first's (only
    the recorded items change): the runner tries them when the first call does not confirm."""
    if not qualname or not any(where == "capture" for _, _, where in got):
        return []
    out: list[list[list[str]]] = []
    for call in options.captured_more.get(qualname, []):
        items = [
            [name, call.get(name) or spec if where == "capture" else spec, where]
            for name, spec, where in got
        ]
        if items != [list(t) for t in got] and items not in out:
            out.append(items)
    return out


def _pmap_hint(job: dict[str, Any], loc: Located, tree: ast.Module, inputs: _Inputs) -> None:
    """JAX301: the pmapped name, its axis name, and an entry that calls the mapped def."""
    target = pmap_target_of(loc, tree)
    job["pmap_target"] = target
    job["axis_name"] = axis_name_of(loc)
    pmap_fn = pmap_function(loc, tree, target)
    if target and pmap_fn is not None:
        got, missing = inputs.resolve(pmap_fn, target, "attr", ())
        if not missing:
            job["pmap_entry"] = entry_dict(Candidate("attr", pmap_fn, qualname=target), got)
        else:
            job["entry_error"] = inputs.missing_message(target, missing)


def _sharded_hint(job: dict[str, Any], loc: Located, tree: ast.Module, inputs: _Inputs) -> None:
    """JAX303: an entry that calls the shard_mapped / pmapped function by its module-level name."""
    name, fn = sharded_name(loc, tree)
    if name and fn is not None:
        got, missing = inputs.resolve(fn, name, "attr", ())
        if not missing:
            job["sharded_entry"] = entry_dict(Candidate("attr", fn, qualname=name), got)
        else:
            job["entry_error"] = inputs.missing_message(name, missing)


# hints one rule's verifier needs beyond its kinds' (KIND_HINTS), by the rule's `verify.hint`
RULE_HINTS: dict[str, Callable[[dict[str, Any], Located, ast.Module, _Inputs], None]] = {
    "pmap": _pmap_hint,
    "sharded": _sharded_hint,
}


def _plan_fix(
    job: dict[str, Any], diag: Diagnostic, source: SourceText, loc: Located, kinds: Sequence[str]
) -> None:
    """This finding's own fix, applied alone, when it changes the text and still parses."""
    assert diag.fix is not None
    edits = edit_list(diag.fix.edits)
    fixed_text, _ = apply_edits(source.text, edits)
    try:
        ast.parse(fixed_text)
    except SyntaxError:
        return
    if fixed_text == source.text:
        return
    job["fix"] = {"edits": edits, "safety": diag.fix.safety, "message": diag.fix.message}
    if "import" in kinds and (job.get("names") or job.get("config_options")):
        _import_fix_names(job, source, fixed_text, edits, loc)


def _import_fix_names(
    job: dict[str, Any], source: SourceText, fixed_text: str, edits: EditList, loc: Located
) -> None:
    """`import`: which of the finding's names the fix keeps on its lines, and which it adds."""
    _, mapping = apply_edits(source.text, edits)
    deleted = {
        line
        for a, b, c, d, content in edits
        if not content.strip() and b == 0 and (d == 0 or c > a)
        for line in range(a, c if d == 0 else c + 1)
    }
    kept_lines = [n for n in loc.lines if n not in deleted and n < len(mapping)]
    before = Counter(line_names(source.text, loc.lines, unique=False))
    after = Counter(line_names(fixed_text, [mapping[n] for n in kept_lines], unique=False))
    job["fix"]["names_kept"] = [
        n for n in job.get("names", []) + job.get("config_options", []) if after[n] >= before[n] > 0
    ]
    job["fix"]["names_added"] = [n for n in after if after[n] > before[n] and "." in n]


# the planner's public names, several re-exported from the modules it was split into
__all__ = [
    "ALL_KINDS",
    "InputOptions",
    "apply_edits",
    "capture_targets",
    "config_inputs",
    "function_of",
    "guess_spec",
    "infer_rank",
    "kinds_for",
    "line_map_between",
    "plan_file",
    "plan_one",
    "spec_from_annotation",
    "unmatched_config_entries",
]
