"""Summaries of one module for the project index: what its top-level functions do with
traced arguments and keys, what it imports and re-exports (`summarize`), and whether a file
needs one at all (`needs_summary`). Split from `analysis/project.py`, which joins the
summaries across modules (`ProjectIndex`); see its docstring for the model.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Mapping

from jaxlint.analysis.applied_modules import applies_transforms
from jaxlint.analysis.bool_results import bool_functions
from jaxlint.analysis.constants import module_constants
from jaxlint.analysis.construction import construction_facts
from jaxlint.analysis.flow.key_attributes import key_properties
from jaxlint.analysis.flow.key_drawfree import DrawFree
from jaxlint.analysis.flow.key_products import derived_return_paths, path_order
from jaxlint.analysis.flow.keys import KEY_HELPERS
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import GRAD_LIKE, JIT_FACTORIES, JIT_LIKE, PARTIAL
from jaxlint.analysis.kinds import static_functions
from jaxlint.analysis.project_data import (
    MAX_CHAIN,
    MODULE_CALL_SUFFIX,
    STAR,
    ModuleSummary,
    Seed,
    _resolve_relative,
    call_tables,
    defaulted_functions,
)
from jaxlint.analysis.project_text import (
    _IMPORT,
    CONSTANT_ASSIGNMENT,
    uses_random,
    uses_transform,
)
from jaxlint.analysis.result_uses import return_uses
from jaxlint.analysis.static_elements import static_element_names
from jaxlint.analysis.traced import TracedFunction
from jaxlint.analysis.transforms import TracedKind, module_library


def returned_kinds(index: ModuleIndex) -> tuple[list[str], list[str]]:
    """What the module's top-level functions return that its importers can rely on: whole
    results and `f#i` elements of returned tuples that are Python values (`static_functions`,
    analysis/static_elements.py), and results that take two values (`bool_functions`).
    Asked of the whole module even when the rest of its summary is its imports only
    (`project_index.summarize_text`): a helper module with no transform (`pad_last_axis_to`
    returning `(jnp.pad(A, ...), int(A.shape[-1]))`) gave its importers these facts only when
    it was linted itself, so linting the importer alone reported what linting the project did
    not."""
    return static_functions(index) + static_element_names(index), bool_functions(index)


_TOP_LEVEL_DEF = re.compile(r"^(?:async\s+)?def\s", re.MULTILINE)


def returned_kinds_of(tree: ast.Module, text: str) -> tuple[list[str], list[str]]:
    """`returned_kinds` of a module summarised by its imports only (no transform, no
    `jax.random`), indexed only when it defines a top-level function."""
    if _TOP_LEVEL_DEF.search(text) is None:
        return [], []
    return returned_kinds(ModuleIndex(tree))


def needs_summary(
    path: str,
    text: str,
    jit_decorators: tuple[str, ...] = (),
    linted: bool = False,
    used: tuple[bool, bool] | None = None,
) -> bool:
    """Transform users produce seeds; package `__init__` files may re-export seeded names;
    `jax.random` users may have helpers that consume keys; a module that assigns a number
    at its top level may give its importers constants (`ModuleSummary.constants`). A file being linted also needs
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
            or CONSTANT_ASSIGNMENT.search(text) is not None
        )
    return (
        os.path.basename(path) == "__init__.py"
        or uses_transform(text, jit_decorators)
        or uses_random(text)
        or (linted and _IMPORT.search(text) is not None)
        or CONSTANT_ASSIGNMENT.search(text) is not None
    )


# -- summaries ----------------------------------------------------------------------------------


def _eligible(facts: TracedFunction | None) -> bool:
    """Callers whose tracedness is certain enough to seed other modules."""
    return (
        facts is not None
        and not facts.unknown_static
        and not facts.via.endswith(MODULE_CALL_SUFFIX)
        and facts.confidence == "high"  # transformed itself, not a helper reached by a chain
    )


_NAME, _ATTRIBUTE, _CALL = ast.Name, ast.Attribute, ast.Call
_UNSEEN = object()  # `_Imports.dotted`: a name not looked up yet in its scope


