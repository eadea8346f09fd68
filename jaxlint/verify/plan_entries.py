"""How to reach a flagged line at runtime: the entry candidates of a finding.

A candidate is a way to run the code around a finding the way JAX would run it: trace the
function under our own `jax.jit` with the parameters the analysis found traced (`jit`), push it
through `jax.jvp` (`grad`), call it as plain Python (`call`), fetch a module attribute (`attr`),
or execute the module's top-level statements (`module`); callers that reach the function, and a
factory's returned def (`then`), are candidates too. The planner takes the first candidate whose
inputs are all known. `capture_targets` lists the same candidates for `--capture-*`. Static.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jaxlint.analysis import ModuleFacts
from jaxlint.core.config import Settings
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.core.source import SourceText
from jaxlint.runtime.capture_hook import module_wrappers
from jaxlint.verify.plan_locate import (
    Located,
    def_qualname,
    is_method,
    positional_params,
    statement_of,
)

# --------------------------------------------------------------------------- entries


@dataclass
class Candidate:
    mode: str  # jit | grad | call | attr | module
    node: ast.AST | None = None  # the def (or lambda) whose parameters get the inputs
    qualname: str | None = None  # module attribute to fetch
    static: tuple[str, ...] = ()
    via: str | None = None
    note: str = ""
    then: ast.AST | None = None  # factory: call the entry, then call what it returns (this def)
    capture_only: bool = False  # only with inputs recorded from a real call (global shapes)


def _callers(tree: ast.Module, subject: ast.AST, facts: ModuleFacts) -> list[ast.AST]:
    """Module-level defs that mention `subject` by name (call it or hand it to a transform)."""
    name = getattr(subject, "name", None)
    if not name:
        return []
    out = []
    for stmt in tree.body:
        defs = [stmt] if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        if isinstance(stmt, ast.ClassDef):
            continue
        for d in defs:
            if d is subject:
                continue
            for sub in ast.walk(d):
                if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load):
                    if facts.index.resolve_function(sub) is subject:
                        out.append(d)
                        break
    return out


def mode_for(fn: ast.AST, facts: ModuleFacts, extra_static: Sequence[str]) -> Candidate:
    info = facts.function_facts(fn)
    if info is not None and info.is_jit:
        params = [a.arg for a in positional_params(fn)]
        kwonly = [a.arg for a in fn.args.kwonlyargs]  # type: ignore[attr-defined]
        static = [p for p in (*params, *kwonly) if p not in info.traced_params]
        if is_method(fn) and params:
            static = [p for p in static if p != params[0]]
        static += [s for s in extra_static if s not in static]
        return Candidate("jit", fn, static=tuple(static), via=info.via, note=info.describe())
    if info is not None and info.is_grad:
        params = [a.arg for a in positional_params(fn)]
        static = [p for p in params if p not in info.traced_params]
        static += [s for s in extra_static if s not in static]
        return Candidate("grad", fn, static=tuple(static), via=info.via, note=info.describe())
    return Candidate("call", fn, static=tuple(extra_static))


def _module_lambda_target(fn: ast.Lambda, tree: ast.Module) -> str | None:
    """`g = jax.jit(lambda x: ...)` at module level -> `g`."""
    stmt = statement_of(fn)
    if (
        isinstance(stmt, ast.Assign)
        and getattr(stmt, "jl_parent", None) is tree
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id
    return None


def candidates_for(
    loc: Located, facts: ModuleFacts, kinds: Sequence[str], extra_static: Sequence[str]
) -> list[Candidate]:
    tree = loc.tree
    if not loc.functions:
        return [Candidate("module", note="module-level code")]
    outer = loc.functions[-1]
    if isinstance(outer, ast.Lambda):
        target = _module_lambda_target(outer, tree)
        traced = facts.function_facts(outer) is not None
        if target is not None and loc.functions[0] is outer and traced:
            info = facts.function_facts(outer)
            return [
                Candidate("attr", outer, qualname=target, note=info.describe() if info else ""),
                Candidate("module", note="module-level code"),
            ]
        return [Candidate("module", note="module-level code")]
    # the outermost def reachable by name: module-level def or method of a module-level class
    tops = [f for f in loc.functions if def_qualname(f, tree) is not None]
    if not tops:
        return [Candidate("module", note="module-level code")]
    top = tops[-1]
    subject = loc.functions[0]
    first = mode_for(top, facts, extra_static)
    first.qualname = def_qualname(top, tree)
    out = [first]
    # `W = jax.pmap(top)` / `W = jax.jit(jax.shard_map(top, ...))`: the body binds axis names
    # and runs only through W, with the global inputs the program passed W (recorded)
    wrapped = [
        Candidate("attr", top, qualname=w, note=f"through `{w}`", capture_only=True)
        for w, inner in module_wrappers(tree).items()
        if inner == getattr(top, "name", None) and first.qualname == inner
    ]
    out = wrapped + out
    if subject is top:
        info = facts.function_facts(top)
        callers: list[ast.AST] = []
        if info is not None and info.chain:
            for name in info.chain[:-1]:
                for stmt in tree.body:
                    if getattr(stmt, "name", None) == name and stmt is not top:
                        callers.append(stmt)
        callers += [c for c in _callers(tree, top, facts) if c not in callers]
        via_callers = []
        for caller in callers:
            cand = mode_for(caller, facts, ())
            cand.qualname = def_qualname(caller, tree)
            if cand.qualname:
                cand.note = f"through its caller `{cand.qualname}`"
                via_callers.append(cand)
        # a scan/fori/while body or cond branch gets its inputs from the function that loops
        if info is not None and info.via.startswith(CONTROL_FLOW_PREFIXES) and not info.chain:
            return via_callers + out
        return out + via_callers
    if first.mode == "call":
        product = _returned_def(top, facts)
        if product is not None:
            first.then = product
    return out


CONTROL_FLOW_PREFIXES = (
    "jax.lax.",
    "flax.nnx.scan",
    "flax.nnx.fori_loop",
    "flax.nnx.while_loop",
    "flax.nnx.cond",
    "flax.nnx.switch",
)


def capture_targets(
    path: str, source: SourceText | str, diags: Iterable[Diagnostic], settings: Settings
) -> list[str]:
    """Qualnames whose real inputs `--capture-*` should record: every entry candidate of every
    finding (the function around it and the callers that reach it)."""
    source = source if isinstance(source, SourceText) else SourceText(source)
    tree = ast.parse(source.text)
    facts = ModuleFacts(tree, settings.jit_decorators)
    out: list[str] = []
    wrappers = module_wrappers(tree)
    for diag in diags:
        loc = Located(facts.index, source, diag)
        for cand in candidates_for(loc, facts, ("trace",), ()):
            if cand.qualname and cand.qualname not in out:
                out.append(cand.qualname)
        # a finding on `W = jax.pmap(f)` itself (JAX301) runs W with its recorded inputs
        stmt = loc.stmt
        for wrapper in wrappers:
            if (
                isinstance(stmt, ast.Assign)
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id == wrapper
                and wrapper not in out
            ):
                out.append(wrapper)
    return out


def _returned_def(top: ast.AST, facts: ModuleFacts) -> ast.AST | None:
    """A nested def that `top` returns by name (a factory such as `make_step()`)."""
    for stmt in ast.walk(top):
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name):
            fn = facts.index.resolve_function(stmt.value)
            if fn is not None and fn is not top and not isinstance(fn, ast.Lambda):
                return fn
    return None


def entry_dict(cand: Candidate, inputs: list[tuple[str, str, str]]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "mode": cand.mode,
        "function": cand.qualname,
        "static": list(cand.static),
        "inputs": [list(t) for t in inputs],
        "via": cand.via,
        "note": cand.note,
    }
    if cand.node is not None:
        params = [a.arg for a in positional_params(cand.node)]
        self_given = bool(inputs) and params[:1] == [inputs[0][0]]
        if (
            cand.mode != "attr"
            and not isinstance(cand.node, ast.Lambda)
            and is_method(cand.node)
            and not self_given
        ):
            params = params[1:]
        entry["params"] = params
    return entry
