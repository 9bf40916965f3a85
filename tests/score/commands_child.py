"""Run pddltools commands one after another in this process, under an address-space cap: the child of the
tests of ../shared/fuzz/turn3 (`test_turn3_reproducers.py`), as `tests/test_fuzz_reproducers.py` runs its
reproducers in a child. Each command's exit status, what it printed and the process's own peak resident
memory so far go to standard output as one JSON line.

    python tests/score/commands_child.py CAP_MB '[["score", "r.db", "--rules", "ipc2008-sat"], ...]'
"""

from __future__ import annotations

import contextlib
import io
import json
import resource
import sys
import traceback


def _peak_mb() -> float:
    """This process image's peak resident memory. Not `ru_maxrss`: Linux carries a parent's high-water mark
    across fork and exec, so a child of a test process grown to a gigabyte would report that gigabyte;
    /proc's VmHWM belongs to this image alone."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str]) -> int:
    cap = int(argv[0]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    from pddltools.cli import main as cli

    for command in json.loads(argv[1]):
        out, err = io.StringIO(), io.StringIO()
        status: int | str | None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli(command)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else str(exc.code)
            except BaseException:  # a traceback is the finding itself
                status = "raised"
                err.write(traceback.format_exc())
        peak = _peak_mb()
        print(json.dumps({"argv": command, "status": status, "out": out.getvalue()[-1_000_000:],
                          "err": err.getvalue()[-20000:], "peak_mb": peak}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
