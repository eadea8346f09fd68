"""Runtime layer: runs user code in a subprocess with JAX to confirm findings and measure it.

Nothing here imports JAX at module level, so `jaxlint check` (and the CLI's parser) never pays for
it; the handlers and workers import JAX inside the function that needs it.
"""
