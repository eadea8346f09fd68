"""JAX1xx: host conversions, Python control flow and shapes on traced values.

One rule per module, named after the rule; `_truth.py` and `_masks.py` hold what two rules of the
family share. This package re-exports the rule classes (the registry in `jaxlint.rules` finds them
here) and the public names of the former single `tracing.py`, so imports from
`jaxlint.rules.tracing` keep working.
"""

from __future__ import annotations

from jaxlint.rules.tracing._masks import ELEMENTWISE_PREDICATES
from jaxlint.rules.tracing._truth import truth_culprit
from jaxlint.rules.tracing.assert_on_traced import AssertOnTraced
from jaxlint.rules.tracing.boolean_mask_indexing_in_traced import (
    AT_UPDATES,
    WHERE_REDUCTIONS,
    BooleanMaskIndexingInTraced,
)
from jaxlint.rules.tracing.data_dependent_shape_without_size import (
    DATA_DEPENDENT_SHAPE,
    INDEX_RESULTS,
    UNIQUE_RESULTS,
    DataDependentShapeWithoutSize,
)
from jaxlint.rules.tracing.device_get_in_traced import DeviceGetInTraced
from jaxlint.rules.tracing.host_conversion_of_traced_value import (
    CONCRETE_METHODS,
    CONVERTING_BUILTINS,
    JNP_EQUIVALENT,
    HostConversionOfTracedValue,
)
from jaxlint.rules.tracing.print_traced_value import PrintTracedValue
from jaxlint.rules.tracing.python_control_flow_on_traced import PythonControlFlowOnTraced
from jaxlint.rules.tracing.traced_value_as_shape_or_index import (
    RANDOM_SHAPE_POS,
    SHAPE_FUNCS,
    TracedValueAsShapeOrIndex,
)

__all__ = [
    "AT_UPDATES",
    "CONCRETE_METHODS",
    "CONVERTING_BUILTINS",
    "DATA_DEPENDENT_SHAPE",
    "ELEMENTWISE_PREDICATES",
    "INDEX_RESULTS",
    "JNP_EQUIVALENT",
    "RANDOM_SHAPE_POS",
    "SHAPE_FUNCS",
    "UNIQUE_RESULTS",
    "WHERE_REDUCTIONS",
    "AssertOnTraced",
    "BooleanMaskIndexingInTraced",
    "DataDependentShapeWithoutSize",
    "DeviceGetInTraced",
    "HostConversionOfTracedValue",
    "PrintTracedValue",
    "PythonControlFlowOnTraced",
    "TracedValueAsShapeOrIndex",
    "truth_culprit",
]
