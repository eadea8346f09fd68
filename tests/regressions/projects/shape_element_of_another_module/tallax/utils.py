"""oliverdutton/tallax `tallax/_src/utils.py:172-181` (v15 rows, tuning material): a helper
that returns the operand's leaves next to their shape, a tuple of Python ints. Its summary
names element 1 of what it returns static (`canonicalize_operand#1`,
analysis/static_elements.py); `leaves_and_size` returns a traced size there (its twin)."""

import jax


def canonicalize_operand(operand):
    operands = jax.tree.leaves(operand)
    shapes = [x.shape for x in operands]
    if len(set(shapes)) != 1:
        raise ValueError(f"Inputs must all have the same shape, but found {shapes=}")
    shape = shapes[0]
    return operands, shape


def leaves_and_size(operand):
    operands = jax.tree.leaves(operand)
    return operands, operands[0].sum()
