"""Verifier kind `import`: does the old name still exist in the installed JAX?

Each dotted JAX name used at the flagged line (as the planner resolved it through the file's
imports: `jax.tree_map`, `jax.tree_util.tree_multimap`, `jax.experimental.maps`...) is resolved
by importing its longest module prefix and reading the remaining attributes, with warnings
recorded. A config option named in `jax.config.update("...")` is looked up on `jax.config`.
Confirmed when a name is gone (ModuleNotFoundError / AttributeError, with JAX's own message) or
deprecated (a DeprecationWarning / FutureWarning on access). When the line uses no resolvable
name (`with mesh:`, a removed keyword), the line itself runs (module code or the entry) and an
error or deprecation warning raised there confirms it.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
    short_message,
)
from jaxlint.runtime.side import Probe, Side

DEPRECATION = ("DeprecationWarning", "FutureWarning", "PendingDeprecationWarning")


def resolve(name: str) -> dict[str, Any]:
    """Import/getattr `name`; report whether it exists and what JAX said about it."""
    parts = name.split(".")
    record: dict[str, Any] = {"name": name}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = None
        index = len(parts)
        error: BaseException | None = None
        while index > 0:
            try:
                module = importlib.import_module(".".join(parts[:index]))
                break
            except ModuleNotFoundError as exc:
                error = exc
                index -= 1
            except Exception as exc:  # an import that fails for another reason
                error = exc
                break
        obj: Any = module
        notes: list[str] = []
        if module is not None:
            error = None
            for part in parts[index:]:
                note = _deprecation_note(obj, part)
                if note:
                    notes.append(note)
                try:
                    obj = getattr(obj, part)
                except Exception as exc:
                    error = exc
                    break
        elif error is None:
            error = ModuleNotFoundError(f"No module named {parts[0]!r}")
        # a module reached by import may itself be a deprecated attribute of its parent
        for i in range(1, index):
            parent = sys.modules.get(".".join(parts[:i]))
            note = _deprecation_note(parent, parts[i]) if parent is not None else None
            if note:
                notes.append(note)
    record["exists"] = error is None
    if error is not None:
        record["error"] = f"{type(error).__name__}: {short_message(error)}"
    deprecations = [
        f"{w.category.__name__}: {short_message(str(w.message))}"
        for w in caught
        if w.category.__name__ in DEPRECATION
    ]
    # JAX warns once per process (functools.cache): read its deprecation table as well
    deprecations += [
        f"DeprecationWarning: {n}" for n in notes if not any(n in d for d in deprecations)
    ]
    if deprecations:
        record["warnings"] = deprecations[:2]
    return record


def _deprecation_like(warning: dict[str, Any]) -> bool:
    """A DeprecationWarning, or another warning that says the API is going away."""
    if warning["category"] in DEPRECATION:
        return True
    text = warning["message"].lower()
    return any(
        word in text for word in ("deprecat", "renamed", "will be removed", "eventually be removed")
    )


def _deprecation_note(owner: Any, name: str) -> str | None:
    """JAX's own `_deprecations` table of a module: the message for a deprecated attribute."""
    table = getattr(owner, "__dict__", {}).get("_deprecations") if owner is not None else None
    if isinstance(table, dict) and name in table:
        entry = table[name]
        message = entry[0] if isinstance(entry, tuple) and entry else str(entry)
        return short_message(str(message))
    return None


def _config_option(name: str) -> dict[str, Any]:
    import jax

    record: dict[str, Any] = {"name": f"jax.config: {name}"}
    try:
        getattr(jax.config, name)
        record["exists"] = True
    except AttributeError:
        record["exists"] = False
        record["error"] = f"AttributeError: Unrecognized config option: {name}"
    return record


def _run_line(side: Side) -> Outcome:
    """No name to look up: run the code and look for an error or deprecation at the line."""
    with Probe(side.filename) as probe:
        errors: list[BaseException] = []
        if side.mode == "module":
            mod = side.run_module()
            record = mod.error_at(side.lines)
            errors = [record["exc"]] if record else []
            ran = "module top-level code"
        else:
            entry = side.entry()
            ran = entry.describe()
            try:
                entry.run()
            except Exception as exc:
                errors.append(exc)
    for exc in errors:
        info = describe_exception(exc, side.filename)
        other = side.other_finding_at(info.get("user_frames") or [])
        if other is not None and info.get("at_line") not in side.lines:
            info["masked_by"] = other
            return could_not_run(
                f"masked: the code stopped earlier at line {info.get('at_line')} "
                f"({other['code']}: {info['exception']})",
                **info,
            )
        if info.get("at_line") in side.lines and not isinstance(exc, NameError):
            return confirmed(
                f"line {info.get('at_line')}: {info['exception']}: {info['message']}",
                **info,
                ran=ran,
            )
        return could_not_run(
            f"{ran} failed elsewhere: {info['exception']}: {info['message']}", **info
        )
    found = [w for w in probe.warnings_at(side.lines) if _deprecation_like(w)]
    if found:
        return confirmed(
            f"{found[0]['category']}: {found[0]['message']}",
            warnings=[w["message"] for w in found[:2]],
            ran=ran,
        )
    return not_reproduced("the line ran without an error or a deprecation warning", ran=ran)


