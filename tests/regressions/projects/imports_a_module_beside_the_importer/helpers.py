"""A root-level `helpers`: `tools/run.py` imports the `helpers.py` beside it instead (its
folder is no package, so a script run from it, or any module imported from it, gets that one
first; a folder without `__init__.py` names its modules by their stems, so this was so before
the sibling rule too)."""


def scale(x, n):
    if n > 1:
        return x * n
    return x
