"""Parse once, compute shared facts once, run every selected rule in one traversal.

Also the fix loop (apply non-overlapping edits, re-parse, repeat to a fixed point). The engine
takes text and knows no file, format or notebook: reading and writing files is `jaxlint.files`.
"""

from __future__ import annotations

import ast
import bisect
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from itertools import compress, islice

from jaxlint import prefilter
from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.applied_modules import applies_transforms
from jaxlint.analysis.construction import local_construction_only
from jaxlint.analysis.imports import Scope, in_order
from jaxlint.analysis.project_data import StaticHelpers
from jaxlint.analysis.project_text import uses_transform
from jaxlint.analysis.seed_keys import CONSTRUCTION_ONLY, NO_ENTRIES, UNAPPLIED_MODULES
from jaxlint.analysis.syntax import node_fields
from jaxlint.core import codes as codes_table
from jaxlint.core import suppressions
from jaxlint.core.config import Settings
from jaxlint.core.diagnostic import (
    CONFIDENCE_RANK,
    Diagnostic,
    Position,
    internal_error,
    resolve_fixes,
)
from jaxlint.core.parse import parse, parses
from jaxlint.core.source import SourceText
from jaxlint.edits.survival import surviving
from jaxlint.options import FixResult, LintOptions
from jaxlint.rules import Context, Rule

FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_ATTRIBUTE = ast.Attribute
MAX_FIX_ROUNDS = 10
RECURSION_LIMIT = 12_000
if sys.getrecursionlimit() < RECURSION_LIMIT:
    # long generated expressions (`a + b + ...` thousands deep) parse fine with a higher
    # limit; Python-to-Python recursion in 3.11+ does not grow the C stack
    sys.setrecursionlimit(RECURSION_LIMIT)


def run_rules(
    tree: ast.Module,
    source: SourceText,
    path: str,
    rules: Iterable[type[Rule]],
    settings: Settings,
    verbose: bool = False,
    seeds: Mapping[str, object] | None = None,
    facts: ModuleFacts | None = None,
) -> list[Diagnostic]:
    """One traversal; each node goes to the rules that asked for its type."""
    rules = list(rules)
    if facts is None:
        facts = ModuleFacts(tree, settings.jit_decorators, seeds)
        facts.key_reuses = any(r.key_reuses for r in rules)
    options = dict(settings.options)
    options["target-jax"] = settings.jax_target()
    ctx = Context(path=path, source=source, facts=facts, options=options)
    sink: list[Diagnostic] = []
    instances: list[Rule] = [r(ctx, sink) for r in rules]
    walk = _Walk(ctx, instances, path, verbose)
    index = facts.index
    if index.tree is tree and type(tree) is ast.Module and walk.ordered():
        walk.run_ordered(index.order, instances)  # the module index's walk, replayed
    else:
        walk.run(tree, instances)
    for inst in instances:
        if inst.code not in walk.broken:
            try:
                inst.finish()
            except Exception as exc:
                walk.failures.append(
                    internal_error(path, f"internal error in rule {inst.code}: {exc}")
                )
    return sink + walk.failures


Handler = tuple[Rule, Callable[[ast.AST, Context], None]]


def _subclass_names(*bases: type) -> frozenset[str]:
    out: set[str] = set()
    todo = list(bases)
    while todo:
        cls = todo.pop()
        out.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return frozenset(out)


# the fields that hold only these classes in Python's grammar (`ctx`: expr_context; `op`:
# boolop, operator, unaryop; `ops`: a list of cmpop)
_OPERATOR_FIELDS = frozenset({"ctx", "op", "ops"})
_OPERATOR_NAMES = _subclass_names(
    ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop
)


# (node class, the fields the walk skips) -> (is a function, the fields walked, reversed): the
# part of `_Walk._info` that no rule changes, kept across modules (asked ~60 times a module)
_SHAPES: dict[tuple[type, frozenset[str]], tuple[bool, tuple[str, ...]]] = {}


