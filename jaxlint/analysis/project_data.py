"""The data of the project index (`analysis.project`): the JSON summaries, the seeds they
carry, module names. Apart from the analysis that computes them, so each file stays readable."""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from jaxlint.analysis.constants import IMPORTED_CONSTANTS, Literal
from jaxlint.analysis.project_seed import Seed
from jaxlint.analysis.seed_keys import (
    BOOL_HELPERS,
    COMPILED_HELPERS,
    CONSTRUCTION_ONLY,
    IMPORTED_LEAVES,
    IMPORTED_STATIC,
    KEY_PROPERTIES,
    PASSED_ARGUMENTS,
    RETURN_USES,
    STATIC_HELPERS,
    UNAPPLIED_MODULES,
)
from jaxlint.analysis.static_elements import ELEMENT_MARK

SUMMARY_FORMAT = 26  # bumped when a field is added or changes meaning (git log -S SUMMARY_FORMAT)
STAR = "*."  # an outgoing target bound by a `from m import *` (`*.f`: `ProjectIndex.resolve`)
MAX_CHAIN = 8  # modules a chain of seeds goes through (train.step -> a.f -> b.g -> ...)
MAX_CHAIN_ROUNDS = 6  # rounds of `ProjectIndex.seeds`' fixed point
MODULE_CALL_SUFFIX = ".__call__"  # `flax.linen.Module.__call__`: traced only when applied
MAX_EXPORT_HOPS = 3
_STARRED = ast.Starred


@dataclass(frozen=True)
class KeyHelpers:
    """A seeds entry (under `KEY_HELPERS`): the names a module imports from other project
    modules whose functions consume PRNG key parameters, with those parameters' names and
    positions (-1: keyword-only). It travels with the seeds so that it reaches the analysis,
    and the cache key, by the same roads."""

    helpers: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # for the helpers whose summary knows them (`ModuleSummary.key_products`): the paths of
    # their return value that carry key-derived values
    products: tuple[tuple[str, tuple[tuple[int | str, ...], ...]], ...] = ()
    # for the helpers whose summary knows them (`ModuleSummary.key_draws`): the key
    # parameters they draw from on every path (analysis/flow/key_draws.py)
    draws: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # the names it imports flax Module classes by whose `init` draws nothing
    drawfree: tuple[str, ...] = ()  # (`ModuleSummary.drawfree_modules`, flow/key_drawfree.py)
    # ... and those that fold module paths into their keys (`folds_module_paths`)
    linen: tuple[str, ...] = ()  # (`ModuleSummary.linen_modules`)

    def to_json(self) -> list:
        rows: list = [[local, [list(p) for p in params]] for local, params in self.helpers]
        if self.products or self.draws or self.drawfree or self.linen:
            rows.append(
                {
                    "products": [
                        [local, [list(p) for p in paths]] for local, paths in self.products
                    ],
                    "draws": [[local, list(names)] for local, names in self.draws],
                    "drawfree": list(self.drawfree),
                    "linen": list(self.linen),
                }
            )
        return rows

    @classmethod
    def from_json(cls, value: list) -> KeyHelpers:
        rows = list(value)
        products: tuple = ()
        draws: tuple = ()
        drawfree: tuple = ()
        linen: tuple = ()
        if rows and isinstance(rows[-1], dict):
            extra = rows.pop()
            drawfree = tuple(str(n) for n in extra.get("drawfree", []))
            linen = tuple(str(n) for n in extra.get("linen", []))
            products = tuple(
                (str(local), tuple(tuple(int(i) for i in p) for p in paths))
                for local, paths in extra.get("products", [])
            )
            draws = tuple(
                (str(local), tuple(str(n) for n in names))
                for local, names in extra.get("draws", [])
            )
        helpers = tuple(
            (str(local), tuple((str(n), int(p)) for n, p in params)) for local, params in rows
        )
        return cls(helpers, products, draws, drawfree, linen)

    def draws_map(self) -> dict[str, frozenset[str]]:
        return {local: frozenset(names) for local, names in self.draws}

    def products_map(self) -> dict[str, frozenset[tuple[int | str, ...]]]:
        return {local: frozenset(paths) for local, paths in self.products}

    def as_map(self) -> dict[str, tuple[tuple[str, int], ...]]:
        return dict(self.helpers)


