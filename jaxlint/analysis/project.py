"""The project index: facts that cross module boundaries.

A helper in `losses.py` called from a jitted step in `train.py` runs on tracers, exactly as a
helper of the same module does. Each module gets a `ModuleSummary`, computed from its own text
(and its module name) alone, so it is cacheable by content hash: its outgoing traced calls
(calls from a function this module's analysis knows is transformed to a top-level function of
another module, with the argument positions and keywords that receive traced values, and the
chain) and, for a package `__init__`, the names it re-exports. `ProjectIndex` joins the
summaries: for each module, the *seeds* reaching it (function name -> `Seed`). `Transforms`
takes those seeds and marks the functions traced with confidence "medium", so the rules report
in `losses.py` as they do for same-module helpers, with a chain such as
`traced via train.train_step() -> losses.loss_fn()`.

Conservative on purpose: only calls from functions transformed in their own module with high
confidence seed (not helpers reached by same-module propagation, whose taint is less sure; never
flax/equinox `__call__` methods, traced only when applied), only arguments that hold traced
values, only top-level functions of the callee, only imports that resolve to exactly one module
of the project, never through a package's re-exports (a public API such as `jnp.where` is
tracer-aware library code) and never from one top-level package into another. One hop: a seeded function does not seed further modules (its own
summary is computed without seeds, so it stays a pure function of the file's text).

PRNG keys too: a summary lists the key parameters its top-level functions consume and the
names its top-level imports bind (`from m import f`, `import pkg.m as m`, `from pkg import m`);
a module importing such a function, or a module holding one, gets a `KeyHelpers` entry (under
`keys.KEY_HELPERS`) with its seeds, listing each helper under the name it is called by
(`init_mlp`, `m.init_mlp`, package re-exports followed), so `init_mlp(key, ...)` then
`normal(key, ...)` is a reuse (JAX201) as when `init_mlp` is defined in the same module. A
linted file is summarised whenever it imports anything (`needs_summary(linted=True)`), so a
caller that never names `jax.random` gets the entry too; a seeded file skips the text
prefilter (engine.lint_text), which would otherwise drop the PRNG rules for lack of `random`.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from jaxlint.analysis.flow.keys import KEY_HELPERS
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import GRAD_LIKE, JIT_LIKE
from jaxlint.analysis.transforms import FunctionFacts

SUMMARY_FORMAT = 3  # 2: key_positions, imported; 3: imported always, `import m` too
MODULE_CALL_SUFFIX = ".__call__"  # `flax.linen.Module.__call__`: traced only when applied
MAX_EXPORT_HOPS = 3

# A module can only trace a function if it names a transform: every component of a qualified
# name is a whole word of the text (see jaxlint.prefilter), so the last one is.
TRANSFORM_WORDS = frozenset(q.rsplit(".", 1)[-1] for q in (*JIT_LIKE, *GRAD_LIKE))


def _words_pattern(extra: Iterable[str]) -> tuple[re.Pattern[str], tuple[str, ...]]:
    words = sorted(TRANSFORM_WORDS | {w.rsplit(".", 1)[-1] for w in extra if w})
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")
    return pattern, tuple(words)


_PATTERNS: dict[tuple[str, ...], tuple[re.Pattern[str], tuple[str, ...]]] = {}


def _search_words(pattern: re.Pattern[str], words: tuple[str, ...], text: str) -> bool:
    """`pattern.search(text)` for a pattern of whole `words`, from the first place one of
    them occurs at all: a regex that begins with a word boundary gets no literal-prefix scan,
    so searching a whole module with it costs more than a substring search per word. (A
    search from `pos` still sees the character before it for the boundary.)"""
    first = -1
    for w in words:
        i = text.find(w, 0, first + len(w) if first >= 0 else len(text))
        if i != -1 and (first < 0 or i < first):
            first = i
    return first >= 0 and pattern.search(text, first) is not None


def uses_transform(text: str, jit_decorators: tuple[str, ...] = ()) -> bool:
    """Whether the text names a JAX transform (else it cannot produce outgoing seeds)."""
    found = _PATTERNS.get(jit_decorators)
    if found is None:
        found = _PATTERNS[jit_decorators] = _words_pattern(jit_decorators)
    return _search_words(*found, text)


_RANDOM = re.compile(r"\brandom\b")
_RANDOM_WORDS = ("random",)
_IMPORT = re.compile(r"\bimport\b")


def uses_random(text: str) -> bool:
    """Whether the text can call `jax.random` (else its functions consume no key)."""
    return _search_words(_RANDOM, _RANDOM_WORDS, text)


def needs_summary(
    path: str,
    text: str,
    jit_decorators: tuple[str, ...] = (),
    linted: bool = False,
    used: tuple[bool, bool] | None = None,
) -> bool:
    """Transform users produce seeds; package `__init__` files may re-export seeded names;
    `jax.random` users may have helpers that consume keys. A file being linted also needs
    one when it imports anything: the key helpers it imports from other modules are counted
    in its own key analysis, even when it never names `jax.random` itself. `used`: the
    caller's (uses_transform, uses_random) of `text`, when it has them already."""
    if used is not None:
        transform, rand = used
        return (
            os.path.basename(path) == "__init__.py"
            or transform
            or rand
            or (linted and _IMPORT.search(text) is not None)
        )
    return (
        os.path.basename(path) == "__init__.py"
        or uses_transform(text, jit_decorators)
        or uses_random(text)
        or (linted and _IMPORT.search(text) is not None)
    )


