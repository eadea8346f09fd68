"""The names of the project index's seeds entries: what other modules tell a module about
the values it reads from them (analysis/project_data.py builds them, analysis/kinds.py,
pytrees.py and the taint read them). A module of its own so that the engine and the pool can
ask which entries a file has without importing the kinds.
"""

from __future__ import annotations

from jaxlint.analysis.constants import IMPORTED_CONSTANTS

__all__ = [
    "BOOL_HELPERS",
    "COMPILED_HELPERS",
    "CONSTRUCTION_ONLY",
    "IMPORTED_LEAVES",
    "IMPORTED_STATIC",
    "KEY_PROPERTIES",
    "NO_ENTRIES",
    "PASSED_ARGUMENTS",
    "RETURN_USES",
    "STATIC_HELPERS",
    "TAINT_REMOVING",
    "UNAPPLIED_MODULES",
]

# the seeds entry (analysis.project_data.StaticHelpers) naming other modules' functions, as
# this module calls them, whose result is a Python value
STATIC_HELPERS = "<static returns>"
# the seeds entry (analysis.project_data.PassedArguments): what other modules pass this
# module's top-level functions
PASSED_ARGUMENTS = "<passed arguments>"
# the seeds entry (analysis.project_data.StaticAttributes): attribute names that the classes
# of the modules this module imports declare static (pytree meta fields, shape properties)
IMPORTED_STATIC = "<static attributes>"
# the seeds entry (analysis.project_data.LeafAttributes): attribute names that the pytree
# classes of the modules this module imports declare as leaves (traced on a traced object)
IMPORTED_LEAVES = "<leaf attributes>"
# the seeds entry (analysis.project_data.StaticHelpers under this key) naming other modules'
# functions, as this module calls them, whose result is a Python bool (`returns_bool`)
BOOL_HELPERS = "<bool returns>"
# the seeds entries that only take taint away: they never make a file traced
# (and `constants.IMPORTED_CONSTANTS`, the values of other modules' constants)
TAINT_REMOVING = frozenset(
    {STATIC_HELPERS, PASSED_ARGUMENTS, IMPORTED_STATIC, BOOL_HELPERS, IMPORTED_CONSTANTS}
)
# the seeds entries that make no function traced (a file they reach without JAX words has
# nothing for the taint to act on): these and the leaves, which only refine what a traced
# function reads
# the seeds entry (analysis.project_data.StaticHelpers under this key) naming other modules'
# jit-compiled functions, as this module calls them (`ModuleSummary.compiled`): a call of one
# dispatches device work and returns before it finishes (for the timing rules; given only to
# modules that read a clock)
COMPILED_HELPERS = "<compiled functions>"
# the seeds entry (analysis.project_data.ReturnUses): which elements of the returned tuples
# of this module's functions that return a consumed key other modules' calls read
# (analysis/result_uses.py); it only takes JAX201 findings away
RETURN_USES = "<return uses>"
# the seeds entry (analysis.project_data.ConstructionOnly): the public methods of this
# module's classes that only the class's own construction calls (`self.init_env()` from
# `__init__`) and no project module calls on an instance (analysis/instance_state.py); it
# only takes JAX409 findings away
CONSTRUCTION_ONLY = "<construction-only methods>"
# the seeds entry (analysis.project_data.KeyProperties): the names of properties that the
# project's classes define to split their own key and return the new half (coax's
# `RandomStateMixin.rng`): each read of one is a fresh key (analysis/flow/key_attributes.py);
# it only takes JAX2xx findings away
KEY_PROPERTIES = "<key properties>"
# the seeds entry (analysis.project_data.StaticHelpers, analysis/applied_modules.py): this module's flax/equinox
# Module classes, which no module of the project can apply under a transform; it takes their
# methods out of the traced table (a host-side rule may then see them, so a file that gets it
# is linted again: run/parallel.py `_relint`)
UNAPPLIED_MODULES = "<unapplied modules>"
NO_ENTRIES = TAINT_REMOVING | {
    IMPORTED_LEAVES,
    COMPILED_HELPERS,
    RETURN_USES,
    CONSTRUCTION_ONLY,
    KEY_PROPERTIES,
    UNAPPLIED_MODULES,
}
