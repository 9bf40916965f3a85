"""The exit statuses of every `pddltools` command: one enum, so that scripts can rely on them."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.diagnostics import Diagnostic


class ExitCode(IntEnum):
    """What a command's exit status means, the same for every command."""

    OK = 0
    #: something was found: a file does not parse, a check failed, a plan is invalid
    FINDINGS = 1
    #: bad usage, or input that could not be read at all
    USAGE = 2
    # POSIX's signal numbers, written out: importing `signal` would cost every command's start
    #: Ctrl-C (128 + SIGINT, as shells report it)
    INTERRUPTED = 128 + 2
    #: `run` stopped by SIGHUP, after cleaning up the runs in flight
    HANGUP = 128 + 1
    #: `run` stopped by SIGTERM, after cleaning up the runs in flight
    TERMINATED = 128 + 15


def worst(*codes: int) -> ExitCode:
    """The status of several results together: usage beats findings beats ok."""
    return ExitCode(max((ExitCode.OK, *codes)))


def status_of(diagnostics: Iterable[Diagnostic]) -> ExitCode:
    """The status a command's diagnostics call for, decided by their registered codes, the same for every
    command: an error whose code is registered as `usage` (a file that cannot be read, no domain found, an
    output folder in the way, a policy that does not load) is USAGE; any other error (syntax, names, types,
    an invalid plan) is FINDINGS; warnings and notes alone are OK."""
    from pddltools.codes import lookup
    from pddltools.diagnostics import Severity

    status = ExitCode.OK
    for diagnostic in diagnostics:
        if diagnostic.severity is not Severity.ERROR:
            continue
        entry = lookup(diagnostic.code)
        status = worst(status, ExitCode.USAGE if entry is not None and entry.usage else ExitCode.FINDINGS)
    return status