@dataclass(frozen=True)
class StaticHelpers:
    """A seeds entry (under `kinds.STATIC_HELPERS`): the names a module calls other project
    modules' functions by (`get_dims`, `tree_utils.first_dim`) whose result is a Python value
    (`ModuleSummary.static_returns`): what they return is not traced, whatever they get."""

    names: tuple[str, ...] = ()

    def to_json(self) -> list:
        return list(self.names)

    @classmethod
    def from_json(cls, value: list) -> StaticHelpers:
        return cls(tuple(str(n) for n in value))


@dataclass(frozen=True)
class StaticAttributes(StaticHelpers):
    """A seeds entry (under `kinds.IMPORTED_STATIC`): attribute names that the classes of
    the project modules a module imports declare static (pytree meta fields, properties that
    return shape metadata: `ModuleSummary.static_attributes`) and that no class of those
    modules, nor of the module itself, declares as data. `table.max_seqs` on a traced
    `PageTable` of another module is then a Python value, as it is in the class's own module
    (analysis/pytrees.py)."""


@dataclass(frozen=True)
class LeafAttributes(StaticHelpers):
    """A seeds entry (under `kinds.IMPORTED_LEAVES`): attribute names that the pytree classes
    of the project modules a module imports declare as leaves (`ModuleSummary.leaf_attributes`:
    data fields, properties computed from them) and that no class of those modules, nor of
    the module itself, declares static. `table.used` on a traced `PageTable` of another module
    is then traced, as it is in the class's own module; without it the read is of unknown
    kind (`Level.FIELD`), silent."""


def _literal_json(value: object) -> Literal:
    """A constant as the summaries store it (a tuple of ints is a JSON list)."""
    if isinstance(value, list):
        return tuple(int(v) for v in value)
    if isinstance(value, (bool, int, float, str)):
        return value
    raise ValueError("not a constant")


@dataclass(frozen=True)
class ImportedConstants:
    """A seeds entry (under `constants.IMPORTED_CONSTANTS`): the names by which a module
    reads other project modules' constants (`util.U16_CHUNK_NUM` after `import util`, `N`
    after `from util import N`), with their values (`ModuleSummary.constants`): a loop bound
    or default of another module is then as known as a local one (analysis/constants.py)."""

    rows: tuple[tuple[str, Literal], ...] = ()

    def to_json(self) -> list:
        return [[name, list(v) if isinstance(v, tuple) else v] for name, v in self.rows]

    @classmethod
    def from_json(cls, value: list) -> ImportedConstants:
        return cls(tuple((str(name), _literal_json(v)) for name, v in value))

    def as_map(self) -> dict[str, Literal]:
        return dict(self.rows)


@dataclass(frozen=True)
class PassedArguments:
    """A seeds entry (under `kinds.PASSED_ARGUMENTS`): for top-level functions of a module,
    what other project modules pass them (fn, most positional arguments or -1, keywords):
    a jitted function's defaulted parameter is a Python value only if no caller passes it."""

    rows: tuple[tuple[str, int, tuple[str, ...]], ...] = ()

    def to_json(self) -> list:
        return [[fn, n, list(kws)] for fn, n, kws in self.rows]

    @classmethod
    def from_json(cls, value: list) -> PassedArguments:
        return cls(tuple((str(fn), int(n), tuple(str(k) for k in kws)) for fn, n, kws in value))

    def as_map(self) -> dict[str, tuple[int, frozenset[str]]]:
        return {fn: (n, frozenset(kws)) for fn, n, kws in self.rows}