@dataclass(frozen=True)
class Seed:
    """A function of this module called with traced arguments from another module."""

    kind: str  # "jit" | "grad", the caller's
    via: str  # the caller's transform
    positions: tuple[int, ...] = ()  # positional arguments that receive traced values
    keywords: tuple[str, ...] = ()  # keyword arguments that receive traced values
    chain: tuple[str, ...] = ()  # `train.train_step`, ..., `losses.loss_fn`

    def to_json(self) -> list:
        return [self.kind, self.via, list(self.positions), list(self.keywords), list(self.chain)]

    @classmethod
    def from_json(cls, row: list) -> Seed:
        kind, via, positions, keywords, chain = row
        return cls(
            str(kind),
            str(via),
            tuple(int(p) for p in positions),
            tuple(str(k) for k in keywords),
            tuple(str(c) for c in chain),
        )

    def merge(self, other: Seed) -> Seed:
        """Two callers: traced where either passes tracers; abstract if either is a jit."""
        kind = "jit" if "jit" in (self.kind, other.kind) else self.kind
        # the message names a caller of the kind reported (a jit one when there is one)
        first = min(
            (s for s in (self, other) if s.kind == kind),
            key=lambda s: (len(s.chain), s.chain, s.via),
        )
        return Seed(
            kind,
            first.via,
            tuple(sorted(set(self.positions) | set(other.positions))),
            tuple(sorted(set(self.keywords) | set(other.keywords))),
            first.chain,
        )


@dataclass(frozen=True)
class KeyHelpers:
    """A seeds entry (under `KEY_HELPERS`): the names a module imports from other project
    modules whose functions consume PRNG key parameters, with those parameters' names and
    positions (-1: keyword-only). It travels with the seeds so that it reaches the analysis,
    and the cache key, by the same roads."""

    helpers: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()

    def to_json(self) -> list:
        return [[local, [list(p) for p in params]] for local, params in self.helpers]

    def as_map(self) -> dict[str, tuple[tuple[str, int], ...]]:
        return dict(self.helpers)


