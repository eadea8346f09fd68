"""The floor: values, text and tables every layer may import (no AST analysis, no rule).

`diagnostic` (positions, spans, edits, fixes, diagnostics), `source` (decoding), `parse` (the
one parse-with-downgrade), `codes` (the rule-code table), `config`, `suppressions`,
`jaxversion` (the target JAX) and `errors`.
"""
