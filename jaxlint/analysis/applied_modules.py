"""Modules whose flax/equinox Module classes nothing in the project applies under a transform.

A Module's `__call__` is traced only when someone applies the Module under jit, vmap, grad or
scan. Inside one file nothing says who does, so the analysis assumed it (medium confidence):
right for a model file that a training script imports and jits, wrong for a demo script or
notebook that builds Modules and calls `init`/`apply` eagerly, where Python `if`s on their
inputs are ordinary Python (v30 wax-ml notebooks: JAX110 x4, JAX130, tuning material).

The project index decides it: a module may have its Modules applied under a transform when its
own text names one (`ModuleSummary.names_transform`), or when a module that may apply them
imports it (`from models import Net`, `import pkg.layers as layers`, following package
re-exports), transitively: layers.py <- model.py <- train.py (which jits) keeps layers.py's
Modules traced. A module that defines Modules and that no such chain reaches gets the
`UNAPPLIED_MODULES` seeds entry, and `TracedFunctions` leaves its Module methods untraced.
Without a project index (a text on stdin) the assumption stays.
"""

from __future__ import annotations

from jaxlint.analysis.project_data import StaticHelpers
from jaxlint.analysis.seed_keys import UNAPPLIED_MODULES


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
    """Add the `UNAPPLIED_MODULES` entry (a `StaticHelpers` of the Module class names) to the seeds of each module that defines Modules and that no
    module naming a transform reaches through imports."""
    defining = [p for p in sorted(project.summaries) if project.summaries[p].module_classes]
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