@dataclass
class ModuleSummary:
    """What other modules need to know about one module (JSON-serialisable)."""

    module: str
    outgoing: list[tuple[str, Seed]] = field(default_factory=list)  # absolute target -> seed
    exports: dict[str, str] = field(default_factory=dict)  # re-exported name -> absolute name
    # top-level function -> the parameters it consumes as PRNG keys (analysis.flow.keys), for the
    # key analysis of its callers in other modules
    key_params: dict[str, list[str]] = field(default_factory=dict)
    # the same parameters' positions (-1: keyword-only), in the order of `key_params`
    key_positions: dict[str, list[int]] = field(default_factory=dict)
    # top-level `from m import f [as g]` and `import pkg.m [as m]`: local name -> absolute
    # target, a function or a module (for the key analysis of calls to other modules' helpers)
    imported: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "format": SUMMARY_FORMAT,
            "module": self.module,
            "outgoing": [[t, s.to_json()] for t, s in self.outgoing],
            "exports": dict(self.exports),
            "key_params": {k: list(v) for k, v in self.key_params.items()},
            "key_positions": {k: list(v) for k, v in self.key_positions.items()},
            "imported": dict(self.imported),
        }

    @classmethod
    def from_json(cls, data: object) -> ModuleSummary:
        if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
            raise ValueError("not a module summary")
        return cls(
            str(data["module"]),
            [(str(t), Seed.from_json(s)) for t, s in data["outgoing"]],
            {str(k): str(v) for k, v in data["exports"].items()},
            {str(k): [str(p) for p in v] for k, v in data.get("key_params", {}).items()},
            {str(k): [int(p) for p in v] for k, v in data.get("key_positions", {}).items()},
            {str(k): str(v) for k, v in data.get("imported", {}).items()},
        )


# -- module names -------------------------------------------------------------------------------


