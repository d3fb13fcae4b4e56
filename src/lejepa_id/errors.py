"""The one exception type the command line turns into a one-line message and exit status 2,
and the argument parser whose errors are such a line."""

import argparse
import sys


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


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``PROG: error: ...``), exit status 2.

    argparse's default prints the usage first; every bad input of this command line
    ends with exactly one line instead, and ``--help`` still shows the usage. It lives
    here, on the ground floor, so that every package with a command line (the proof
    checker's included) uses the same one.
    """

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        sys.exit(2)