@dataclass(frozen=True)
class ReturnUses:
    """A seeds entry (under `seed_keys.RETURN_USES`): for top-level functions of a module that
    return a consumed key (`ModuleSummary.key_returns`), the positions of their returned
    tuple that other project modules' calls read (None: some use reads it whole)."""

    rows: tuple[tuple[str, tuple[int, ...] | None], ...] = ()

    def to_json(self) -> list:
        return [[fn, None if used is None else list(used)] for fn, used in self.rows]

    @classmethod
    def from_json(cls, value: list) -> ReturnUses:
        return cls(
            tuple(
                (str(fn), None if used is None else tuple(int(i) for i in used))
                for fn, used in value
            )
        )

    def as_map(self) -> dict[str, frozenset[int] | None]:
        return {fn: None if used is None else frozenset(used) for fn, used in self.rows}


def _callees(project, importer: str, table: dict, listed: str):  # noqa: ANN001, ANN202
    """(callee path, function, row) for each `table` target of `importer` (a summary's
    `passes` or `return_uses`) that resolves to a function of another project module whose
    summary lists it in the field `listed` (`defaulted`, `key_returns`)."""
    for target, row in table.items():
        hit = project.resolve(target, importer)
        if hit is None or hit[0] == importer:
            continue
        callee = project.summaries.get(hit[0])
        if callee is not None and hit[1] in getattr(callee, listed):
            yield hit[0], hit[1], row


def return_uses_seeds(project, seeds: dict) -> None:  # noqa: ANN001 - ProjectIndex
    """Add the `ReturnUses` entries: what each importer's calls read of the functions that
    return a consumed key, joined per defining module (analysis/result_uses.py)."""
    found: dict[str, dict[str, set[int] | None]] = {}
    for path in sorted(project.summaries):
        table = project.summaries[path].return_uses
        for callee, fn, used in _callees(project, path, table, "key_returns"):
            fns = found.setdefault(callee, {})
            if used is None or (fn in fns and fns[fn] is None):
                fns[fn] = None
            else:
                fns[fn] = (fns.get(fn) or set()) | set(used)
    for path, fns in found.items():
        rows = tuple(
            (fn, None if used is None else tuple(sorted(used))) for fn, used in sorted(fns.items())
        )
        seeds.setdefault(path, {})[RETURN_USES] = ReturnUses(rows)


def call_tables(index, imports, module: str) -> tuple[dict[str, list], dict[str, set | None]]:  # noqa: ANN001
    """`ModuleSummary.passes`: what this module's calls pass other functions of its own
    top-level package (`imports`: an `analysis.project._Imports` with the index set); and,
    from the same walk over the calls (one qualified name per call), what the calls read of
    each target's result (analysis/result_uses.py: positions of a returned tuple, None when
    used whole)."""
    from jaxlint.analysis.result_uses import result_uses

    out: dict[str, list] = {}
    uses: dict[str, set | None] = {}
    root = module.split(".", 1)[0] if "." in module else ""
    dotted = imports.dotted
    for call in index.calls:
        target = dotted(call.func, root)
        if not target:
            continue
        # a loop per call, no generators (a package's own calls are thousands a module):
        # a starred argument or a `**kwargs` makes the positions unknown
        args, keywords = call.args, call.keywords
        unknown = False
        for a in args:
            if type(a) is _STARRED:  # exact: the parser makes no subclasses
                unknown = True
                break
        names: set[str] | None = None
        for kw in keywords:
            if kw.arg is None:
                unknown = True
            elif names is None:
                names = {kw.arg}
            else:
                names.add(kw.arg)
        row = out.get(target)
        if row is None:
            row = out[target] = [0]
        row[0] = -1 if unknown or row[0] == -1 else max(row[0], len(args))
        if names is not None:
            row.extend([k for k in sorted(names) if k not in row])
        if target in uses and uses[target] is None:
            continue
        used = result_uses(call, index)
        uses[target] = None if used is None else (uses.get(target) or set()) | used
    return out, uses