class _ByKey(dict[str | None, list[Handler]]):
    """The visit handlers of an `Attribute` node by its `attr`, or of a `Call` by the
    qualified name of its callee (`ModuleIndex.qualname`, None when unknown), filled as the
    walk meets them: the handlers of the rules without a filter (`Rule.attribute_filter`,
    `Rule.callee_filter`; `plain`) and those whose filter names the key, in dispatch order."""

    def __init__(self, handlers: list[Handler], filters: dict[int, frozenset[str]]) -> None:
        super().__init__()
        self.handlers, self.filters = handlers, filters
        self.plain = [h for h in handlers if id(h[0]) not in filters]
        self.words: frozenset[str] = frozenset().union(
            *(filters[id(h[0])] for h in handlers if id(h[0]) in filters)
        )

    def add(self, key: str | None) -> list[Handler]:
        if key not in self.words:
            found = self.plain
        else:
            filters = self.filters
            found = [
                h for h in self.handlers if id(h[0]) not in filters or key in filters[id(h[0])]
            ]
        self[key] = found
        return found


_ClassInfo = tuple[list[Handler], list[Handler], bool, tuple[str, ...], _ByKey | None]


class _Wanted(dict[type, bool]):
    """node class -> whether `_Walk.run_ordered` hands its nodes to the loop: a `Scope`, or a
    class with visit handlers (filled as the walk meets them; a rule dropped later only
    leaves a class with none, which the loop passes over)."""

    def __init__(self, walk: _Walk) -> None:
        super().__init__()
        self.walk = walk
        self[Scope] = True

    def __missing__(self, cls: type) -> bool:
        # the dispatch table's list, not `_Walk._info` (the loop asks that of the classes it
        # gets: a module has ~60 classes of nodes, a few with handlers)
        self[cls] = want = bool(self.walk.dispatch.get(cls.__name__))
        return want


