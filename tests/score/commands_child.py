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
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this worktree's tests.*, as pytest has them

from tests.fuzzing import cap_address_space, peak_mb


def main(argv: list[str]) -> int:
    cap_address_space(int(argv[0]) << 20)
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
        peak = peak_mb()
        print(json.dumps({"argv": command, "status": status, "out": out.getvalue()[-1_000_000:],
                          "err": err.getvalue()[-20000:], "peak_mb": peak}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