def defaulted_functions(tree: ast.Module) -> list[str]:
    """`ModuleSummary.defaulted`: top-level functions with a jit-like decorator (`@jax.jit`,
    `@partial(jax.jit, ...)`, `@nnx.jit`, `@pmap`) and a defaulted parameter."""
    out = []
    for stmt in tree.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not (stmt.args.defaults or any(d is not None for d in stmt.args.kw_defaults)):
            continue
        names = {
            n.attr if isinstance(n, ast.Attribute) else n.id
            for d in stmt.decorator_list
            for n in ast.walk(d)
            if isinstance(n, (ast.Attribute, ast.Name))
        }
        if any("jit" in n or "pmap" in n for n in names):
            out.append(stmt.name)
    return out


def add_kind_seeds(project, seeds: dict) -> None:  # noqa: ANN001 - ProjectIndex
    """Add each module's `StaticHelpers` and `PassedArguments` entries to the project's
    `seeds` (after the chains: they refine kinds, they pass nothing on)."""
    passed: dict[str, dict[str, list]] = {}
    for path in sorted(project.summaries):
        found = static_helpers(project, path) if project.summaries[path].traced else None
        if found is not None:
            seeds.setdefault(path, {})[STATIC_HELPERS] = found
        bools = bool_helpers(project, path) if project.summaries[path].traced else None
        if bools is not None:
            seeds.setdefault(path, {})[BOOL_HELPERS] = bools
        if project.summaries[path].timed:
            compiled = static_helpers(project, path, "compiled")
            if compiled is not None:
                seeds.setdefault(path, {})[COMPILED_HELPERS] = compiled
        if project.summaries[path].traced:
            attrs, leaves = imported_attributes(project, path)
            if attrs is not None:
                seeds.setdefault(path, {})[IMPORTED_STATIC] = attrs
            if leaves is not None:
                seeds.setdefault(path, {})[IMPORTED_LEAVES] = leaves
        consts = imported_constants(project, path) if project.summaries[path].traced else None
        if consts is not None:
            seeds.setdefault(path, {})[IMPORTED_CONSTANTS] = consts
        for callee, fn, row in _callees(project, path, project.summaries[path].passes, "defaulted"):
            known = passed.setdefault(callee, {}).setdefault(fn, [0])
            known[0] = -1 if -1 in (known[0], row[0]) else max(known[0], row[0])
            known.extend(k for k in row[1:] if k not in known)
    for path, fns in passed.items():
        rows = tuple((fn, r[0], tuple(sorted(r[1:]))) for fn, r in sorted(fns.items()))
        seeds.setdefault(path, {})[PASSED_ARGUMENTS] = PassedArguments(rows)
    return_uses_seeds(project, seeds)
    key_properties_seeds(project, seeds)


def static_helpers(
    project,  # noqa: ANN001
    importer: str,
    field: str = "static_returns",
) -> StaticHelpers | None:
    """The `StaticHelpers` of `importer` (a path) in `project` (an `analysis.project.ProjectIndex`):
    its `from m import f` names and `m.f` for `import m`, where `f` returns a Python value
    (`f` is listed in the callee summary's `field`)."""
    summary = project.summaries[importer]
    names: set[str] = set()
    for local, target in summary.imported.items():
        found = project.resolve(target, importer)
        if found is not None and found[0] != importer:
            callee = project.summaries.get(found[0])
            listed = getattr(callee, field) if callee is not None else ()
            if found[1] in listed:
                names.add(local)
            prefix = found[1] + ELEMENT_MARK  # `f#1`: an element of f's returned tuples
            names.update(local + e[len(found[1]) :] for e in listed if e.startswith(prefix))
        path = project._module_path(target, importer)  # `import m` / `from pkg import m`
        module = project.summaries.get(path) if path not in (None, importer) else None
        if module is not None:
            names.update(f"{local}.{fn}" for fn in getattr(module, field))
    return StaticHelpers(tuple(sorted(names))) if names else None


