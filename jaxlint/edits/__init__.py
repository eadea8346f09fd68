"""The fix toolkit: edits built over a `ModuleView` (imports, hoisting, renames), no rule import."""
