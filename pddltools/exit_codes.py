"""The exit statuses of every `pddltools` command: one enum, so that scripts can rely on them."""

from __future__ import annotations

import signal
from enum import IntEnum


class ExitCode(IntEnum):
    """What a command's exit status means, the same for every command."""

    OK = 0
    #: something was found: a file does not parse, a check failed, a plan is invalid
    FINDINGS = 1
    #: bad usage, or input that could not be read at all
    USAGE = 2
    #: Ctrl-C (128 + SIGINT, as shells report it)
    INTERRUPTED = 128 + signal.SIGINT
    #: `run` stopped by SIGHUP, after cleaning up the runs in flight
    HANGUP = 128 + signal.SIGHUP
    #: `run` stopped by SIGTERM, after cleaning up the runs in flight
    TERMINATED = 128 + signal.SIGTERM


def worst(*codes: int) -> ExitCode:
    """The status of several results together: usage beats findings beats ok."""
    return ExitCode(max((ExitCode.OK, *codes)))
