"""The one exception type the command line turns into a one-line message and exit status 2."""


class UsageError(ValueError):
    """Bad user input: a config key, value, file or directory. The message is one line
    naming the offending key or value and what is allowed."""


class WriteError(UsageError):
    """A write a command needed failed (disk full, quota, read-only, a path that is a
    directory): one line naming the path and what the OS said ran out or went wrong.
    Raised only after the partial write was removed, so nothing truncated is left."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (a scheduler's stop, ``kill``): unwinds like Ctrl-C, so every finished
    run stays saved and workers are stopped, but the command exits 143 (128 + 15), the
    status a scheduler expects of a process it terminated, where Ctrl-C exits 130."""