def module_names(path: str, root: str | None = None) -> tuple[list[str], bool]:
    """The names a file is imported by: its package-based name (`pkg.sub.mod`) and, inside
    `root`, its root-relative name (namespace packages, `src/`-less layouts); and whether it is
    a package `__init__`."""
    path = os.path.abspath(path)
    folder, base = os.path.split(path)
    stem = base.rsplit(".", 1)[0]
    is_package = stem == "__init__"
    parts = [] if is_package else [stem]
    d = folder
    while os.path.isfile(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    names = [".".join(parts)] if parts and all(p.isidentifier() for p in parts) else []
    if root is not None:
        rel = os.path.relpath(os.path.join(folder, "" if is_package else stem), root)
        rparts = [] if rel == "." else rel.split(os.sep)
        if rparts and all(p.isidentifier() for p in rparts):
            name = ".".join(rparts)
            if name not in names:
                names.append(name)
    return names, is_package


def _resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str | None:
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    if name:
        base = [*base, name]
    return ".".join(base) or None


# -- summaries ----------------------------------------------------------------------------------


def _eligible(facts: FunctionFacts | None) -> bool:
    """Callers whose tracedness is certain enough to seed other modules."""
    return (
        facts is not None
        and facts.kind in ("jit", "grad")
        and not facts.unknown_static
        and not facts.via.endswith(MODULE_CALL_SUFFIX)
        and facts.confidence == "high"  # transformed itself, not a helper reached by a chain
    )


class _Imports:
    """Absolute dotted names of expressions rooted at an imported name (relative imports too)."""

    def __init__(self, index: ModuleIndex | None, module: str, is_package: bool) -> None:
        self.index = index
        self.module = module
        self.is_package = is_package

    def import_target(self, node: ast.AST, local: str) -> str | None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname == local:
                    return alias.name
                if alias.asname is None and alias.name.split(".")[0] == local:
                    return local
            return None
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) != local:
                    continue
                if node.level:
                    base = _resolve_relative(self.module, self.is_package, node.level, node.module)
                    return f"{base}.{alias.name}" if base else None
                return f"{node.module}.{alias.name}" if node.module else None
        return None

    def dotted(self, expr: ast.AST) -> str | None:
        rest: list[str] = []
        while isinstance(expr, ast.Attribute):
            rest.insert(0, expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        if self.index is None:
            return None
        b = self.index.binding(expr.id, self.index.scope_of(expr))
        if b is None or b.kind != "import" or b.node is None:
            return None
        base = self.import_target(b.node, expr.id)
        return ".".join([base, *rest]) if base else None


def _imported_names(tree: ast.Module, imports: _Imports, out: ModuleSummary) -> None:
    """What a caller of key helpers imports (`ModuleSummary.imported`): the names its
    top-level `from m import f` statements bind, and the modules its top-level `import`
    statements bind (`import pkg.m as m`: `m` -> `pkg.m`; `import pkg.m`: `pkg.m` -> `pkg.m`),
    whose helpers it calls as `m.f` / `pkg.m.f`."""
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                if alias.name == "*":
                    continue
                if isinstance(stmt, ast.Import):  # `import a.b` is called as `a.b.f(...)`
                    local = alias.asname or alias.name
                    target: str | None = alias.name
                else:
                    local = alias.asname or alias.name
                    target = imports.import_target(stmt, local)
                if target and local not in out.exports:
                    out.imported[local] = target


def _function_arg(call: ast.Call) -> ast.AST | None:
    """`jax.grad(f)(...)`: the function that runs."""
    return None if not call.args or isinstance(call.args[0], ast.Starred) else call.args[0]


def summarize(
    facts,  # noqa: ANN001 - analysis.ModuleFacts
    module: str,
    is_package: bool,
    transforms_used: bool = True,
    random_used: bool = True,
) -> ModuleSummary:
    """The summary of one module from its own facts (no seeds from elsewhere).

    `transforms_used` / `random_used` (from the text: `uses_transform`, `uses_random`) say
    which parts can be non-empty; a module with neither costs a look at its top-level
    statements, no analysis.
    """
    from jaxlint.analysis.flow.levels import Level

    tree: ast.Module = facts.tree
    out = ModuleSummary(module)
    imports = _Imports(None, module, is_package)
    if is_package:
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom):
                for alias in stmt.names:
                    if alias.name != "*":
                        target = imports.import_target(stmt, alias.asname or alias.name)
                        if target:
                            out.exports[alias.asname or alias.name] = target
    if random_used:  # KeyFlow returns at once in a module without `jax.random` calls
        top = set(tree.body)
        for fn, params in facts.keys.consuming_params.items():
            if fn in top and params:
                out.key_params[fn.name] = sorted(params)
                positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
                out.key_positions[fn.name] = [
                    positional.index(p) if p in positional else -1 for p in sorted(params)
                ]
    _imported_names(tree, imports, out)
    if not transforms_used or not module:
        return out
    index: ModuleIndex = facts.index
    imports.index = index
    transforms = facts.transforms
    if not any(_eligible(f) for f in transforms.facts.values()):
        return out
    taint = facts.taint
    short = module.rsplit(".", 1)[-1]
    grad_like = {*GRAD_LIKE, *JIT_LIKE}
    for call in index.calls:
        fn = index.enclosing_function(call)
        caller = transforms.facts.get(fn) if fn is not None else None
        if not _eligible(caller):
            continue
        func: ast.AST = call.func
        if isinstance(func, ast.Call) and index.qualname(func.func) in grad_like:
            inner = _function_arg(func)  # jax.value_and_grad(losses.loss_fn)(params, batch)
            if inner is None:
                continue
            func = inner
        elif isinstance(func, ast.Name):
            b = index.binding(func.id, index.scope_of(func))
            if (
                b is not None
                and b.kind == "assign"
                and isinstance(b.value, ast.Call)
                and index.qualname(b.value.func) in GRAD_LIKE
            ):
                inner = _function_arg(b.value)  # grad_fn = jax.grad(losses.loss_fn)
                if inner is None:
                    continue
                func = inner
        if index.resolve_function(func) is not None:
            continue  # a function of this module: taint's own propagation
        target = imports.dotted(func)
        if target is None or "." not in target:
            continue
        positions: list[int] = []
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Starred):
                break
            if taint.level(a) >= Level.CONTAINER:
                positions.append(i)
        keywords = sorted(
            kw.arg for kw in call.keywords if kw.arg and taint.level(kw.value) >= Level.CONTAINER
        )
        if not positions and not keywords:
            continue  # only static values: the callee is not traced through this call
        chain = tuple(f"{short}.{n}" for n in (caller.chain or (caller.name,)))  # type: ignore[union-attr]
        seed = Seed(caller.kind, caller.via, tuple(positions), tuple(keywords), chain)  # type: ignore[union-attr]
        out.outgoing.append((target, seed))
    return out