class _Imports:
    """Absolute dotted names of expressions rooted at an imported name (relative imports too)."""

    def __init__(self, index: ModuleIndex | None, module: str, is_package: bool) -> None:
        self.index = index
        self.module = module
        self.is_package = is_package
        # the root name's scope -> the name -> (the absolute name it is imported as, its
        # first component), or None (not an import): `call_tables` asks it for every call of
        # the module
        self._bases: dict[object, dict[str, tuple[str, str] | None]] = {}

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

    def dotted(self, expr: ast.AST, root: str = "") -> str | None:
        """The absolute dotted name of a Name/Attribute chain rooted at an imported name;
        with `root`, None unless its first component is `root` (decided before the name is
        spelled: most calls of a module are not to its own package)."""
        head = expr
        while type(head) is _ATTRIBUTE:  # exact classes: the parser makes no subclasses
            head = head.value
        index = self.index
        if type(head) is not _NAME or index is None:
            return None
        name = head.id
        # `ModuleIndex.lookup` from any scope ends in the module's for a name no inner scope
        # binds (a `global` declaration leads there too): such a name is looked up once
        if name in index.inner_names():
            scope = index.scope_of(head)
        else:
            scope = index.scopes[index.tree]
        names = self._bases.get(scope)
        if names is None:
            names = self._bases[scope] = {}
        found = names.get(name, _UNSEEN)
        if found is _UNSEEN:
            b = index.binding(name, scope)
            if b is None or b.kind != "import" or b.node is None:
                found = None
            else:
                base = self.import_target(b.node, name)
                found = (base, base.split(".", 1)[0]) if base else None
            names[name] = found
        if found is None or (root and found[1] != root):  # type: ignore[index]
            return None  # most chains: their attributes are not spelled
        if head is expr:
            return found[0]  # type: ignore[index]
        parts: list[str] = []
        while type(expr) is _ATTRIBUTE:
            parts.append(expr.attr)
            expr = expr.value
        parts.append(found[0])  # type: ignore[index]
        parts.reverse()
        return ".".join(parts)


def _annotated_classes(index: ModuleIndex, imported: dict[str, str]) -> list[str]:
    """`m.C` in a parameter annotation, `m` an imported module: the absolute `pkg.C` (a class
    reached through a package's re-export, whose pytree fields the module reads)."""
    out: set[str] = set()
    for fn in index.functions:
        args = getattr(fn, "args", None)
        if args is None:
            continue
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            ann = a.annotation
            if ann is None or isinstance(ann, (ast.Name, ast.Constant)):
                continue  # no attribute in it (`x: Array`, `x: "Array"`)
            if isinstance(ann, ast.Attribute) and isinstance(ann.value, ast.Name):
                # `x: jax.Array`, the common case: the walk below finds this node alone
                base = imported.get(ann.value.id)
                if base is not None:
                    out.add(f"{base}.{ann.attr}")
                continue
            _qualified_attributes(ann, imported, out)
    return sorted(out)


def _qualified_attributes(ann: ast.AST, imported: dict[str, str], out: set[str]) -> None:
    """Add `base.attr` for each `m.attr` under `ann` whose `m` is imported as `base` (the
    node kinds annotations are made of taken apart here, any other walked whole)."""
    stack = [ann]
    while stack:
        node = stack.pop()
        cls = type(node)
        if cls is ast.Attribute:
            value = node.value  # type: ignore[attr-defined]
            if type(value) is ast.Name:
                base = imported.get(value.id)
                if base is not None:
                    out.add(f"{base}.{node.attr}")  # type: ignore[attr-defined]
            else:
                stack.append(value)
        elif cls is ast.Subscript:
            stack.append(node.value)  # type: ignore[attr-defined]
            stack.append(node.slice)  # type: ignore[attr-defined]
        elif cls is ast.BinOp:
            stack.append(node.left)  # type: ignore[attr-defined]
            stack.append(node.right)  # type: ignore[attr-defined]
        elif cls is ast.Tuple or cls is ast.List:
            stack.extend(node.elts)  # type: ignore[attr-defined]
        elif cls is not ast.Name and cls is not ast.Constant:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                    base = imported.get(sub.value.id)
                    if base is not None:
                        out.add(f"{base}.{sub.attr}")