class _Walk:
    """The engine's traversal: preorder, children left to right (`ast.iter_child_nodes`
    order), each node to the rules' `visit_<Type>`, then after its subtree to their
    `leave_<Type>`. The per-node work is the hot loop of a cold run, so what depends only on
    a node's class (its handlers, whether it is a function, its fields) is looked up once per
    class, and a rule that raises is dropped from the tables instead of checked per call."""

    def __init__(self, ctx: Context, instances: list[Rule], path: str, verbose: bool) -> None:
        self.ctx, self.path, self.verbose = ctx, path, verbose
        self.dispatch: dict[str, list[Handler]] = {}
        for inst in instances:
            for node_type, method in type(inst).visitors().items():
                self.dispatch.setdefault(node_type, []).append((inst, getattr(inst, method)))
        self.broken: set[str] = set()
        self.failures: list[Diagnostic] = []
        # id(rule) -> the `attr`s of the `Attribute` nodes its `visit_Attribute` is called for
        # (`Rule.attribute_filter`; a rule without one gets every `Attribute`)
        self.attr_filters = self._filters("Attribute", "attribute_filter")
        # id(rule) -> the callees (qualified names) of the `Call`s its `visit_Call` is called
        # for (`Rule.callee_filter`)
        self.callee_filters = self._filters("Call", "callee_filter")
        # `ctx`, `op` and `ops` hold field-less singletons (Load, Add, Eq, ...), a quarter of
        # all nodes: not walked when no rule visits any of them (nothing would happen there)
        visited = {key.removeprefix("leave:") for key in self.dispatch}
        self.skipped = frozenset() if visited & _OPERATOR_NAMES else _OPERATOR_FIELDS
        # node class -> (visit handlers, leave handlers, is a function, fields reversed, the
        # visit handlers by `attr` (`Attribute` with filtered handlers; else None))
        self.per_class: dict[type, _ClassInfo] = {}
        # value class -> whether a value of it goes on the stack: a node with a handler, a
        # function (the enclosing-function state) or fields that may hold nodes; not a node
        # with nothing to do and nothing under it (most `Name`s and `Constant`s), nor a
        # value that is no node (`None` in `Dict.keys`; names and numbers before 3.13)
        self.needed: dict[type, bool] = {}

    def _filters(self, name: str, method: str) -> dict[int, frozenset[str]]:
        out: dict[int, frozenset[str]] = {}
        for inst, _ in self.dispatch.get(name, ()):
            try:
                words = getattr(inst, method)()
            except Exception:  # only a saving: every node
                words = None
            if words is not None:
                out[id(inst)] = words
        return out

    def _info(self, cls: type) -> _ClassInfo:
        name = cls.__name__
        shape = _SHAPES.get((cls, self.skipped))
        if shape is None:
            shape = _SHAPES[cls, self.skipped] = (
                issubclass(cls, FUNCTION_NODES),
                tuple(f for f in reversed(node_fields(cls)) if f not in self.skipped),
            )
        handlers = self.dispatch.get(name, [])
        by_attr: _ByKey | None = None
        filters = (
            self.attr_filters
            if cls is ast.Attribute
            else self.callee_filters
            if cls is ast.Call
            else None
        )
        if filters and any(id(h[0]) in filters for h in handlers):
            # the handlers without a filter serve every node; the others are merged in, in
            # the same order, for the keys their filters name (`_ByKey`)
            by_attr = _ByKey(handlers, filters)
            handlers = by_attr.plain
        info = (handlers, self.dispatch.get("leave:" + name, []), *shape, by_attr)
        self.per_class[cls] = info
        return info

    def _needed(self, cls: type) -> bool:
        if not issubclass(cls, ast.AST):
            self.needed[cls] = False
            return False
        handlers, leaves, is_function, fields, by_attr = self.per_class.get(cls) or self._info(cls)
        self.needed[cls] = want = bool(
            handlers or by_attr is not None or leaves or is_function or fields
        )
        return want

    def _push_children(self, node: ast.AST, fields: tuple[str, ...], push: Callable) -> None:
        """The children of `node` that need a visit, pushed last to first (the walk's inner
        loop, written out again in `run`)."""
        needed = self.needed
        for attr in fields:
            value = getattr(node, attr, None)
            if value is None:
                continue
            for child in reversed(value) if type(value) is list else (value,):
                want = needed.get(type(child))
                if want is None:
                    want = self._needed(type(child))
                if want:
                    push(child)

    def _prune(self, instances: list[Rule]) -> None:
        """Drop the visits the rules say they no longer need (`Rule.unneeded_visits`)."""
        drop = {}
        for inst in instances:
            if inst.code in self.broken:
                continue
            try:
                unneeded = inst.unneeded_visits()
            except Exception:  # only a saving: keep every visit
                continue
            if unneeded:
                drop[id(inst)] = unneeded
        if not drop:
            return
        self.dispatch = {
            key: [h for h in hs if key not in drop.get(id(h[0]), ())]
            for key, hs in self.dispatch.items()
        }
        self.per_class.clear()
        self.needed.clear()

    def run(self, tree: ast.AST, instances: list[Rule] | None = None) -> None:
        ctx, per_class, needed = self.ctx, self.per_class, self.needed
        stack: list = [tree]
        pop, push = stack.pop, stack.append
        if instances is not None and type(tree) is ast.Module and stack:
            # the module's own visits first (they read its imports), then the rest of the
            # walk with only the visits the rules still need
            node = pop()
            handlers, leaves, _, fields, _ = per_class.get(type(node)) or self._info(type(node))
            self._resume(handlers, None, node)  # every handler, once: not the hot loop
            self._prune(instances)
            per_class = self.per_class
            if leaves:
                push((node,))
            self._push_children(node, fields, push)
        while stack:
            node = pop()
            if type(node) is tuple:  # (node,): its subtree is done
                node = node[0]
                _, leaves, is_function, _, _ = per_class.get(type(node)) or self._info(type(node))
                for inst, method in leaves:
                    try:
                        method(node, ctx)
                    except Exception as exc:
                        self._failed(inst, node, exc)
                        break
                else:
                    method = None
                if method is not None:  # a rule raised: the handlers after it still run
                    self._resume(leaves, method, node)
                if is_function:
                    ctx.leave_function()
                continue
            handlers, leaves, is_function, fields, by_attr = per_class.get(
                type(node)
            ) or self._info(type(node))
            if by_attr is not None:  # the handlers for its `attr` or callee
                key = node.attr if type(node) is ast.Attribute else ctx.qualname(node.func)
                found = by_attr.get(key)
                handlers = by_attr.add(key) if found is None else found
            if is_function:
                ctx.enter_function(node)
            if handlers:  # most nodes have none
                for inst, method in handlers:
                    try:
                        method(node, ctx)
                    except Exception as exc:
                        self._failed(inst, node, exc)
                        break
                else:
                    method = None
                if method is not None:
                    self._resume(handlers, method, node)
            if leaves or is_function:
                push((node,))
            # the children, pushed last to first (ast.iter_child_nodes, inlined; `_needed`:
            # a child with nothing to do and nothing under it is not pushed)
            for attr in fields:
                value = getattr(node, attr, None)
                if value is None:
                    continue
                for child in reversed(value) if type(value) is list else (value,):
                    want = needed.get(type(child))
                    if want is None:
                        want = self._needed(type(child))
                    if want:
                        push(child)

    def ordered(self) -> bool:
        """Whether `run_ordered` makes the same visits as `run`: no rule leaves a node or
        visits a class the module index does not list (`in_order`: leaves, singletons)."""
        return all(not key.startswith("leave:") and in_order(key) for key in self.dispatch)

    def run_ordered(self, order: list, instances: list[Rule]) -> None:
        """`run`, from the module index's list of the nodes in this walk's order
        (`ModuleIndex.order`: each node of a scope after its `Scope`) instead of walking the
        tree: only the nodes with handlers reach the loop (`compress` picks them by class, in
        C), and a `Scope` sets the enclosing functions `enter_function` and
        `leave_function` would have."""
        ctx = self.ctx
        module = order[1]  # after the module's Scope
        handlers = (self.per_class.get(ast.Module) or self._info(ast.Module))[0]
        self._resume(handlers, None, module)  # every handler, once: not the hot loop
        self._prune(instances)
        per_class = self.per_class
        wanted = _Wanted(self)
        qualname = ctx.facts.index.qualname
        functions = ctx.functions
        rest = islice(order, 2, None)
        for node in compress(rest, map(wanted.__getitem__, map(type, islice(order, 2, None)))):
            cls = type(node)
            if cls is Scope:
                chain = []
                scope = node
                while scope is not None:
                    if scope.kind == "function":
                        chain.append(scope.node)
                    scope = scope.parent
                chain.reverse()
                functions[:] = chain
                ctx.function_node = chain[-1] if chain else None
                ctx._function_cached = False
                continue
            handlers, _, _, _, by_attr = per_class.get(cls) or self._info(cls)
            if by_attr is not None:  # the handlers for its `attr` or callee
                key = node.attr if cls is _ATTRIBUTE else qualname(node.func)
                found = by_attr.get(key)
                handlers = by_attr.add(key) if found is None else found
            for inst, method in handlers:
                try:
                    method(node, ctx)
                except Exception as exc:
                    self._failed(inst, node, exc)
                    break
            else:
                continue
            self._resume(handlers, method, node)  # a rule raised: the handlers after it
        functions.clear()
        ctx.function_node, ctx._function_cached = None, False

    def _failed(self, inst: Rule, node: ast.AST, exc: Exception) -> None:
        """`inst` raised on `node`: report it and drop the rule for the rest of the module."""
        self.broken.add(inst.code)
        if isinstance(exc, RecursionError):
            self.failures.append(
                internal_error(
                    self.path, f"rule {inst.code} skipped this file: the code is nested too deeply"
                )
            )
        else:  # one rule's bug must not hide the others' findings
            detail = f"{type(exc).__name__}: {exc}"
            msg = (
                f"internal error in rule {inst.code} ({inst.name}): {detail}; "
                "please report this bug at https://github.com/jaxlint-sharp/jaxlint/issues"
            )
            notes = (traceback.format_exc(),) if self.verbose else ()
            line = getattr(node, "lineno", 1)
            self.failures.append(replace(internal_error(self.path, msg, line), notes=notes))
        broken = self.broken
        self.dispatch = {
            key: [h for h in hs if h[0].code not in broken] for key, hs in self.dispatch.items()
        }
        self.per_class.clear()
        self.needed.clear()

    def _resume(self, handlers: list[Handler], failed: object, node: ast.AST) -> None:
        """Run the handlers after `failed` (which raised) on `node`, skipping broken rules
        (all of them when `failed` is None)."""
        start = (
            0 if failed is None else next(i for i, h in enumerate(handlers) if h[1] is failed) + 1
        )
        for inst, method in handlers[start:]:
            if inst.code in self.broken:
                continue
            try:
                method(node, self.ctx)
            except Exception as exc:
                self._failed(inst, node, exc)