def bool_helpers(project, importer: str) -> StaticHelpers | None:  # noqa: ANN001
    """The names `importer` calls other project modules' functions by whose result is a
    Python bool (`ModuleSummary.bool_returns`): a static argument made from one takes at most
    two values (the seeds entry `kinds.BOOL_HELPERS`)."""
    return static_helpers(project, importer, "bool_returns")


def _constants_module(project, target: str, importer: str) -> str | None:  # noqa: ANN001
    """The path of the module `target` names; when the full name is unknown (`from
    jaxite.jaxite_ec import util` in a checkout whose root holds `jaxite_ec/`, the package
    being assembled by the build), the one module whose name is a dotted suffix of it."""
    path = project._module_path(target, importer)
    parts = target.split(".")
    for i in range(1, len(parts) - 1):
        if path is not None:
            break
        path = project._module_path(".".join(parts[i:]), importer)
    return path


def imported_constants(project, importer: str) -> ImportedConstants | None:  # noqa: ANN001
    """The `ImportedConstants` of `importer`: for each `import m` / `from pkg import m`, the
    constants of `m` as `local.NAME`; for each `from m import NAME`, the constant itself."""
    summary = project.summaries[importer]
    rows: dict[str, Literal] = {}
    for local, target in summary.imported.items():
        path = _constants_module(project, target, importer)
        module = project.summaries.get(path) if path not in (None, importer) else None
        if module is not None:
            rows.update((f"{local}.{n}", v) for n, v in module.constants.items())
            continue
        head, _, name = target.rpartition(".")
        path = _constants_module(project, head, importer) if head else None
        module = project.summaries.get(path) if path not in (None, importer) else None
        if module is not None and name in module.constants:
            rows[local] = module.constants[name]
    return ImportedConstants(tuple(sorted(rows.items()))) if rows else None


def imported_attributes(  # noqa: ANN001
    project, importer: str
) -> tuple[StaticAttributes | None, LeafAttributes | None]:
    """The `StaticAttributes` and `LeafAttributes` of `importer`: what the modules it imports
    from (one hop: the module of each `from m import C` and each `import m`, and the defining
    module of each class its annotations name as `m.C`) declare static, less every name one
    of them or the importer itself declares as data, and what they declare as leaves, less
    every name one of them or the importer declares static (names must be unambiguous, as in
    analysis/pytrees.py)."""
    summary = project.summaries[importer]
    static: set[str] = set()
    data: set[str] = set(summary.data_attributes)
    own_static = set(summary.static_attributes)
    leaves: set[str] = set()
    seen: set[str] = set()
    for target in (*summary.imported.values(), *summary.annotated):
        found = project.resolve(target, importer)
        paths = [found[0]] if found is not None else []
        module_path = project._module_path(target, importer)
        if module_path is not None:
            paths.append(module_path)
        for path in paths:
            if path == importer or path in seen:
                continue
            seen.add(path)
            module = project.summaries.get(path)
            if module is not None:
                static.update(module.static_attributes)
                data.update(module.data_attributes)
                leaves.update(module.leaf_attributes)
    names = static - data
    leaves -= static | own_static
    return (
        StaticAttributes(tuple(sorted(names))) if names else None,
        LeafAttributes(tuple(sorted(leaves))) if leaves else None,
    )


@dataclass(frozen=True)
class ConstructionOnly(StaticHelpers):
    """A seeds entry (under `seed_keys.CONSTRUCTION_ONLY`): the public methods (`Class.method`)
    of a module's classes that the class calls only while an object is built
    (`ModuleSummary.init_methods`) and that no project module calls on an instance
    (`ModuleSummary.method_calls`): helpers of the construction, like private ones."""


@dataclass(frozen=True)
class KeyProperties(StaticHelpers):
    """A seeds entry (under `seed_keys.KEY_PROPERTIES`): the names of properties that the
    project's classes define to split their own key and return the new half
    (`ModuleSummary.key_properties`): `q1.rng` read twice is two keys, not one."""


# the seeds entries every module of a project gets (`project_wide_seeds`)
PROJECT_WIDE = frozenset({KEY_PROPERTIES})


