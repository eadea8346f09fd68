"""Modules whose flax/equinox Module classes nothing in the project applies under a transform.

A Module's `__call__` is traced only when someone applies the Module under jit, vmap, grad or
scan. Inside one file nothing says who does, so the analysis assumed it (medium confidence):
right for a model file that a training script imports and jits, wrong for a demo script or
notebook that builds Modules and calls `init`/`apply` eagerly, where Python `if`s on their
inputs are ordinary Python (v30 wax-ml notebooks: JAX110 x4, JAX130, tuning material).

The project index decides it: a module may have its Modules applied under a transform when its
own code applies one (`ModuleSummary.names_transform`, from `applies_transforms`: a call,
decorator or argument that resolves to a JAX, flax or equinox transform; a docstring that
says "selective scan" is not one, v31 mamba2-minimal-jax, JAX103 x30), or when a module that
may apply them imports it (`from models import Net`, `import pkg.layers as layers`, following package
re-exports), transitively: layers.py <- model.py <- train.py (which jits) keeps layers.py's
Modules traced. Only scripts and the modules beside them are judged so (a module of no
package: its name has no dot; notebooks, in engine.py): a package's Modules are its API, which
users apply under jit outside the project (e3nn-jax's `LinearSHTP`, v9), so there the
assumption stays. A script-level module that defines Modules and that no such chain reaches gets
the `UNAPPLIED_MODULES` seeds entry, and `TracedFunctions` leaves its Module methods untraced.
Without a project index (a text on stdin) the assumption stays.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.project_data import StaticHelpers
from jaxlint.analysis.seed_keys import UNAPPLIED_MODULES

__all__ = ["applies_transforms", "unapplied_seeds"]


def applies_transforms(facts) -> bool:  # noqa: ANN001 - analysis.ModuleFacts
    """The module's code names a transform that could run a Module: a call of one (`jax.jit(f)`,
    `jax.lax.scan(body, ...)`), one passed as an argument (`partial(jax.jit, ...)`), or a
    decorator (`@jax.jit`, `@nnx.jit(...)`), resolved through the imports (the project's own
    jit decorators too). Words in strings and comments do not count."""
    index, classify = facts.index, facts.transforms.classify
    for call in index.calls:
        if classify(index.qualname(call.func)) in ("jit", "grad"):
            return True
        for arg in call.args:
            if type(arg) in (ast.Name, ast.Attribute) and classify(index.qualname(arg)) in (
                "jit",
                "grad",
            ):
                return True
    for fn in index.functions:
        for dec in getattr(fn, "decorator_list", ()):
            target = dec.func if isinstance(dec, ast.Call) else dec
            if classify(index.qualname(target)) in ("jit", "grad"):
                return True
    return False


def _imports_of(project, path: str) -> set[str]:  # noqa: ANN001 - ProjectIndex
    """The project modules `path` imports (the defining module of each name it imports, and
    the module itself for `import m` / `from pkg import m`; star imports too)."""
    summary = project.summaries[path]
    out: set[str] = set()
    for target in (*summary.imported.values(), *summary.star):
        found = project.resolve(target, path)
        if found is not None:
            out.add(found[0])
        module_path = project._module_path(target, path)
        if module_path is not None:
            out.add(module_path)
    out.discard(path)
    return out


def unapplied_seeds(project, seeds: dict) -> None:  # noqa: ANN001 - ProjectIndex
    """Add the `UNAPPLIED_MODULES` entry (a `StaticHelpers` of the Module class names) to the
    seeds of each module of no package that defines Modules and that no module applying a
    transform reaches through imports."""
    defining = [
        p for p, s in sorted(project.summaries.items()) if s.module_classes and "." not in s.module
    ]
    if not defining:
        return
    reached = {p for p, s in project.summaries.items() if s.names_transform}
    todo = sorted(reached)
    while todo:
        for imported in _imports_of(project, todo.pop()):
            if imported not in reached and imported in project.summaries:
                reached.add(imported)
                todo.append(imported)
    for path in defining:
        if path not in reached:
            classes = tuple(project.summaries[path].module_classes)
            seeds.setdefault(path, {})[UNAPPLIED_MODULES] = StaticHelpers(classes)