def _applies_transforms(text: str, facts: ModuleFacts, options: LintOptions) -> bool:
    """A notebook is imported by nothing, so the Modules it defines are applied under a
    transform only if its own code applies one (analysis/applied_modules.py; the project index
    decides it for `.py` modules, which it summarises). The text test first: most notebooks
    that name no transform word need no index."""
    return uses_transform(text, options.settings.jit_decorators) and applies_transforms(facts)


def _unapplied(seeds: Mapping[str, object] | None) -> Mapping[str, object]:
    """`seeds` with the UNAPPLIED_MODULES entry for every Module class of the module."""
    return {**(seeds or {}), UNAPPLIED_MODULES: StaticHelpers(("*",))}


def _notebook_seeds(
    text: str, facts: ModuleFacts, options: LintOptions, seeds: Mapping[str, object] | None
) -> Mapping[str, object] | None:
    """A notebook's own seeds, since no module imports it and the project index does not
    summarise it: whether its Modules are applied (`_applies_transforms`), and which public
    methods of its classes run only while an object is built (analysis/construction.py)."""
    if not _applies_transforms(text, facts, options):
        seeds = _unapplied(seeds)
    if facts.index.classes and "jit" in text:
        local = local_construction_only(facts.index)
        if local is not None:
            seeds = {**(seeds or {}), CONSTRUCTION_ONLY: local}
    return seeds


