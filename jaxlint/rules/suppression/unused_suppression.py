"""JAX001 unused-suppression: a `# noqa` / `# jaxlint: disable` comment that suppresses nothing.

The engine decides which comments were used (jaxlint/core/suppressions.py); this rule only carries
the code, the docs and the examples.
"""

from __future__ import annotations

from jaxlint.rules.base import Examples, Rule


class UnusedSuppression(Rule):
    """Flags a suppression comment, or a code in one, that suppressed nothing.

    What it does: after every other selected rule has run and the suppression comments have
    been applied, reports each `# noqa: JAX...`, `# jaxlint: disable[=...]` and
    `# jaxlint: disable-file[=...]` comment whose codes matched no finding (ruff's RUF100).
    It is opt-in (`--extend-select JAX001`) and judges only codes that a rule run on the file
    could have produced: codes of other tools (`E501`), codes of rules that are not selected
    for the file, a bare `# noqa` (it may be meant for flake8) and text inside strings are
    never reported. It runs after suppression, so it knows which comment silenced what.

    Why is this bad: a stale suppression hides the next real finding on that line. After an
    upgrade of jaxlint (a false positive fixed) or of the code (the sharp bit removed), the
    comment stays and silences whatever comes next. On a large codebase adopted with
    `jaxlint check --add-noqa`, this rule tells you which comments can go.

    Example:

        x = jnp.zeros(3)  # noqa: JAX801
        # jaxlint: disable
        y = x + 1

    Use instead:

        x = jnp.zeros(3)
        y = x + 1

    Fix: safe. Removes the unused codes from the comment, or the whole directive when none of
    its codes was used (the rest of the comment is kept; a line holding only the directive
    is deleted). `jaxlint check --extend-select JAX001 --fix` cleans a codebase.
    """

    code = "JAX001"
    name = "unused-suppression"
    fix_safety = "safe"
    fix_availability = "always"  # every unused code or directive can be removed
    default = False
    tier = 1
    prefilter_words = ("noqa", "NOQA", "jaxlint", "flake8")
    examples = Examples(
        invalid=(
            """
            x = 1  # jaxlint: disable  # error: JAX001
            """,
            """
            # jaxlint: disable-file  # error: JAX001
            y = 2
            """,
        ),
        valid=(
            """
            x = 1  # noqa
            y = 2  # noqa: E501
            z = "# jaxlint: disable"
            """,
        ),
        fixes=(
            (
                """
                x = 1  # jaxlint: disable
                # jaxlint: disable
                y = 2
                """,
                """
                x = 1
                y = 2
                """,
            ),
        ),
    )