def _imported_names(facts, imports: _Imports, out: ModuleSummary) -> None:  # noqa: ANN001
    """What a caller of key helpers imports (`ModuleSummary.imported`): the names its
    top-level `from m import f` statements bind, and the modules its top-level `import`
    statements bind (`import pkg.m as m`: `m` -> `pkg.m`; `import pkg.m`: `pkg.m` -> `pkg.m`),
    whose helpers it calls as `m.f` / `pkg.m.f`; the imports inside functions too, when every
    import of that name means the same thing (the key analysis matches calls by name, and
    checks the name is bound by an import where it is called); and the modules of its
    top-level `from m import *` statements, in order (`ModuleSummary.star`)."""
    for stmt in _top_level_imports(facts.index):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                if alias.name == "*":
                    if isinstance(stmt, ast.ImportFrom):
                        star = _star_module(stmt, imports)
                        if star:
                            out.star.append(star)
                    continue
                if isinstance(stmt, ast.Import):  # `import a.b` is called as `a.b.f(...)`
                    local = alias.asname or alias.name
                    target: str | None = alias.name
                else:
                    local = alias.asname or alias.name
                    target = imports.import_target(stmt, local)
                if target and local not in out.exports:
                    out.imported[local] = target
    inner: dict[str, set[str]] = {}
    for node in facts.index.nested_imports:
        for alias in node.names:
            local = alias.asname or alias.name
            if isinstance(node, ast.Import):
                target = alias.name
            else:
                target = imports.import_target(node, local) if alias.name != "*" else None
            inner.setdefault(local, set()).add(target or "")
    for name, targets in sorted(inner.items()):
        target = next(iter(targets)) if len(targets) == 1 else ""
        known = out.imported.get(name)
        if target and name not in out.exports and known in (None, target):
            out.imported[name] = target
        elif known is not None and known != target:
            del out.imported[name]  # two meanings: unknown


def _top_level_imports(index: ModuleIndex) -> list[ast.stmt]:
    """The module's top-level statements, and the imports of a top-level `try:` body that
    bind the name they import (`ModuleIndex.binding`: `try: from .utils import f` / `except
    ImportError: from utils import f`, the same function either way)."""
    tree = index.tree
    out: list[ast.stmt] = list(tree.body)
    scope = index.scopes[tree]
    for stmt in tree.body:
        if isinstance(stmt, _TRY):
            for inner in stmt.body:
                if not isinstance(inner, ast.ImportFrom):
                    continue
                names = [
                    a
                    for a in inner.names
                    if (b := index.binding(a.asname or a.name, scope)) is not None
                    and b.node is inner
                ]
                if names:
                    out.append(ast.ImportFrom(module=inner.module, names=names, level=inner.level))
    return out


_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))


def _star_module(stmt: ast.ImportFrom, imports: _Imports) -> str | None:
    if stmt.level:
        return _resolve_relative(imports.module, imports.is_package, stmt.level, stmt.module)
    return stmt.module


def _function_arg(call: ast.Call) -> ast.AST | None:
    """`jax.grad(f)(...)`: the function that runs."""
    return None if not call.args or isinstance(call.args[0], ast.Starred) else call.args[0]


def drawfree_modules(facts) -> list[str]:  # noqa: ANN001 - analysis.ModuleFacts
    """Top-level flax Module classes whose `init` draws nothing (flow/key_drawfree.py), proven
    from this module alone (a submodule imported from elsewhere is unknown here)."""
    drawfree = DrawFree(facts.calls)
    return sorted(
        stmt.name
        for stmt in facts.tree.body
        if isinstance(stmt, ast.ClassDef) and drawfree.class_draws_nothing(stmt)
    )