def project_wide_seeds(project) -> dict:  # noqa: ANN001 - ProjectIndex
    """The seeds entries every module of a project gets (and a notebook in it): the
    `KeyProperties` of a project whose classes define such a property, since which class an
    object of another module is of is not known, so the name speaks for it (v29 rows, tuning
    material: coax's examples read `q1.rng` of `coax.Q`, whose `rng` property comes from a
    mixin four imports away, JAX201 x12)."""
    names = sorted({n for s in project.summaries.values() for n in s.key_properties})
    return {KEY_PROPERTIES: KeyProperties(tuple(names))} if names else {}


def key_properties_seeds(project, seeds: dict) -> None:  # noqa: ANN001 - ProjectIndex
    """Add the project-wide entries (`project_wide_seeds`) to every module's seeds."""
    wide = project_wide_seeds(project)
    if wide:
        for path in sorted(project.summaries):
            seeds.setdefault(path, {}).update(wide)


SEED_ENTRIES: dict[
    str,
    type[StaticHelpers] | type[PassedArguments] | type[ImportedConstants] | type[ReturnUses],
] = {
    STATIC_HELPERS: StaticHelpers,
    BOOL_HELPERS: StaticHelpers,
    COMPILED_HELPERS: StaticHelpers,
    PASSED_ARGUMENTS: PassedArguments,
    IMPORTED_STATIC: StaticAttributes,
    IMPORTED_LEAVES: LeafAttributes,
    IMPORTED_CONSTANTS: ImportedConstants,
    RETURN_USES: ReturnUses,
    CONSTRUCTION_ONLY: ConstructionOnly,
    KEY_PROPERTIES: KeyProperties,
    UNAPPLIED_MODULES: StaticHelpers,
}


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
    # the modules of its top-level `from m import *` statements, in order
    star: list[str] = field(default_factory=list)
    # top-level functions that return a Python value whatever they are given (a return
    # annotation such as `-> tuple[int, ...]`, or only `x.shape[0]`-like returns:
    # analysis/kinds.py `static_functions`), for the taint analysis of their callers
    static_returns: list[str] = field(default_factory=list)
    # calls of other project functions, from anywhere in the module: absolute target ->
    # [the most positional arguments passed (-1: unknown, `*args`/`**kw`), keywords passed]
    passes: dict[str, list] = field(default_factory=dict)
    # whether its text uses a transform (only then do `StaticHelpers` matter to it), and its
    # decorated top-level functions with defaulted parameters (only their `PassedArguments`
    # matter): a seeds entry makes the file linted again, so entries are made only where used
    traced: bool = False
    defaulted: list[str] = field(default_factory=list)
    # key helper -> the paths of its return value that carry values derived from its key
    # parameters (analysis/flow/key_products.py); absent: unknown
    key_products: dict[str, list[list[int | str]]] = field(default_factory=dict)
    # key helper -> the key parameters it draws from on every path (flow/key_draws.py)
    key_draws: dict[str, list[str]] = field(default_factory=dict)
    # attribute names its classes declare static (pytree meta fields, shape-metadata
    # properties) and declare as data (pytree data fields): analysis/pytrees.py
    static_attributes: list[str] = field(default_factory=list)
    data_attributes: list[str] = field(default_factory=list)
    # top-level functions whose every return is a Python bool (analysis/kinds.py
    # `bool_functions`): a static argument made from one takes at most two values
    bool_returns: list[str] = field(default_factory=list)
    # top-level names assigned once, to a literal: name -> value (analysis/constants.py)
    constants: dict[str, Literal] = field(default_factory=dict)
    # classes its parameter annotations name through an imported module (`def f(x:
    # e3nn.IrrepsArray)` with `import e3nn_jax as e3nn`: "e3nn_jax.IrrepsArray"), whose
    # modules' static attributes it reads too (`static_attributes` below)
    annotated: list[str] = field(default_factory=list)
    # top-level flax Module classes whose `init` draws nothing from its key
    # (flow/key_drawfree.py), for the key analysis of the modules that import them
    drawfree_modules: list[str] = field(default_factory=list)
    # the leaves of its pytree classes (`PytreeFields.leaves`), and the attribute names its
    # traced code reads on a traced value without knowing their kind (`Level.FIELD`, read
    # without other modules' leaves): a `LeafAttributes` entry naming one of them changes
    # its findings (run/parallel.py `_relint`)
    leaf_attributes: list[str] = field(default_factory=list)
    field_reads: list[str] = field(default_factory=list)
    # its top-level functions that a jit factory compiles (`@jax.jit def step`, `step =
    # jax.jit(f)`), and whether it reads a clock (only then do other modules' matter to it)
    compiled: list[str] = field(default_factory=list)
    timed: bool = False
    # calls and other uses of other project functions: absolute target -> the positions of
    # the returned tuple they read, None when some use reads it whole (analysis/result_uses.py)
    return_uses: dict[str, list[int] | None] = field(default_factory=dict)
    # top-level functions that return a consumed key: name -> its positions in the returned
    # tuple (-1: the value itself), whatever the callers do (`KeyFlow.returned_keys`)
    key_returns: dict[str, list[int]] = field(default_factory=dict)
    # top-level flax.linen Module classes: their `init`/`apply` fold module paths into the key
    # they are given (`KeyFlow.folds_module_paths`), for the modules that import them
    linen_modules: list[str] = field(default_factory=list)
    # public methods (`Class.method`) of top-level classes with a jitted method that the class
    # calls only while an object is built, and those it never calls; the public method names
    # this module calls on anything but such a class's own `self`, but in set-up calls; and
    # its set-up calls (`Class.method` right after `v = Class(...)`): analysis/construction.py
    init_methods: list[str] = field(default_factory=list)
    setup_methods: list[str] = field(default_factory=list)
    method_calls: list[str] = field(default_factory=list)
    setup_calls: list[str] = field(default_factory=list)
    # properties of its classes that split the object's key and return the new half
    # (analysis/flow/key_attributes.py `key_properties`)
    key_properties: list[str] = field(default_factory=list)
    names_transform: bool = False  # its text names one; its Modules: analysis/applied_modules.py
    module_classes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "format": SUMMARY_FORMAT,
            "module": self.module,
            "outgoing": [[t, s.to_json()] for t, s in self.outgoing],
            "exports": dict(self.exports),
            "key_params": {k: list(v) for k, v in self.key_params.items()},
            "key_positions": {k: list(v) for k, v in self.key_positions.items()},
            "imported": dict(self.imported),
            "star": list(self.star),
            "static_returns": list(self.static_returns),
            "passes": {k: list(v) for k, v in self.passes.items()},
            "traced": self.traced,
            "defaulted": list(self.defaulted),
            "key_products": {k: [list(p) for p in v] for k, v in self.key_products.items()},
            "key_draws": {k: list(v) for k, v in self.key_draws.items()},
            "static_attributes": list(self.static_attributes),
            "data_attributes": list(self.data_attributes),
            "bool_returns": list(self.bool_returns),
            "constants": {
                k: list(v) if isinstance(v, tuple) else v for k, v in self.constants.items()
            },
            "annotated": list(self.annotated),
            "drawfree_modules": list(self.drawfree_modules),
            "leaf_attributes": list(self.leaf_attributes),
            "field_reads": list(self.field_reads),
            "compiled": list(self.compiled),
            "timed": self.timed,
            "return_uses": {k: None if v is None else list(v) for k, v in self.return_uses.items()},
            "key_returns": {k: list(v) for k, v in self.key_returns.items()},
            "linen_modules": list(self.linen_modules),
            "init_methods": list(self.init_methods),
            "setup_methods": list(self.setup_methods),
            "method_calls": list(self.method_calls),
            "setup_calls": list(self.setup_calls),
            "key_properties": list(self.key_properties),
            "names_transform": self.names_transform,
            "module_classes": list(self.module_classes),
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
            [str(m) for m in data.get("star", [])],
            [str(f) for f in data.get("static_returns", [])],
            {str(k): list(v) for k, v in data.get("passes", {}).items()},
            bool(data.get("traced", False)),
            [str(f) for f in data.get("defaulted", [])],
            {
                str(k): [[i if isinstance(i, str) else int(i) for i in p] for p in v]
                for k, v in data.get("key_products", {}).items()
            },
            {str(k): [str(n) for n in v] for k, v in data.get("key_draws", {}).items()},
            [str(a) for a in data.get("static_attributes", [])],
            [str(a) for a in data.get("data_attributes", [])],
            [str(f) for f in data.get("bool_returns", [])],
            {str(k): _literal_json(v) for k, v in data.get("constants", {}).items()},
            [str(t) for t in data.get("annotated", [])],
            [str(c) for c in data.get("drawfree_modules", [])],
            [str(a) for a in data.get("leaf_attributes", [])],
            [str(a) for a in data.get("field_reads", [])],
            [str(f) for f in data.get("compiled", [])],
            bool(data.get("timed", False)),
            {
                str(k): None if v is None else [int(i) for i in v]
                for k, v in data.get("return_uses", {}).items()
            },
            {str(k): [int(i) for i in v] for k, v in data.get("key_returns", {}).items()},
            [str(c) for c in data.get("linen_modules", [])],
            [str(m) for m in data.get("init_methods", [])],
            [str(m) for m in data.get("setup_methods", [])],
            [str(m) for m in data.get("method_calls", [])],
            [str(m) for m in data.get("setup_calls", [])],
            [str(m) for m in data.get("key_properties", [])],
            bool(data.get("names_transform", False)),
            [str(m) for m in data.get("module_classes", [])],
        )