# Per thread, `after_parse` is called with each parsed tree before anything links it
# (`ModuleIndex`): set by `run.parallel.lint_task` for the duration of one file, to move the
# tree out of the collector's young generation (see there)
PARSE_HOOKS = threading.local()


def lint_text(
    text: str | SourceText,
    path: str = "<stdin>",
    options: LintOptions | None = None,
    facts_out: list[ModuleFacts] | None = None,
) -> list[Diagnostic]:
    """Lint one module's text. Never raises for bad input: problems become JAX000.

    `facts_out` receives the module's facts (the project index summarises the module from
    the same analysis, so a cold run analyses each file once).
    """
    options = options or LintOptions()
    source = text if isinstance(text, SourceText) else SourceText(text)
    parsed = parse(source, path)
    if parsed.tree is None:
        return [parsed.error] if parsed.error else []
    hook = getattr(PARSE_HOOKS, "after_parse", None)
    if hook is not None:
        hook(parsed.tree)
    seeds = options.seeds
    facts = None
    if facts_out is not None or path.endswith(".ipynb"):
        facts = ModuleFacts(parsed.tree, options.settings.jit_decorators, seeds)
        if path.endswith(".ipynb"):
            facts.seeds = seeds = _notebook_seeds(source.text, facts, options, seeds)
        if facts_out is not None:
            facts_out.append(facts)
    rules = options.selected()
    ignored = options.settings.ignored_for(path)
    if ignored:
        rules = [r for r in rules if not any(r.code.startswith(c) for c in ignored)]
    # JAX001 (unused suppressions) is judged after suppression, from what the others found
    active = [r.code for r in rules]
    check_unused = options.apply_noqa and suppressions.UNUSED_CODE in active
    rules = [r for r in rules if r.code != suppressions.UNUSED_CODE]
    if not seeds or set(seeds) <= NO_ENTRIES:
        # seeds from other modules make a file traced without JAX words (not the entry of
        # helpers that return Python values: it only removes taint)
        gated = source.text if options.prefilter_text is None else options.prefilter_text
        rules = prefilter.applicable(gated, rules, options.settings)  # text-only gate
    if facts is not None:  # the summary reads the key flow's returned keys only
        facts.key_reuses = any(r.key_reuses for r in rules)
    if not rules and not check_unused:
        return []  # no selected rule can fire here: parsed (syntax errors count), not analysed
    diags: list[Diagnostic] = []
    if rules:
        try:
            diags = run_rules(
                parsed.tree,
                source,
                path,
                rules,
                options.settings,
                options.verbose,
                seeds,
                facts,
            )
        except RecursionError:
            return [internal_error(path, "could not analyse: the code is nested too deeply")]
    if options.apply_noqa and (diags or check_unused):
        lines = suppressions.split_lines(source.text)
        sup = suppressions.collect(lines, parsed.tree, source.text, exact=check_unused)
        diags = suppressions.apply(diags, sup, noqa=options.noqa)
        if check_unused:
            found = suppressions.unused(sup, lines, path, active)
            diags.extend(d for d in found if not sup.suppresses(d, options.noqa))
    least = CONFIDENCE_RANK.get(str(options.settings.option("min-confidence", "medium")), 1)
    if least > 1:
        diags = [
            d
            for d in diags
            if d.code in ("JAX000", "JAX001") or CONFIDENCE_RANK.get(d.confidence, 2) >= least
        ]
    if options.codes is None and not options.settings.preview and codes_table.PREVIEW:
        # a confidence level in preview (`("JAX101", "medium")`): those findings need --preview
        diags = [d for d in diags if not codes_table.is_preview_finding(d.code, d.confidence)]
    diags.sort(key=Diagnostic.sort_key)
    diags = _dedupe(diags)
    return diags if options.lazy_fixes else resolve_fixes(diags)


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.code, d.span, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