def linen_modules(facts) -> list[str]:  # noqa: ANN001 - analysis.ModuleFacts
    """Top-level classes deriving from a flax.linen Module (`Transforms.module_library`):
    an importer's `Model().init(key, x)` folds module paths into `key` (v22 rows, tuning
    material: jax_nbody_emulator tests, `normal(key, ...)` then an imported linen Module's
    `init(key, ...)`, JAX201 medium x40)."""
    names = {
        stmt.name
        for stmt in facts.tree.body
        if isinstance(stmt, ast.ClassDef) and facts.transforms.module_library(stmt) == "flax.linen"
    }
    for stmt in facts.tree.body:  # `Conv3D = partial(ConvBase3D, kernel_size=3)`, `Alias = Cls`
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            continue
        value = stmt.value
        if (
            isinstance(value, ast.Call)
            and facts.index.qualname(value.func) in PARTIAL
            and value.args
        ):
            value = value.args[0]
        if isinstance(value, ast.Name) and value.id in names:
            names.add(stmt.targets[0].id)
    return sorted(names)


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
    out.static_returns, out.bool_returns = returned_kinds(facts.index)
    out.constants = module_constants(tree)
    if facts.index.classes:
        pytrees = facts.pytrees
        out.static_attributes = sorted(set().union(*pytrees.static.values()))
        out.data_attributes = sorted(set().union(*pytrees.data.values()))
        out.leaf_attributes = sorted(set().union(*pytrees.leaves.values()))
    calls_imports = _Imports(facts.index, module, is_package)
    out.passes, called = call_tables(facts.index, calls_imports, module)
    # a flax/equinox Module's methods are traced when it is applied, with no transform named
    # in this text: they read the kinds other modules give too (e3nn-jax's `LinearSHTP`)
    out.module_classes = [c.name for c in facts.index.classes if module_library(facts.index, c)]
    defines_modules = bool(out.module_classes)
    out.names_transform = transforms_used and applies_transforms(facts)
    out.traced, out.defaulted = transforms_used or defines_modules, defaulted_functions(tree)
    if defines_modules:
        out.drawfree_modules = drawfree_modules(facts)
        out.linen_modules = linen_modules(facts)
    if random_used:  # KeyFlow returns at once in a module without `jax.random` calls
        _key_params(facts, out)
        if facts.index.classes:
            out.key_properties = key_properties(facts.index)
    _imported_names(facts, imports, out)
    out.return_uses = return_uses(facts.index, calls_imports, module, out.imported, called)
    out.init_methods, out.setup_methods, out.method_calls, out.setup_calls = construction_facts(
        facts.index
    )
    if out.static_attributes or out.imported:
        out.annotated = _annotated_classes(facts.index, out.imported)
    out.field_reads = sorted(facts.field_reads())
    out.timed = facts.reads_clock
    if transforms_used:
        out.compiled = compiled_functions(facts)
    if not transforms_used or not module:
        return out
    imports.index = facts.index
    if any(_eligible(f) for f in facts.traced.entries.values()):  # no taint needed to know
        _outgoing(facts, imports, out, lambda fn, f: _eligible(f))
    return out


def summarize_seeded(
    facts,  # noqa: ANN001 - analysis.ModuleFacts, analysed with `seeds`
    base: ModuleSummary,
    is_package: bool,
    seeds: Mapping[str, object],
) -> ModuleSummary:
    """What a module passes on once other modules' seeds reach it (`ProjectIndex` chains):
    its summary without seeds (`base`), plus the outgoing calls of its seeded top-level
    functions (traced at the seeded parameters, with the chain so far), and with the key
    parameters its functions consume counting the key helpers of other modules it calls.
    Each part is analysed only when seeds of its kind arrived. Cached by content and seeds
    (`jaxlint.project_index.Loader`)."""
    out = ModuleSummary.from_json(base.to_json())  # a copy, every field included
    if KEY_HELPERS in seeds:
        out.key_params, out.key_positions = {}, {}
        _key_params(facts, out)
    if not base.module:
        return out
    imports = _Imports(facts.index, base.module, is_package)
    defs = {
        s.name: s for s in facts.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    calling = [
        fn
        for name, fn in defs.items()
        if isinstance(seeds.get(name), Seed) and _calls_out(fn, imports, bool(base.star))
    ]
    if not calling:
        return out  # no seeded function calls another module: no taint analysis needed

    def seeded(fn: ast.AST, f: TracedFunction | None) -> bool:
        seed = seeds.get(getattr(fn, "name", ""))
        return (
            fn in calling
            and isinstance(seed, Seed)
            and f is not None
            and f.confidence == "medium"
            and not f.unknown_static
            and f.chain == seed.chain
            and len(seed.chain) < MAX_CHAIN
        )

    if any(seeded(fn, f) for fn, f in facts.traced.entries.items()):
        _outgoing(facts, imports, out, seeded)
    return out


def _calls_out(fn: ast.AST, imports: _Imports, star: bool) -> bool:
    """Whether a function calls a name bound by an import (or maybe by a star import)."""
    index = imports.index
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        for func in (node.func, *(node.func.args[:1] if isinstance(node.func, ast.Call) else ())):
            root = func
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name) or index is None:
                continue
            scope = index.scope_of(root)
            b = index.binding(root.id, scope)
            if (b is not None and b.kind == "import") or (
                star and index.lookup(root.id, scope) is None
            ):
                return True
    return False