# -- module names -------------------------------------------------------------------------------


def module_names(
    path: str, root: str | None = None, packages: dict[str, list[str]] | None = None
) -> tuple[list[str], bool]:
    """The names a file is imported by: its package-based name (`pkg.sub.mod`) and, inside
    `root`, its root-relative name (namespace packages, `src/`-less layouts); whether it is a
    package `__init__`. `packages`: folder -> package path, memoised across calls."""
    path = os.path.abspath(path)
    folder, base = os.path.split(path)
    stem = base.rsplit(".", 1)[0]
    is_package = stem == "__init__"
    memo = packages if packages is not None else {}
    if folder not in memo:
        memo[folder] = _package_chain(folder)
    parts = list(memo[folder]) if is_package else [*memo[folder], stem]
    names = [".".join(parts)] if parts and all(p.isidentifier() for p in parts) else []
    if root is not None:
        rel = os.path.relpath(os.path.join(folder, "" if is_package else stem), root)
        rparts = [] if rel == "." else rel.split(os.sep)
        if rparts and all(p.isidentifier() for p in rparts):
            name = ".".join(rparts)
            if name not in names:
                names.append(name)
    # a `src/` layout installs the packages under `src/` (setuptools `where = ["src"]`), so
    # `src/pkg/mod.py` is imported as `pkg.mod`, with or without a `src/__init__.py`
    for name in list(names):
        if name.startswith("src.") and name[4:] not in names:
            names.append(name[4:])
    return names, is_package


def _package_chain(folder: str) -> list[str]:
    """The package path of `folder`: it and the folders above it with an `__init__.py`."""
    parts: list[str] = []
    d = folder
    while os.path.isfile(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return parts


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


class Loader(Protocol):
    """What the index reads beyond the summaries (`jaxlint.project_index.Loader`)."""

    def derive(
        self, path: str, names: list[str], seeds: Mapping[str, object], base: ModuleSummary
    ) -> ModuleSummary | None: ...

    def public_names(self, path: str) -> frozenset[str] | None: ...

    def called(self, path: str, helpers: KeyHelpers) -> KeyHelpers | None: ...


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
