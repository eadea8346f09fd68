"""jaxlint: find, fix and prove JAX sharp bits."""

__version__ = "0.1.0"
DOCS_URL = "https://github.com/jaxlint-sharp/jaxlint/blob/main/docs/rules.md"