def _key_params(facts, out: ModuleSummary) -> None:  # noqa: ANN001
    """The key parameters each top-level function consumes (`ModuleSummary.key_params`), and
    the functions that return a consumed key (`key_returns`)."""
    top = set(facts.tree.body)
    out.key_returns = {fn: sorted(p) for fn, p in sorted(facts.keys.returned_keys.items())}
    for fn, params in facts.keys.consuming_params.items():
        if fn in top and params:
            out.key_params[fn.name] = sorted(params)
            positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            out.key_positions[fn.name] = [
                positional.index(p) if p in positional else -1 for p in sorted(params)
            ]
            drawn = facts.keys.drawing_params.get(fn)
            if drawn:
                out.key_draws[fn.name] = sorted(drawn)
            paths = derived_return_paths(facts.index, fn, params)
            if paths is not None:
                out.key_products[fn.name] = [list(p) for p in sorted(paths, key=path_order)]


def compiled_functions(facts) -> list[str]:  # noqa: ANN001 - analysis.ModuleFacts
    """The module's top-level names bound to a jit-compiled function: a def a jit factory is
    applied to as a decorator (`@jax.jit`, `@partial(jax.jit, ...)`), and `step =
    jax.jit(f)` at module level. Another module that times a call of one knows it dispatches
    device work (the timing rules)."""
    index = facts.index
    out: set[str] = set()
    for stmt in facts.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            app = facts.transforms.applied.get(stmt)
            if app is not None and app.kind is TracedKind.JIT and app.via in JIT_FACTORIES:
                out.add(stmt.name)
        elif (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
            and index.qualname(stmt.value.func) in JIT_FACTORIES
        ):
            out.add(stmt.targets[0].id)
    return sorted(out)


def _traced_argument(level: int) -> bool:
    """An argument that makes another module's function traced: a traced value or a
    container of them, not a value of unknown kind (`Level.FIELD`)."""
    from jaxlint.analysis.flow.levels import Level

    return level >= Level.CONTAINER and level != Level.FIELD


def _outgoing(facts, imports: _Imports, out: ModuleSummary, eligible) -> None:  # noqa: ANN001
    """Calls from the `eligible` functions to top-level functions of other modules, with the
    positions and keywords that receive traced values (`ModuleSummary.outgoing`)."""
    index: ModuleIndex = facts.index
    traced = facts.traced
    taint = traced.taint
    short = out.module.rsplit(".", 1)[-1]
    grad_like = {*GRAD_LIKE, *JIT_LIKE}
    for call in index.calls:
        fn = index.enclosing_function(call)
        caller = traced.get(fn)
        if caller is None or not eligible(fn, caller):
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
        if target is None and out.star and isinstance(func, ast.Name):
            if index.lookup(func.id, index.scope_of(func)) is None:
                target = STAR + func.id  # bound by a `from m import *` (ProjectIndex.resolve)
        if target is None or "." not in target:
            continue
        positions: list[int] = []
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Starred):
                break
            if _traced_argument(taint.level(a)):
                positions.append(i)
        keywords = sorted(
            kw.arg for kw in call.keywords if kw.arg and _traced_argument(taint.level(kw.value))
        )
        if not positions and not keywords:
            continue  # only static values: the callee is not traced through this call
        if caller.confidence == "high":
            chain = tuple(f"{short}.{n}" for n in (caller.chain or (caller.name,)))
        else:  # a seeded function: its chain is already qualified
            chain = caller.chain
        seed = Seed.of_call(
            caller.kind.value, caller.via, tuple(positions), tuple(keywords), chain, call
        )
        out.outgoing.append((target, seed))


# -- the index ----------------------------------------------------------------------------------
