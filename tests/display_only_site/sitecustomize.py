"""Loaded by the LSP server that tests/test_display_only.py starts (on its PYTHONPATH): turns
JAX102's fix into a display-only suggestion, so the real server meets a display-only fix."""

from jaxlint.rules import get_rule

get_rule("JAX102").fix_safety = "display-only"