# -- fixes ----------------------------------------------------------------------------------


def _applicable(d: Diagnostic, unsafe: bool) -> bool:
    return d.fix is not None and d.fix.applies(unsafe)  # display-only: never


def _clash(x: tuple[Position, Position], y: tuple[Position, Position]) -> bool:
    (a, b), (c, d) = x, y
    if a == b == c == d:  # two insertions at one point: order would be arbitrary
        return True
    return a < d and c < b


def _non_overlapping(fixes: list[Diagnostic]) -> list[Diagnostic]:
    """Fixes whose edits touch disjoint text; the rest wait for the next round.

    The spans taken are kept sorted; pairwise they do not clash, so their ends rise with their
    starts, and a new span clashes with one of them only if it does with the last one that
    starts before its end (or, an insertion, with the same insertion): a bisection per edit,
    not a scan of every span taken (the scan made a round of 500 fixes quadratic,
    benchmarks/fix_scaling.py). A fix whose own edits clash breaks that order: from then on
    the scan decides, as it always did."""
    chosen: list[Diagnostic] = []
    taken: list[tuple[Position, Position]] = []
    ordered = True
    for d in sorted(fixes, key=lambda d: d.fix.span):  # type: ignore[union-attr]
        spans = [(e.start, e.end) for e in d.fix.edits]  # type: ignore[union-attr]
        if ordered:
            if any(_clash_sorted(x, taken) for x in spans):
                continue
            if any(_clash(x, y) for i, x in enumerate(spans) for y in spans[i + 1 :]):
                ordered = False
        elif any(_clash(x, y) for x in spans for y in taken):
            continue
        chosen.append(d)
        for x in spans:
            bisect.insort(taken, x)
    return chosen


def _clash_sorted(x: tuple[Position, Position], taken: list[tuple[Position, Position]]) -> bool:
    """`_clash(x, y)` for some `y` in `taken`, sorted and pairwise clash-free."""
    a, b = x
    j = bisect.bisect_left(taken, (b, b))  # the spans before `j` start before `b`
    if j and a < taken[j - 1][1]:
        return True
    return a == b and j < len(taken) and taken[j] == (a, a)


def fix_text(
    text: str | SourceText,
    path: str = "<stdin>",
    options: LintOptions | None = None,
    unsafe: bool = False,
) -> FixResult:
    """Apply fixes to a fixed point (at most 10 rounds); never produce unparsable text."""
    options = options or LintOptions()
    source = text if isinstance(text, SourceText) else SourceText(text)
    current = source
    fixed: list[Diagnostic] = []
    failed: list[Diagnostic] = []
    bad_keys: set[tuple] = set()
    # the rounds decide only the fixes they may apply (an unsafe fix without `unsafe` is
    # never checked); the last lint decides the rest, for the counts
    rounds = replace(options, lazy_fixes=True)
    diags: list[Diagnostic] | None = None  # the findings on `current`, when known
    for _ in range(MAX_FIX_ROUNDS):
        diags = lint_text(current, path, rounds) if diags is None else diags
        candidates = [
            d
            for d in diags
            if _applicable(d, unsafe)
            and d.fix.available  # type: ignore[union-attr]
            and (d.code, d.message, d.fix) not in bad_keys
        ]
        if not candidates:
            break
        chosen = _non_overlapping(candidates)
        new_text = current.apply([e for d in chosen for e in d.fix.edits])  # type: ignore[union-attr]
        if not parses(new_text):
            # find the culprits one by one; keep the good ones
            good = []
            for d in chosen:
                trial = current.apply(list(d.fix.edits))  # type: ignore[union-attr]
                if parses(trial):
                    good.append(d)
                else:
                    bad_keys.add((d.code, d.message, d.fix))
                    failed.append(d)
            if not good:
                continue
            chosen = good
            new_text = current.apply([e for d in chosen for e in d.fix.edits])  # type: ignore[union-attr]
            if not parses(new_text):
                break
        if new_text == current.text:
            break
        after = replace(source, text=new_text, _line_starts=None)
        diags = lint_text(after, path, rounds)
        stuck = surviving(chosen, current, after, diags)
        if stuck:  # a fix that leaves its own finding: refuse it, redo the round without it
            bad_keys |= {(d.code, d.message, d.fix) for d in stuck}
            diags = None
            continue
        fixed.extend(chosen)
        current = after
    remaining = lint_text(current, path, options)
    return FixResult(current.text, fixed, remaining, failed)
