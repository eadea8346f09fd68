"""slimpletic-jax slimpletic/__init__.py: the package turns x64 on when it is imported, by
calling its own helper (`from .helpers import jax_enable_x64; jax_enable_x64()`), not by a
`config.update` of its own."""

from .helpers import jax_enable_x64

jax_enable_x64()
