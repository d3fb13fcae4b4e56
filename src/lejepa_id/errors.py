"""The one exception type the command line turns into a one-line message and exit status 2."""


class UsageError(ValueError):
    """Bad user input: a config key, value, file or directory. The message is one line
    naming the offending key or value and what is allowed."""
