"""Errors that end a command cleanly."""


class UsageError(Exception):
    """A problem with the command line or configuration: exit code 2, one line, no traceback."""


class JaxMissingError(UsageError):
    """JAX is needed for this command but is not installed."""

    def __init__(self, command: str) -> None:
        super().__init__(
            f"`jaxlint {command}` needs JAX; install it with "
            "`pip install 'jaxlint-sharp[runtime]'` (or `pip install jax`)"
        )
