"""An operation not done, in one line: the front-end says it (the command
line with its exit status, the hub's page with its HTTP status)."""


class Usage(Exception):
    """A bad argument (exit 2)."""


class Fail(Exception):
    """A device or data error (exit 1)."""