# -- the index ----------------------------------------------------------------------------------


class ProjectIndex:
    """Summaries of the project's modules, joined: the seeds that reach each module."""

    def __init__(self) -> None:
        self.summaries: dict[str, ModuleSummary] = {}  # absolute path -> summary
        self.by_name: dict[str, list[str]] = {}  # module name -> absolute paths
        self.names: dict[str, list[str]] = {}  # absolute path -> module names
        self._seeds: dict[str, dict[str, Seed]] | None = None

    def add_module(self, path: str, names: list[str], summary: ModuleSummary | None) -> None:
        path = os.path.abspath(path)
        self.names[path] = names
        for name in names:
            paths = self.by_name.setdefault(name, [])
            if path not in paths:
                paths.append(path)
        if summary is not None:
            self.summaries[path] = summary
        elif path in self.summaries:
            del self.summaries[path]
        self._seeds = None

    def _module_path(self, name: str, importer: str) -> str | None:
        """The one file `name` means from `importer` (its own folder first, as `sys.path[0]`
        does for a script); None when unknown or ambiguous."""
        paths = self.by_name.get(name)
        if not paths:
            return None
        if len(paths) == 1:
            return paths[0]
        here = os.path.dirname(importer)
        local = [p for p in paths if os.path.dirname(p) == here]
        return local[0] if len(local) == 1 else None

    def resolve(self, target: str, importer: str, _hops: int = 0) -> tuple[str, str] | None:
        """(path, function name) of an absolute dotted target, following package re-exports."""
        parts = target.split(".")
        for i in range(len(parts) - 1, 0, -1):
            path = self._module_path(".".join(parts[:i]), importer)
            if path is None:
                continue
            rest = parts[i:]
            if len(rest) != 1:
                return None  # `mod.Class.method`, `pkg.sub.f` through a package attribute
            summary = self.summaries.get(path)
            exported = summary.exports.get(rest[0]) if summary is not None else None
            if exported and _hops < MAX_EXPORT_HOPS:
                return self.resolve(exported, path, _hops + 1)
            return path, rest[0]
        return None

    def seeds(self) -> dict[str, dict[str, Seed]]:
        """path -> function name -> the merged seed of every caller."""
        if self._seeds is not None:
            return self._seeds
        out: dict[str, dict[str, Seed]] = {}
        for importer in sorted(self.summaries):
            caller = self.summaries[importer].module
            for target, seed in self.summaries[importer].outgoing:
                found = self.resolve(target, importer, _hops=MAX_EXPORT_HOPS)
                if found is None or found[0] == importer:
                    continue
                path, fn = found
                summary = self.summaries.get(path)
                if summary is not None and fn in summary.exports:
                    continue  # a package's public API (`jnp.where`): library code, tracer-aware
                if not _same_distribution(caller, (self.names.get(path) or [""])[0]):
                    continue  # optax calling into jax: the callee is another package's code
                names = self.names.get(path) or [fn]
                callee = f"{names[0].rsplit('.', 1)[-1]}.{fn}"
                seed = Seed(
                    seed.kind, seed.via, seed.positions, seed.keywords, (*seed.chain, callee)
                )
                known = out.setdefault(path, {})
                known[fn] = known[fn].merge(seed) if fn in known else seed
        for importer in sorted(self.summaries):
            helpers = self._key_helpers(importer)
            if helpers is not None:
                out.setdefault(importer, {})[KEY_HELPERS] = helpers
        self._seeds = out
        return out

    def _key_helpers(self, importer: str) -> KeyHelpers | None:
        """The names `importer` imports from other project modules whose functions consume
        key parameters (`from model import init_mlp`, or `model.init_mlp` after `import
        model`): its key analysis counts a call to one as a consumption of the keys passed
        there, as for a helper of its own."""
        summary = self.summaries[importer]
        rows: dict[str, tuple[tuple[str, int], ...]] = {}
        for local, target in sorted(summary.imported.items()):
            params = self._helper_params(target, importer, summary.module)
            if params is not None:
                rows[local] = params
            path = self._module_path(target, importer)
            if path is not None:  # `import model` / `from pkg import model`: `model.f(...)`
                self._module_helpers(local, path, importer, summary.module, rows)
        return KeyHelpers(tuple(sorted(rows.items()))) if rows else None

    def _helper_params(
        self, target: str, importer: str, caller: str
    ) -> tuple[tuple[str, int], ...] | None:
        """(name, position) of the key parameters the project function `target` consumes."""
        found = self.resolve(target, importer)
        if found is None or found[0] == importer:
            return None
        callee = self.summaries.get(found[0])
        if callee is None or not callee.key_params.get(found[1]):
            return None
        if not _same_distribution(caller, (self.names.get(found[0]) or [""])[0]):
            return None
        names = callee.key_params[found[1]]
        positions = callee.key_positions.get(found[1]) or [-1] * len(names)
        if len(positions) != len(names):
            return None
        return tuple(zip(names, positions))

    def _module_helpers(
        self, prefix: str, path: str, importer: str, caller: str, rows: dict
    ) -> None:
        """`prefix.f` for each key helper `f` of the module at `path` (its own functions and
        its re-exported names), as `importer` calls them after `import m`."""
        summary = self.summaries.get(path)
        if path == importer or summary is None:
            return
        module = (self.names.get(path) or [""])[0]
        for fn in summary.key_params:
            params = self._helper_params(f"{module}.{fn}", importer, caller)
            if params is not None:
                rows.setdefault(f"{prefix}.{fn}", params)
        for name, exported in summary.exports.items():
            params = self._helper_params(exported, path, caller)
            if params is not None:
                rows.setdefault(f"{prefix}.{name}", params)

    def seeds_for(self, path: str) -> dict[str, Seed]:
        return self.seeds().get(os.path.abspath(path), {})

    def consumed_params(self, target: str, importer: str) -> frozenset[str]:
        """The parameters of the project function `target` (an absolute dotted name, as
        imported by `importer`) that it consumes as PRNG keys; empty when unknown."""
        found = self.resolve(target, os.path.abspath(importer))
        if found is None:
            return frozenset()
        summary = self.summaries.get(found[0])
        return frozenset(summary.key_params.get(found[1], ())) if summary else frozenset()

    def dependents(self, path: str) -> set[str]:
        """Files whose seeds come from `path` (to re-analyse when it changes)."""
        path = os.path.abspath(path)
        summary = self.summaries.get(path)
        if summary is None:
            return set()
        out = set()
        if summary.key_params:  # its importers count calls to its key helpers
            for importer, other in self.summaries.items():
                for target in other.imported.values():
                    found = self.resolve(target, importer)
                    if importer != path and (
                        (found is not None and found[0] == path)
                        or target in self.names.get(path, ())
                    ):
                        out.add(importer)
        for target, _ in summary.outgoing:
            found = self.resolve(target, path)
            if found is not None and found[0] != path:
                out.add(found[0])
        return out


def _same_distribution(caller: str, callee: str) -> bool:
    """Seeds stay inside one package: `pkg.train` -> `pkg.losses` and scripts (`train`) ->
    anything of the project, never `optax.x` -> `jax.y` (linting several installed packages
    at once: the callee is another project's, usually tracer-aware, code)."""
    if "." not in caller or "." not in callee:
        return True
    return caller.split(".", 1)[0] == callee.split(".", 1)[0]


def seeds_digest(seeds: Mapping[str, Seed]) -> str:
    """A stable text for cache keys: the per-file result depends on these."""
    if not seeds:
        return ""
    import json

    return json.dumps(
        sorted([name, seed.to_json()] for name, seed in seeds.items()), separators=(",", ":")
    )
