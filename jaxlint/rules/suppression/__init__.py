"""JAX0xx: rules about jaxlint's own suppression comments.

Re-exports the rule classes so the registry, which scans the family's namespace, finds them,
and `from jaxlint.rules.suppression import UnusedSuppression` keeps working.
"""

from __future__ import annotations

from jaxlint.rules.suppression.unused_suppression import UnusedSuppression

__all__ = ["UnusedSuppression"]
