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
tracer-aware library code) and never from one top-level package into another.

Chains: a seeded function passes its traced values on, as a transformed one does (`train.step`
-> `a.middle` -> `b.clip`). A summary stays a pure function of the file's text; what a module
passes on once seeds reach it comes from `summarize_seeded` (the module analysed with those
seeds, cached by content and seeds: `jaxlint.project_index.Loader`), and `ProjectIndex.seeds`
joins again until nothing grows (`MAX_CHAIN_ROUNDS`, chains of at most `MAX_CHAIN` modules,
never through a function twice). Only the seeded top-level functions themselves pass seeds on,
not the helpers they reach in their own module.

PRNG keys too: a summary lists the key parameters its top-level functions consume and the
names its top-level imports bind (`from m import f`, `import pkg.m as m`, `from pkg import m`);
a module importing such a function, or a module holding one, gets a `KeyHelpers` entry (under
`keys.KEY_HELPERS`) with its seeds, listing each helper under the name it is called by
(`init_mlp`, `m.init_mlp`, package re-exports followed), so `init_mlp(key, ...)` then
`normal(key, ...)` is a reuse (JAX201) as when `init_mlp` is defined in the same module. A
summary also lists, per key helper, the paths of its return value that carry key-derived
values (`key_products`, analysis/flow/key_products.py; absent: unknown), handed over for the
helpers imported by name (`from m import f`): a call whose such elements are all dead at the
caller is not a consumption there (Stoix's `evaluator_setup`), and the key parameters it
draws from on every path (`key_draws`, analysis/flow/key_draws.py): a reuse through it is
high confidence. A
file is summarised whenever it imports anything (`needs_summary(linted=True)`), so a caller
that never names `jax.random` gets the entry too, and a module whose functions pass keys to
another module's consuming helper consumes them for its own callers (a chain, as above). Names
are followed through imports inside functions (when every import of the name agrees), `from m
import *` (the names `__all__` or the top-level public names of a project module bind, and only
while no unknown star import after it could rebind them) and submodules (`pkg.sub.f` after
`import pkg`); a seeded file skips the text
prefilter (engine.lint_text), which would otherwise drop the PRNG rules for lack of `random`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

from jaxlint.analysis.applied_modules import unapplied_seeds
from jaxlint.analysis.construction import construction_only_seeds
from jaxlint.analysis.flow.keys import KEY_HELPERS
from jaxlint.analysis.jax_api import LIBRARY_ROOTS
from jaxlint.analysis.project_data import (
    MAX_CHAIN,
    MAX_CHAIN_ROUNDS,
    MAX_EXPORT_HOPS,
    MODULE_CALL_SUFFIX,
    PROJECT_WIDE,
    SEED_ENTRIES,
    STAR,
    SUMMARY_FORMAT,
    KeyHelpers,
    Loader,
    ModuleSummary,
    Seed,
    _same_distribution,
    add_kind_seeds,
    module_names,
    seeds_digest,
)
from jaxlint.analysis.project_summary import needs_summary, summarize, summarize_seeded
from jaxlint.analysis.project_text import (
    NESTED_IMPORT,
    TRANSFORM_WORDS,
    declares_static,
    returns_numpy,
    uses_random,
    uses_transform,
)

# names a module inside a package does not import from its own folder under Python 3 (the
# standard library, the libraries the rules know): a same-named file beside it is not taken
_ELSEWHERE = frozenset(getattr(sys, "stdlib_module_names", ())) | LIBRARY_ROOTS


class ProjectIndex:
    """Summaries of the project's modules, joined: the seeds that reach each module."""

    def __init__(self) -> None:
        self.summaries: dict[str, ModuleSummary] = {}  # absolute path -> summary
        self.by_name: dict[str, list[str]] = {}  # module name -> absolute paths
        self.names: dict[str, list[str]] = {}  # absolute path -> module names
        self._seeds: dict[str, dict[str, Seed]] | None = None
        # reads what summaries leave out (jaxlint.project_index.Loader): a module's summary
        # once seeds reach it (chains), the names a `from m import *` binds; None: one hop
        self.loader: Loader | None = None
        self._chain: dict[str, ModuleSummary] = {}  # path -> its summary with its seeds
        self._effective: dict[str, ModuleSummary] = {}  # the summaries, a chain's first
        self._derived: dict[str, tuple[str, ModuleSummary | None]] = {}  # (digest, summary)
        self._submodules: dict[str, list[str]] | None = None
        self._imported_modules: set[str] | None = None
        self._key_modules: set[str] | None = None  # per join: chains add key helpers
        # memos: `resolve` reads only `summaries` and `by_name` (forgotten by `add_module`);
        # `_helper_params` also reads `_effective` (forgotten by every join). The join asks
        # both for every name of every module that each importer imports (`import jax`:
        # all of jax's exports, for each of the hundreds of modules that import it)
        self._resolved: dict[tuple[str, str, int], tuple[str, str] | None] = {}
        self._helpers_memo: dict[tuple[str, str, str | None], tuple | None] = {}
        # a digest of everything the join reads (jaxlint.project_index sets it on a fresh
        # index; any change forgets it): the loader caches the joined seeds under it
        self.fingerprint: str | None = None
        self.pending_fingerprint: str | None = None  # until the deferred summaries are in

    def add_module(
        self,
        path: str,
        names: list[str],
        summary: ModuleSummary | None,
        same_inputs: bool = False,
    ) -> None:
        """Add or replace a module. `same_inputs`: a summary computed from the bytes the
        fingerprint already covers (a deferred summary, from the file's lint)."""
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
        self._submodules = None
        self._imported_modules = None
        self._resolved.clear()
        self._helpers_memo.clear()
        self._derived.pop(path, None)
        self.fingerprint = None
        if not same_inputs:
            self.pending_fingerprint = None

    def preset_seeds(self, seeds: dict[str, dict[str, Seed]]) -> None:
        """The joined seeds, read from the cache under this index's fingerprint, on an index
        that holds names but no summaries (`project_index.build_index_deferred(seeds_only)`):
        `seeds()` answers them until a module is added."""
        self._seeds = seeds

    def inputs_complete(self) -> None:
        """Every summary of the files the fingerprint covers is in (the deferred ones, from
        their lint): the joined seeds may be read from, and stored in, the cache."""
        if self.pending_fingerprint is not None:
            self.fingerprint = self.pending_fingerprint
            self._seeds = None

    def _module_path(self, name: str, importer: str) -> str | None:
        """The one file `name` means from `importer` (its own folder first, as `sys.path[0]`
        does for a script); None when unknown or ambiguous.

        A module beside the importer that the name does not otherwise reach (`from moves
        import f` in `src/cubic/legal_moves.py`, next to `src/cubic/moves.py`) is what a
        script run from that folder imports; in a folder that is no package it is what any
        importer there gets first. Inside a package, Python 3 looks on `sys.path` first, so
        with another candidate (`src/moves.py`, named `moves` by the `src/` layout) the name
        is ambiguous (v34 AbaloneMCTS: the plain-Python `src/moves.py` taken for the jitted
        sibling, JAX110 x20)."""
        paths = self.by_name.get(name) or []
        here = os.path.dirname(importer)
        sibling = self._beside(here, name)
        if sibling is not None and sibling not in paths:
            if os.path.join(here, "__init__.py") not in self.names:
                return sibling
            if name.split(".", 1)[0] in _ELSEWHERE:
                return None  # `pkg/random.py` beside `import random`: the standard library's
            return sibling if not paths else None
        if not paths:
            return None
        if len(paths) == 1:
            return paths[0]
        local = [p for p in paths if os.path.dirname(p) == here]
        return local[0] if len(local) == 1 else None

    def _beside(self, folder: str, name: str) -> str | None:
        """The indexed module `name` in `folder` (`name.py` or `name/__init__.py`)."""
        base = os.path.join(folder, *name.split("."))
        for path in (base + ".py", os.path.join(base, "__init__.py")):
            if path in self.names:
                return path
        return None

    def resolve(self, target: str, importer: str, _hops: int = 0) -> tuple[str, str] | None:
        """(path, function name) of an absolute dotted target, following package re-exports;
        `*.f`: the `f` that the importer's `from m import *` statements bind."""
        key = (target, importer, _hops)
        try:
            return self._resolved[key]
        except KeyError:
            found = self._resolved[key] = self._resolve(target, importer, _hops)
            return found

    def _resolve(self, target: str, importer: str, _hops: int) -> tuple[str, str] | None:
        if target[:2] == STAR:
            found = self._star_target(target[len(STAR) :], importer)
            return self.resolve(found, importer, _hops) if found else None
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
        """path -> function name -> the merged seed of every caller.

        Chains: a module that seeds reach passes them on (its seeded functions' calls to
        other modules, the keys its functions consume through other modules' helpers). With
        a `loader`, such a module's summary is computed again with its seeds, and the seeds
        joined again, to a fixed point (at most `MAX_CHAIN_ROUNDS` rounds, in path order)."""
        if self._seeds is not None:
            return self._seeds
        self._chain = {}
        self._effective = dict(self.summaries)
        stored = getattr(self.loader, "cached_seeds", None) if self.fingerprint else None
        if stored is not None:
            hit = stored(self.fingerprint)
            if hit is not None:  # nothing the join reads changed since it was stored
                self._seeds = hit
                return hit
        out = self._join()
        for _ in range(MAX_CHAIN_ROUNDS if self.loader is not None else 0):
            grown = keys = False
            for path in sorted(out):
                got = self._derive(path, out[path])
                if got is not None and self._chain.get(path) != got:
                    keys |= got.key_params != self._summary(path).key_params  # type: ignore[union-attr]
                    self._chain[path] = self._effective[path] = got
                    grown = True
            if not grown:
                break
            out = self._join(None if keys else out)  # no new key helper: the same entries
        add_kind_seeds(self, out)  # what imported helpers return, what callers pass
        construction_only_seeds(self, out)  # public methods only construction runs
        unapplied_seeds(self, out)  # Modules that nothing in the project can apply traced
        self._seeds = out
        if self.fingerprint and hasattr(self.loader, "store_seeds"):
            self.loader.store_seeds(self.fingerprint, out)  # type: ignore[union-attr]
        return out

    def _summary(self, path: str) -> ModuleSummary | None:
        """A module's summary with the seeds that reach it, when a chain computed one."""
        return self._effective.get(path)

    def _join(
        self, previous: dict[str, dict[str, Seed]] | None = None
    ) -> dict[str, dict[str, Seed]]:
        """The seeds from the summaries (a chain's where there is one); the `KeyHelpers`
        entries of `previous` when given (no key parameters changed since)."""
        out: dict[str, dict[str, Seed]] = {}
        self._key_modules = None
        self._helpers_memo.clear()  # `_effective` may have changed since the last join
        for importer in sorted(self.summaries):
            summary = self._summary(importer)
            caller = summary.module  # type: ignore[union-attr]
            for target, seed in summary.outgoing:  # type: ignore[union-attr]
                found = self.resolve(target, importer, _hops=MAX_EXPORT_HOPS)
                if found is None or found[0] == importer:
                    continue
                path, fn = found
                callee_summary = self.summaries.get(path)
                if callee_summary is not None and fn in callee_summary.exports:
                    continue  # a package's public API (`jnp.where`): library code, tracer-aware
                if not _same_distribution(caller, (self.names.get(path) or [""])[0]):
                    continue  # optax calling into jax: the callee is another package's code
                names = self.names.get(path) or [fn]
                callee = f"{names[0].rsplit('.', 1)[-1]}.{fn}"
                if callee in seed.chain:
                    continue  # a cycle: the callee is already traced by this chain
                seed = replace(seed, chain=(*seed.chain, callee))
                known = out.setdefault(path, {})
                known[fn] = known[fn].merge(seed) if fn in known else seed
        for importer in sorted(self.summaries):
            if previous is not None:
                helpers = previous.get(importer, {}).get(KEY_HELPERS)  # type: ignore[assignment]
            else:
                helpers = self._key_helpers(importer)
                if helpers is not None and self.loader is not None:
                    helpers = self.loader.called(importer, helpers)  # else: linted again for naught
            if helpers is not None:
                out.setdefault(importer, {})[KEY_HELPERS] = helpers
        return out

    def _derive(self, path: str, seeds: dict[str, Seed]) -> ModuleSummary | None:
        """The summary of the module at `path` analysed with `seeds` (memoised per seeds),
        or None when those seeds cannot make it pass anything on."""
        if not self._may_pass_on(path, seeds):
            return None
        digest = seeds_digest(seeds)
        known = self._derived.get(path)
        if known is not None and known[0] == digest:
            return known[1]
        base = self.summaries[path]
        got = self.loader.derive(path, self.names.get(path) or [], seeds, base)  # type: ignore[union-attr]
        self._derived[path] = (digest, got)
        return got

    def _may_pass_on(self, path: str, seeds: dict[str, Seed]) -> bool:
        """Whether seeds can change what the module passes on: it calls other modules (its
        seeded functions may pass traced values on), or its functions call other modules'
        key helpers and another module imports it (then they consume keys for their callers)."""
        summary = self.summaries.get(path)
        if summary is None or not (summary.imported or summary.star):
            return False
        if any(name != KEY_HELPERS for name in seeds):
            return True
        return KEY_HELPERS in seeds and self._imported_somewhere(path)

    def _imported_somewhere(self, path: str) -> bool:
        if self._imported_modules is None:  # every module name a summary's import can mean
            self._imported_modules = set()
            for other in self.summaries.values():
                for target in (*other.imported.values(), *other.star):
                    parts = target.split(".")
                    for i in range(1, len(parts) + 1):
                        self._imported_modules.add(".".join(parts[:i]))
        return any(n in self._imported_modules for n in self.names.get(path) or [])

    def _star_target(self, name: str, importer: str) -> str | None:
        """The absolute name `name` means in `importer` through its `from m import *`
        statements (the last one that binds it); None when unknown (a module outside the
        project, or one whose names are unknown, could bind it after)."""
        summary = self.summaries.get(importer)
        if summary is None or self.loader is None:
            return None
        for module in reversed(summary.star):
            path = self._module_path(module, importer)
            names = self.loader.public_names(path) if path is not None else None
            if names is None:
                return None
            if name in names:
                return f"{module}.{name}"
        return None

    def _key_helpers(self, importer: str) -> KeyHelpers | None:
        """The names `importer` imports from other project modules whose functions consume
        key parameters (`from model import init_mlp`, or `model.init_mlp` after `import
        model`, `pkg.model.init_mlp` after `import pkg`, `init_mlp` after `from model import
        *`): its key analysis counts a call to one as a consumption of the keys passed
        there, as for a helper of its own."""
        summary = self.summaries[importer]
        rows: dict[str, tuple[tuple[str, int], ...]] = {}
        # the function a row names, where it is found directly (`from model import init_mlp`):
        # only those rows carry the helper's key-derived return paths
        targets: dict[str, tuple[str, str]] = {}
        for local, target in sorted(summary.imported.items()):
            params = self._helper_params(target, importer, summary.module)
            if params is not None:
                rows[local] = params
                found = self.resolve(target, importer)
                if found is not None:
                    targets[local] = found
            path = self._module_path(target, importer)
            if path is not None:  # `import model` / `from pkg import model`: `model.f(...)`
                self._module_helpers(local, path, importer, summary.module, rows)
                self._submodule_helpers(local, target, importer, summary.module, rows)
        for module in reversed(summary.star):
            path = self._module_path(module, importer)
            names = self.loader.public_names(path) if path and self.loader else None
            if names is None:
                break  # an unknown module could bind any name after those before it
            for name in sorted(names):
                params = self._helper_params(f"{module}.{name}", importer, summary.module)
                if params is not None and name not in rows:
                    rows[name] = params
        drawfree = tuple(
            local
            for local, target in sorted(summary.imported.items())
            if self._class_in(target, importer, "drawfree_modules")
        )
        linen = tuple(
            local
            for local, target in sorted(summary.imported.items())
            if self._class_in(target, importer, "linen_modules")
        )
        if not rows:
            return KeyHelpers(drawfree=drawfree, linen=linen) if drawfree or linen else None
        products = tuple(
            (local, paths)
            for local in sorted(rows)
            if local in targets
            and (paths := self._helper_products(rows[local], targets[local])) is not None
        )
        draws = tuple(
            (local, names)
            for local in sorted(rows)
            if local in targets
            and (names := self._helper_draws(rows[local], targets[local])) is not None
        )
        return KeyHelpers(tuple(sorted(rows.items())), products, draws, drawfree, linen)

    def _class_in(self, target: str, importer: str, attr: str) -> bool:
        """`target` (an imported name) is a class listed in its project module's summary
        field `attr` (`drawfree_modules`, `linen_modules`)."""
        found = self.resolve(target, importer)
        if found is None:
            return False
        summary = self._effective.get(found[0]) or self.summaries.get(found[0])
        return summary is not None and found[1] in getattr(summary, attr)

    def _helper_draws(self, params: tuple, found: tuple[str, str]) -> tuple[str, ...] | None:
        """The key parameters (`ModuleSummary.key_draws`) the helper `found` (path, function)
        draws from on every path, when its key parameters are `params`; None: none known."""
        summary = self._effective.get(found[0])
        names = summary.key_draws.get(found[1]) if summary is not None else None
        if not names or _params(summary, found[1]) != params:  # type: ignore[arg-type]
            return None
        return tuple(names)

    def _helper_products(
        self, params: tuple, found: tuple[str, str]
    ) -> tuple[tuple[int | str, ...], ...] | None:
        """The key-derived return paths (`ModuleSummary.key_products`) of the helper `found`
        (path, function) whose key parameters are `params`; None: unknown."""
        summary = self._effective.get(found[0])
        paths = summary.key_products.get(found[1]) if summary is not None else None
        if paths is None or _params(summary, found[1]) != params:  # type: ignore[arg-type]
            return None
        return tuple(tuple(p) for p in paths)

    def _submodule_helpers(
        self, prefix: str, module: str, importer: str, caller: str, rows: dict, depth: int = 0
    ) -> None:
        """`pkg.sub.f` after `import pkg`: the helpers of the project's submodules of a
        module the importer binds, where the package imports them (`from . import sub`)."""
        if self._submodules is None:
            self._submodules = {}
            for name in sorted(self.by_name):
                if "." in name:
                    self._submodules.setdefault(name.rsplit(".", 1)[0], []).append(name)
        children = self._submodules.get(module, [])
        if not children or depth > MAX_EXPORT_HOPS:
            return
        if self._key_modules is None:  # modules with key helpers, and the packages above them
            self._key_modules = set()
            for path in self.summaries:
                if self._summary(path).key_params:  # type: ignore[union-attr]
                    for name in self.names.get(path) or []:
                        parts = name.split(".")
                        for i in range(1, len(parts) + 1):
                            self._key_modules.add(".".join(parts[:i]))
        parent = self._module_path(module, importer)
        exports = self.summaries[parent].exports if parent in self.summaries else {}
        for child in children:
            if child not in self._key_modules:
                continue  # no key helper down there
            attr = child.rsplit(".", 1)[1]
            if exports.get(attr) != child:
                continue  # the package does not import it (`from . import sub`): unknown
            path = self._module_path(child, importer)
            if path is not None:
                self._module_helpers(f"{prefix}.{attr}", path, importer, caller, rows)
                self._submodule_helpers(
                    f"{prefix}.{attr}", child, importer, caller, rows, depth + 1
                )

    def _helper_params(
        self, target: str, importer: str, caller: str
    ) -> tuple[tuple[str, int], ...] | None:
        """(name, position) of the key parameters the project function `target` consumes."""
        # `caller` counts only through `_same_distribution`: its package, or none
        key = (target, importer, caller.split(".", 1)[0] if "." in caller else None)
        try:
            return self._helpers_memo[key]
        except KeyError:
            found = self._helpers_memo[key] = self._helper_params_of(target, importer, caller)
            return found

    def _helper_params_of(
        self, target: str, importer: str, caller: str
    ) -> tuple[tuple[str, int], ...] | None:
        found = self.resolve(target, importer)
        if found is None or found[0] == importer:
            return None
        callee = self._effective.get(found[0])
        if callee is None or not callee.key_params.get(found[1]):
            return None
        if not _same_distribution(caller, (self.names.get(found[0]) or [""])[0]):
            return None
        return _params(callee, found[1])

    def _module_helpers(
        self, prefix: str, path: str, importer: str, caller: str, rows: dict
    ) -> None:
        """`prefix.f` for each key helper `f` of the module at `path` (its own functions and
        its re-exported names), as `importer` calls them after `import m`."""
        summary = self._summary(path)
        if path == importer or summary is None:
            return
        module = (self.names.get(path) or [""])[0]
        direct = self._module_path(module, importer) == path and _same_distribution(caller, module)
        for fn in summary.key_params:
            if direct and fn not in summary.exports:  # what `_helper_params` finds, quicker
                params = _params(summary, fn)
            else:
                params = self._helper_params(f"{module}.{fn}", importer, caller)
            if params is not None:
                rows.setdefault(f"{prefix}.{fn}", params)
        for name, params in self._export_helpers(path, summary, caller):
            rows.setdefault(f"{prefix}.{name}", params)

    def _export_helpers(
        self, path: str, summary: ModuleSummary, caller: str
    ) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
        """(name, key parameters) of the names the module at `path` re-exports that are key
        helpers, in `exports` order: the same for every importer of the module in `caller`'s
        package (hundreds of modules import `jax`, whose `__init__` re-exports hundreds of
        names), so kept with `_helper_params`' answers (the same lifetime)."""
        key = ("\0exports", path, caller.split(".", 1)[0] if "." in caller else None)
        found = self._helpers_memo.get(key)
        if found is None:
            rows = []
            for name, exported in summary.exports.items():
                params = self._helper_params(exported, path, caller)
                if params is not None:
                    rows.append((name, params))
            found = self._helpers_memo[key] = tuple(rows)
        return found

    def seeds_for(self, path: str) -> dict[str, Seed]:
        path = os.path.abspath(path)
        found = self.seeds().get(path)
        if found is None and path.endswith(".ipynb"):
            # a notebook is no module of the index (nothing imports it), but the entries every
            # module of the project gets speak for it too (`project_wide_seeds`): any module's
            anyone = next(iter(self.seeds().values()), {})
            return {k: v for k, v in anyone.items() if k in PROJECT_WIDE}
        return found or {}

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


def _params(summary: ModuleSummary, fn: str) -> tuple[tuple[str, int], ...] | None:
    """(name, position) of the key parameters `fn` of the module consumes."""
    names = summary.key_params.get(fn)
    if not names:
        return None
    positions = summary.key_positions.get(fn) or [-1] * len(names)
    return tuple(zip(names, positions)) if len(positions) == len(names) else None


__all__ = [
    "MAX_CHAIN",
    "MAX_CHAIN_ROUNDS",
    "MAX_EXPORT_HOPS",
    "MODULE_CALL_SUFFIX",
    "NESTED_IMPORT",
    "SEED_ENTRIES",
    "STAR",
    "SUMMARY_FORMAT",
    "TRANSFORM_WORDS",
    "declares_static",
    "returns_numpy",
    "KeyHelpers",
    "Loader",
    "ModuleSummary",
    "ProjectIndex",
    "Seed",
    "module_names",
    "needs_summary",
    "seeds_digest",
    "summarize",
    "summarize_seeded",
    "uses_random",
    "uses_transform",
]
