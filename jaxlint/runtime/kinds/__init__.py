"""The verifier kinds: one module per kind (`trace`, `retrace-static`, ...), loaded by name.

The runner (`jaxlint.runtime.runner.KIND_MODULES`) imports a kind only when a job asks for it;
a kind builds on the kit (`kit`, `entry`, `side`) and never imports the runner back.
"""