def check(side: Side) -> Outcome:
    import jax

    names = list(side.job.get("names") or [])
    options = list(side.job.get("config_options") or [])
    if side.fixed:
        return _fixed(side)
    if not names and not options:
        return _run_line(side)
    records = [resolve(n) for n in names] + [_config_option(o) for o in options]
    evidence = {"names": records, "jax_version": jax.__version__}
    gone = [r for r in records if not r["exists"]]
    deprecated = [r for r in records if r["exists"] and r.get("warnings")]
    if gone:
        first = gone[0]
        return confirmed(
            f"{first['name']} is gone in JAX {jax.__version__}: {first['error']}", **evidence
        )
    if deprecated:
        first = deprecated[0]
        return confirmed(
            f"{first['name']} is deprecated in JAX {jax.__version__}: {first['warnings'][0]}",
            **evidence,
        )
    if options:
        return not_reproduced(f"the config option(s) exist in JAX {jax.__version__}", **evidence)
    # Names exist: the line may still fail (a removed keyword, a changed call) -> run it.
    ran = _run_line(side)
    ran.evidence.update(evidence)
    if ran.verdict == "not-reproduced":
        ran.reason = f"{', '.join(r['name'] for r in records)} exist in JAX {jax.__version__} without warnings; {ran.reason}"
    return ran


def _fixed(side: Side) -> Outcome:
    """The fixed code must no longer use the old name, and what it uses instead must exist
    without deprecation; findings without a name run the fixed line instead."""
    import jax

    fix = side.job.get("fix") or {}
    if "names_kept" not in fix:
        return _run_fixed_line(side)
    names = list(side.job.get("names") or [])
    options = list(side.job.get("config_options") or [])
    original = {r["name"]: r for r in [resolve(n) for n in names]}
    original.update({o: _config_option(o) for o in options})
    bad = {n for n, r in original.items() if not r["exists"] or r.get("warnings")}
    kept = [n for n in fix.get("names_kept", []) if n in bad]
    added = [resolve(n) for n in fix.get("names_added", [])]
    evidence = {"names": added, "jax_version": jax.__version__}
    if bad and set(kept) >= bad:
        return confirmed(f"the fixed line still uses {', '.join(kept)}", **evidence)
    broken = [r for r in added if not r["exists"] or r.get("warnings")]
    if broken:
        first = broken[0]
        why = first.get("error") or (first.get("warnings") or [""])[0]
        return confirmed(f"the replacement {first['name']} does not work either: {why}", **evidence)
    shown = ", ".join(r["name"] for r in added) or "nothing (the line was removed)"
    return not_reproduced(
        f"the fixed line uses {shown}: present in JAX {jax.__version__} without deprecation",
        **evidence,
    )


def _run_fixed_line(side: Side) -> Outcome:
    """The fixed code: the line must now run without an error or deprecation warning; an error
    the original line raised too (unrelated to this rule) does not count against the fix."""
    with Probe(side.filename) as probe:
        mod = side.run_module()
    record = mod.error_at(side.lines)
    found = [w for w in probe.warnings_at(side.lines) if _deprecation_like(w)]
    if found:
        return confirmed(f"the fixed line still warns: {found[0]['message']}")
    if record is None:
        return not_reproduced("the fixed line runs without error or deprecation warning")
    info = describe_exception(record["exc"], side.filename)
    if isinstance(record["exc"], NameError):
        return could_not_run(
            f"the fixed line reads a name the file does not define: {info['message']}", **info
        )
    original = Side(side.job)
    before = original.run_module()
    old = before.error_at(original.lines)
    if (
        old is not None
        and type(old["exc"]) is type(record["exc"])
        and not isinstance(record["exc"], (AttributeError, ImportError))
    ):
        return not_reproduced(
            f"no deprecated API left on the line; it still raises {info['exception']} "
            f"({info['message']}) exactly as the original did, which is not this rule's problem",
            **info,
        )
    return confirmed(f"the fixed line fails: {info['exception']}: {info['message']}", **info)
