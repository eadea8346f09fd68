"""Static half of `jaxlint verify`: lint, plan one JSON job per finding, run them, report.

Nothing here imports JAX: the planner (`plan`, `plan_*`) runs in the linter's process and hands
plain JSON (`jobs.Job`) to the sandboxed child in `jaxlint.runtime`, which alone runs JAX.
"""
