"""The editor's lint of an edited module: the same findings as `engine.lint_text`, from the
parts of the module that an edit can have changed.

Why: a keystroke in a 3,000-line module re-ran the whole lint (~260 ms, half of it the key
analysis of every function), so the editor's diagnostics came 400 ms after the change (issue 26
asks for 100 ms). Most edits touch one function, and most of the module's findings cannot
depend on that function.

How: the module is cut into its top-level statements and those are grouped into *components*:
two statements are in one component when one *defines* an identifier that the other mentions
(a def or class name, a module-level name, a method, class attribute or stored attribute, a
`global`; mentions count names, attributes, parameters, keywords and identifier-like strings).
Each component is linted on its own as a *masked module*: the module's text with the lines of
every statement of other components left empty, so every line and column is where it is in
the module. A component's findings are those on its own statements' lines. What every
component must see is in every masked module: the import statements and the module docstring
(the *header*), comment-only lines, and the *context*: the statements that are neither a
definition nor an assignment (module-level calls, `if __name__ == "__main__":`, `try`
blocks...) and any statement that may change the whole process or be read by name from a
string (`jax.config.update`, `os.environ`, x64 words, `globals()`, `setattr`, `__all__`...);
the context and the statements it mentions are one component, which also owns the findings on
the header and comment lines. Each component's findings are kept by its masked module's exact
text, so an edit re-lints only the components whose text changed (a component below an edit
that adds or removes lines moves, and is linted again). When those hold more than half of the
module (the first version; lines added near the top), the whole module is linted instead and
its findings are kept as each component's (`WHOLE_SHARE`).

When this cannot be shown to give the module's findings, the whole module is linted
(`engine.lint_text`): a syntax error, two statements on one line, `\\r` line ends, a
`# jaxlint:` or `# flake8:` directive (their reach is the file or a region, and JAX001 judges
them from every finding), a rule that decides at the end of the module (`Rule.finish`, like
JAX701's one finding per module with a count) that would run on this text, non-lazy fixes (a
fix built on a masked module may differ: the editor builds fixes from a whole-module lint), a
module of fewer than three definitions, or any JAX000 from a masked module (a rule that
failed would be dropped for the rest of the whole module).

What this rests on (an invariant, checked by tests, not a proof): the analyses reach another
top-level statement only through an identifier it defines (scope-aware bindings, calls,
`self.x`, `Config.lr` through the class `Config`), or through the whole-module effects that the
context keeps in every masked module. An analysis that reads the module otherwise (a count over
the whole module, attributes looked up by name alone across classes) breaks it: a rule that
decides in `finish` is found by `module_wide_rules`; anything else is what
`tests/test_incremental.py` looks for, editing realistic modules at random and comparing every
version's findings with `engine.lint_text`'s.

Fixes of the findings returned are built on their component's masked module: fine to show,
not to apply (the editor's code actions lint the whole module for them).
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, replace

from jaxlint import prefilter
from jaxlint.analysis.cells import has_cell_markers
from jaxlint.analysis.jax_api import CLOCKS
from jaxlint.analysis.seed_keys import NO_ENTRIES
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.core.source import SourceText
from jaxlint.engine import LintOptions, lint_text
from jaxlint.rules import ALL_RULES, Rule

__all__ = ["IncrementalLinter", "MIN_UNITS", "module_wide_rules"]

# fewer definitions than this: the whole module is cheap enough to lint at once
MIN_UNITS = 3
# when the parts to lint again hold more than this share of the definitions' lines (the first
# version, an edit that moved most of the module), the whole module is linted instead and its
# findings kept by part: each masked module costs a fixed part (its parse of the whole
# module's lines, facts, rule objects), so all parts cost ~1.4 whole lints
WHOLE_SHARE = 0.5
# a directive whose reach is more than its own line
_DIRECTIVE = re.compile(r"#\s*(?:jaxlint|flake8)\s*:", re.IGNORECASE)
# words of a statement that may act on the whole module or process, or reach a definition by
# a string: such a statement is context (in every masked module); generous on purpose
_GLOBAL = re.compile(
    r"x64|X64|config|environ|absl|FLAGS|flags|disable_jit|default_|promotion|transfer_guard"
    r"|debug_|check_tracer|log_compiles|compilation_cache|globals|locals|setattr|delattr"
    r"|getattr|hasattr|__dict__|\bvars\b|\bexec\b|\beval\b|import_module|__import__|builtins"
    r"|sys\.modules|__name__|__main__|TYPE_CHECKING|__all__|__getattr__|__path__|__file__"
)
# a clock read (the timing rules' regions: `jax_api.CLOCKS`, `timeit`), by the last word of
# its name: `time.time()`, `perf_counter()`, `from time import time` then `time()`
_CLOCK_WORDS = sorted({q.rsplit(".", 1)[1] for q in CLOCKS} | {"timeit"})
_CLOCK = re.compile(r"\b(?:" + "|".join(_CLOCK_WORDS) + r")\b")
_UNITS: tuple[type, ...] = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign)
_UNITS += (ast.AnnAssign, ast.AugAssign) + ((ast.TypeAlias,) if hasattr(ast, "TypeAlias") else ())
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_IDENT = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_MAX_STRING = 200
_MAX_KEPT = 1000  # masked modules kept across fallbacks


def module_wide_rules() -> frozenset[str]:
    """The codes of the rules that decide at the end of the module (`Rule.finish`), whose
    findings a masked module may not give: one finding per module with a count of the others.
    A rename rule's `finish` reports each deprecated import with a message of its own (only the
    fix, not built here, counts the uses), so those are not."""
    from jaxlint.rules._rename import RenameRule

    return frozenset(
        r.code for r in ALL_RULES if r.finish is not Rule.finish and not issubclass(r, RenameRule)
    )


@dataclass(frozen=True)
class _Names:
    """What one top-level statement defines and mentions (see the module docstring)."""

    defines: frozenset[str]  # bare names bound at module level (or `global`)
    attrs: frozenset[str]  # names read as attributes: class attributes, methods, stores
    uses: frozenset[str]
    # root names of attributes and items it stores to (`jnp.x = ...`, `CACHE[k] = ...`): a
    # store to an imported object defines its name
    store_roots: frozenset[str]
    # `(base, attr)` of each `base.attr`: `Config.lr` is read through `Config` (a use of it)
    # when `Config` is a class or def of the module and nothing else, not a mention of every
    # `lr` of the module; otherwise `attr` is a use too
    name_attrs: frozenset[tuple[str, str]]
    context: bool  # it may act on the whole module (`_GLOBAL`)
    clock: bool  # it reads a clock (`_CLOCK`): a bound of a module-level timed region


@dataclass
class _Stmt:
    first: int  # first line, 1-based, decorators included
    last: int
    kind: str  # "header" | "context" | "unit"
    names: _Names | None = None  # not for the header
    bound: frozenset[str] = frozenset()  # the header's: the names its imports bind
    def_name: str | None = None  # a def or class: its name


_MODULE, _CLASS, _FUNCTION = 0, 1, 2  # the scope a node is in


def _names_of(stmt: ast.stmt, text: str) -> _Names:
    defines: set[str] = set()  # module scope: bare names
    attrs: set[str] = set()  # class bodies and attribute stores: attribute names
    uses: set[str] = set()
    roots: set[str] = set()
    name_attrs: set[tuple[str, str]] = set()

    def bind(name: str, scope: int) -> None:
        if scope == _MODULE:
            defines.add(name)
            uses.add(name)  # another binding of the name is linked with this one
        elif scope == _CLASS:
            attrs.add(name)  # read as an attribute: not a mention of other classes' names
        else:
            uses.add(name)  # a local

    stack: list[tuple[ast.AST, int]] = [(stmt, _MODULE)]
    while stack:
        node, scope = stack.pop()
        t = type(node)
        if t is ast.Name:
            if isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
                uses.add(node.id)  # type: ignore[attr-defined]
            else:
                bind(node.id, scope)  # type: ignore[attr-defined]
            continue
        if t is ast.Attribute or t is ast.Subscript:
            store = not isinstance(node.ctx, ast.Load)  # type: ignore[attr-defined]
            if t is ast.Attribute:
                if store:
                    attrs.add(node.attr)  # type: ignore[attr-defined]
                elif type(node.value) is ast.Name:  # type: ignore[attr-defined]
                    name_attrs.add((node.value.id, node.attr))  # type: ignore[attr-defined]
                else:
                    uses.add(node.attr)  # type: ignore[attr-defined]
            if store:
                root = node.value  # type: ignore[attr-defined]
                while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                    root = root.func if isinstance(root, ast.Call) else root.value
                if isinstance(root, ast.Name):
                    roots.add(root.id)
        elif t in _DEFS:
            bind(node.name, scope)  # type: ignore[attr-defined]
            inner = _CLASS if t is ast.ClassDef else _FUNCTION
            body = node.body  # type: ignore[attr-defined]
            # decorators, defaults, annotations and bases are read where the def is
            for child in ast.iter_child_nodes(node):
                stack.append((child, inner if child in body else scope))
            continue
        elif t in _SCOPES:
            for child in ast.iter_child_nodes(node):
                stack.append((child, _FUNCTION))
            continue
        elif t is ast.Global or t is ast.Nonlocal:
            for name in node.names:  # type: ignore[attr-defined]
                bind(name, _MODULE)
        elif t is ast.arg:
            uses.add(node.arg)  # type: ignore[attr-defined]
        elif t is ast.keyword:
            if node.arg:  # type: ignore[attr-defined]
                uses.add(node.arg)  # type: ignore[attr-defined]
        elif t is ast.alias:
            parts = node.name.split(".")  # type: ignore[attr-defined]
            uses.update(parts)
            bind(node.asname or parts[0], scope)  # type: ignore[attr-defined]
        elif t is ast.Constant:
            value = node.value  # type: ignore[attr-defined]
            if type(value) is str and len(value) <= _MAX_STRING:
                for word in _IDENT.findall(value):
                    uses.update(word.split("."))
            continue
        elif t is ast.MatchAs or t is ast.MatchStar:
            if node.name:  # type: ignore[attr-defined]
                bind(node.name, scope)  # type: ignore[attr-defined]
        elif t is ast.ImportFrom and node.module:  # type: ignore[attr-defined]
            uses.update(node.module.split("."))  # type: ignore[attr-defined]
        for child in ast.iter_child_nodes(node):
            stack.append((child, scope))
    context = _GLOBAL.search(text) is not None
    return _Names(
        frozenset(defines),
        frozenset(attrs),
        frozenset(uses),
        frozenset(roots),
        frozenset(name_attrs),
        context,
        _CLOCK.search(text) is not None,
    )


def _timed_at_module_level(stmts: list[_Stmt]) -> list[_Stmt]:
    """Module-level code between two statements that read a clock is one timed region of the
    timing rules (JAX601, JAX602): its statements reach each other by program order, not by a
    name they share (`t0 = time.time()`, `out = step(x)`, `dt = time.time() - t0` with no name
    linking `out` to the clock reads). They become context, in every masked module, so each
    masked module holds the whole region as the module does (tests/test_incremental.py,
    `fp20_jax601_input_of_blocked_result.py` with its result renamed: the region's dispatch and
    its clock reads fell into different parts, and the finding was lost)."""
    clocked = [
        i
        for i, st in enumerate(stmts)
        if st.names is not None and st.names.clock and st.def_name is None
    ]
    if len(clocked) < 2:
        return stmts
    return [
        replace(st, kind="context")
        if clocked[0] <= i <= clocked[-1] and st.kind == "unit" and st.def_name is None
        else st
        for i, st in enumerate(stmts)
    ]


def _bound_by(node: ast.stmt) -> frozenset[str]:
    if not isinstance(node, (ast.Import, ast.ImportFrom)):
        return frozenset()
    return frozenset(a.asname or a.name.split(".")[0] for a in node.names)


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


class _Fallback(Exception):
    """The whole module is linted instead (see the module docstring)."""


@dataclass
class _Parts:
    """A version's parts: each line's part, and each part's key (the text of its masked
    module: the text every masked module shares, and its units' first lines and texts) and
    units (their numbers among the module's units)."""

    owner: list[int]
    keys: dict[int, tuple]
    units: dict[int, list[int]]


class _Whole(Exception):
    """Most parts are to be linted again: the whole module is linted, and its findings are
    kept by part (`WHOLE_SHARE`)."""

    def __init__(self, parts: _Parts) -> None:
        super().__init__("most parts changed")
        self.parts = parts


class IncrementalLinter:
    """One document's incremental lint: call `lint` with each new version of its text. Keeps
    the findings of the masked modules of the last two versions."""

    def __init__(self, whole_share: float = WHOLE_SHARE) -> None:
        self.whole_share = whole_share  # `WHOLE_SHARE` (tests raise it to 1: always by parts)
        self._options_key: tuple | None = None
        # the last version's lines and top-level statements
        self._segmented: tuple[list[str], list[_Stmt]] | None = None
        self._names: dict[str, _Names] = {}  # statement text -> its names
        # a masked module's findings on its own part's lines, by (the text shared by every
        # masked module, its units' (first line, text)): that stands for its text
        self._results: dict[tuple, list[Diagnostic]] = {}
        self._previous: dict[tuple, list[Diagnostic]] = {}
        self._previous_names: dict[str, _Names] = {}
        self.last_incremental = False  # whether the last `lint` went by components
        self.last_linted = 0  # masked modules linted by the last `lint` (not from the cache)
        self.last_reason = ""  # why the last `lint` linted the whole module

    def lint(
        self,
        text: str | SourceText,
        path: str = "<stdin>",
        options: LintOptions | None = None,
        facts_out: list | None = None,
    ) -> list[Diagnostic]:
        """`engine.lint_text(text, path, options)`'s findings. `facts_out` receives the
        module's facts when the whole module was linted (`last_incremental` False)."""
        options = options or LintOptions()
        source = text if isinstance(text, SourceText) else SourceText(text)
        self._forget_if_changed(path, options)
        self.last_incremental, self.last_linted, self.last_reason = False, 0, ""
        parts: _Parts | None = None
        try:
            found = self._lint(source.text, path, options)
        except _Fallback as exc:
            found, self.last_reason = None, str(exc)
        except _Whole as whole:
            found, self.last_reason, parts = None, "most parts changed", whole.parts
        if found is None:
            self.last_linted += 1
            found = lint_text(source, path, options, facts_out)
            if parts is not None and not any(d.code == "JAX000" for d in found):
                self._keep_by_part(found, parts)
        else:
            self.last_incremental = True
        if self.last_incremental or parts is not None:  # kept for the next version
            self._previous, self._previous_names = self._results, self._names
        elif len(self._previous) < _MAX_KEPT:  # a fallback (a syntax error while typing)
            self._previous.update(self._results)  # keeps what the last version used
            self._previous_names.update(self._names)
        self._results, self._names = {}, {}
        return found

    def _forget_if_changed(self, path: str, options: LintOptions) -> None:
        key = (path, options)
        if self._options_key != key:
            self._options_key = key
            self._results, self._previous = {}, {}

    def _keep_by_part(self, found: list[Diagnostic], parts: _Parts) -> None:
        """The whole module's findings kept as each part's: cutting rests on their being what
        the part's masked module gives on its own lines."""
        owned: dict[int, list[Diagnostic]] = {g: [] for g in parts.keys}
        for d in found:
            owned[parts.owner[d.span.start.line]].append(d)
        for g, key in parts.keys.items():
            self._results[key] = owned[g]

    # -- the cut ---------------------------------------------------------------------------

    def _lint(self, text: str, path: str, options: LintOptions) -> list[Diagnostic]:
        if not options.lazy_fixes:
            raise _Fallback("fixes wanted")
        if "\r" in text or _DIRECTIVE.search(text):
            raise _Fallback("\\r or a directive")
        # the rules the whole module passes the prefilter with: each part is linted by them
        # (a part alone may lack the words that let a rule run: JAX201 on `updater.init(rng,
        # x)` when only another function draws with `jax.random`)
        passing = prefilter.applicable(text, options.selected(), options.settings)
        self._check_rules(passing, path, options)
        lines = text.split("\n")
        stmts = _timed_at_module_level(self._statements(text, lines))
        units = [s for s in stmts if s.kind == "unit"]
        if len(units) < MIN_UNITS:
            raise _Fallback("few definitions")
        groups, context_group = self._components(stmts, has_cell_markers(text))
        # the text every masked module shares (each unit's lines empty) as pieces: even
        # pieces are that text between units, odd ones a unit's (empty) lines
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line) + 1)
        pieces: list[str] = []
        spans: list[str] = []  # each unit's own text (with its line ends)
        at = 0
        for s in units:
            start, end = offsets[s.first - 1], offsets[s.last]
            pieces.append(text[at:start])
            spans.append(text[start:end])
            pieces.append("\n" * spans[-1].count("\n"))
            at = end
        pieces.append(text[at:])
        base = "".join(pieces)
        position = {id(s): i for i, s in enumerate(units)}
        # each line's owner: its unit's component; context, header and other lines: the
        # context's component (a masked module of the header alone when there is no context)
        parts = _Parts([context_group] * (len(lines) + 2), {}, {})
        for g, members in groups.items():
            if g != context_group:
                for s in members:
                    parts.owner[s.first : s.last + 1] = [g] * (s.last - s.first + 1)
        for g, members in list(groups.items()) + [(context_group, [])]:
            if g in parts.keys:
                continue  # the context's component
            mine = [position[id(s)] for s in members if s.kind == "unit"]
            parts.keys[g] = (base, tuple((units[i].first, spans[i]) for i in mine))
            parts.units[g] = mine
        # those rules are part of each part's key, as an edit elsewhere may change them
        masked_options = replace(options, prefilter_text=text)
        gate = tuple(r.code for r in passing)
        parts.keys = {g: (*key, gate) for g, key in parts.keys.items()}
        missed = [g for g, key in parts.keys.items() if self._cached(key) is None]
        size = sum(s.last - s.first + 1 for s in units)
        again = sum(units[i].last - units[i].first + 1 for g in missed for i in parts.units[g])
        if again > self.whole_share * size:
            raise _Whole(parts)
        out: list[Diagnostic] = []
        for g, key in parts.keys.items():
            found = self._cached(key)
            if found is None:
                found = self._lint_masked(g, parts, pieces, spans, path, masked_options)
            self._results[key] = found
            out.extend(found)
        out.sort(key=Diagnostic.sort_key)
        return out

    def _cached(self, key: tuple) -> list[Diagnostic] | None:
        found = self._results.get(key)
        return self._previous.get(key) if found is None else found

    def _check_rules(self, passing: list, path: str, options: LintOptions) -> None:
        """A rule that decides at the end of the module would run: lint it whole. `passing`:
        the selected rules the module's text passes the prefilter with (the engine skips
        the prefilter for a module that other modules' seeds make traced)."""
        gated = not options.seeds or set(options.seeds) <= NO_ENTRIES
        rules = passing if gated else options.selected()
        ignored = options.settings.ignored_for(path)
        if ignored:
            rules = [r for r in rules if not any(r.code.startswith(c) for c in ignored)]
        wide = module_wide_rules()
        rules = [r for r in rules if r.code in wide]
        if rules:
            raise _Fallback(f"{rules[0].code} decides at the end of the module")

    def _statements(self, text: str, lines: list[str]) -> list[_Stmt]:
        """The top-level statements: those of the last version outside the edited lines, and
        the edited lines parsed again (`_reparsed`); the whole text when that cannot be."""
        stmts = self._reparsed(lines) if self._segmented is not None else None
        if stmts is None:
            stmts = self._parsed(text, lines, 0, 0)
        self._segmented = (lines, stmts)
        return stmts

    def _parsed(self, text: str, lines: list[str], shift: int, index: int) -> list[_Stmt]:
        """The statements of `text`, which starts at line `shift + 1` of the module (`lines`)
        and with its statement number `index`."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text, type_comments=False)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise _Fallback("syntax error") from None
        stmts: list[_Stmt] = []
        last = 0
        for i, node in enumerate(tree.body, index):
            decorators = getattr(node, "decorator_list", ())
            first = min([node.lineno] + [d.lineno for d in decorators]) + shift
            end = (node.end_lineno or node.lineno) + shift
            if first <= last or node.col_offset != 0:
                raise _Fallback("two statements on one line")
            last = end
            if isinstance(node, (ast.Import, ast.ImportFrom)) or (i == 0 and _is_docstring(node)):
                stmts.append(_Stmt(first, end, "header", bound=_bound_by(node)))
                continue
            names = self._names_for(node, "\n".join(lines[first - 1 : end]))
            kind = "unit" if isinstance(node, _UNITS) and not names.context else "context"
            def_name = node.name if isinstance(node, _DEFS) else None
            stmts.append(_Stmt(first, end, kind, names, def_name=def_name))
        return stmts

    def _reparsed(self, lines: list[str]) -> list[_Stmt] | None:
        """The statements of the new version from the last one's: the lines before and after
        the edit are the same, so the statements wholly there are (the later ones moved by
        the lines added); from the last statement that starts before the edit to the first
        that starts after it, the text is parsed again. Such a piece starts where a statement
        started and ends before one starts, so when it parses alone it parses the same in the
        module (no `from __future__` in it: that must come first)."""
        old_lines, old = self._segmented  # type: ignore[misc]
        n_old, n_new = len(old_lines), len(lines)
        a = 0
        limit = min(n_old, n_new)
        while a < limit and old_lines[a] == lines[a]:
            a += 1
        if a == n_old == n_new:
            return old
        b = 0  # common suffix, not overlapping the prefix
        while b < limit - a and old_lines[n_old - 1 - b] == lines[n_new - 1 - b]:
            b += 1
        # old lines a+1 .. n_old-b changed (1-based); the statements around them are parsed
        before = [i for i, st in enumerate(old) if st.first <= a + 1]
        after = [i for i, st in enumerate(old) if st.first > n_old - b]
        i0 = before[-1] if before else 0
        j1 = after[0] if after else len(old)
        start = old[i0].first if before else 1  # 1-based, the same in both versions
        delta = n_new - n_old
        stop = (old[j1].first - 1 if j1 < len(old) else n_old) + delta  # last line, new
        piece = "\n".join(lines[start - 1 : stop])
        if "__future__" in piece or stop < start - 1:
            return None
        try:
            middle = self._parsed(piece, lines, start - 1, i0)
        except _Fallback:
            return None
        moved = [replace(st, first=st.first + delta, last=st.last + delta) for st in old[j1:]]
        return old[:i0] + middle + moved

    def _names_for(self, node: ast.stmt, segment: str) -> _Names:
        names = self._names.get(segment) or self._previous_names.get(segment)
        if names is None:
            names = _names_of(node, segment)
        self._names[segment] = names
        return names

    def _components(
        self, stmts: list[_Stmt], cells: bool = False
    ) -> tuple[dict[int, list[_Stmt]], int]:
        """Union-find over the non-header statements: {root: members}, and the root of the
        context's component (-1 when there is no context). `cells`: a percent-format script
        (`# %%`), where a top-level expression is displayed when no statement of its cell
        follows it (analysis/cells.py), so each context statement goes with the next one."""
        linked = [s for s in stmts if s.kind != "header"]
        parent = list(range(len(linked)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        def union(i: int, j: int) -> None:
            a, b = find(i), find(j)
            if a != b:
                parent[max(a, b)] = min(a, b)

        imported = set().union(*(s.bound for s in stmts if s.kind == "header"))
        definers: dict[str, list[int]] = {}
        module_definers: dict[str, int] = {}
        for i, s in enumerate(linked):
            names = s.names
            assert names is not None
            for name in names.defines | (names.store_roots & imported):
                definers.setdefault(name, []).append(i)
                module_definers[name] = module_definers.get(name, 0) + 1
            for name in names.attrs:
                definers.setdefault(name, []).append(i)
        # the names only a top-level def or class binds
        through = {
            s.def_name
            for s in linked
            if s.def_name and module_definers.get(s.def_name) == 1 and s.def_name not in imported
        }
        for i, s in enumerate(linked):
            names = s.names
            assert names is not None
            uses = set(names.uses)
            uses.update(attr for base, attr in names.name_attrs if base not in through)
            for name in uses:
                for j in definers.get(name, ()):
                    union(i, j)
        contexts = [i for i, s in enumerate(linked) if s.kind == "context"]
        for i in contexts[1:]:
            union(contexts[0], i)
        if cells:
            for i in contexts:
                if i + 1 < len(linked):
                    union(i, i + 1)
        groups: dict[int, list[_Stmt]] = {}
        for i, s in enumerate(linked):
            groups.setdefault(find(i), []).append(s)
        return groups, (find(contexts[0]) if contexts else -1)

    # -- masked modules ------------------------------------------------------------------------

    def _lint_masked(
        self,
        g: int,
        parts: _Parts,
        pieces: list[str],
        spans: list[str],
        path: str,
        options: LintOptions,
    ) -> list[Diagnostic]:
        """The findings of part `g`'s masked module on its own lines."""
        masked = list(pieces)
        for i in parts.units[g]:
            masked[2 * i + 1] = spans[i]
        found = lint_text("".join(masked), path, options)
        self.last_linted += 1
        if any(d.code == "JAX000" for d in found):
            raise _Fallback("JAX000 in a part")
        owner = parts.owner
        return [d for d in found if owner[d.span.start.line] == g]
