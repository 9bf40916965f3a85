"""Output written for a pipe is whole; only a terminal's width is fitted (real subprocess pipes and a
pseudo-terminal, as a user's shell gives them)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

LINE = Path(__file__).resolve().parent.parent / "corpus" / "score" / "line"
LONG = "blocks-strips-typed-with-a-name-long-enough-to-be-cut-at-eighty-columns-of-width"


def results(tmp_path: Path) -> Path:
    """Eight planners with long names, each solving one problem of a domain with a long name."""
    folder = tmp_path / LONG
    folder.mkdir()
    (folder / "domain.pddl").write_text((LINE / "domain.pddl").read_text())
    (folder / "p01.pddl").write_text((LINE / "line-01.pddl").read_text())
    (tmp_path / "x.plan").write_text("")
    runs = [{"planner": f"planner-{p}-with-a-long-name", "domain": f"{LONG}/domain.pddl",
             "problem": f"{LONG}/p01.pddl", "plan": "x.plan", "time": 1.0, "status": "solved", "config": "c"}
            for p in "ABCDEFGH"]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in runs))
    return path


def command(path: Path) -> list[str]:
    return [sys.executable, "-m", "pddltools.cli", "score", str(path), "--rules", "ipc2008-sat", "--no-validate"]


def test_score_through_a_pipe_keeps_whole_names(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "TERM")}
    done = subprocess.run(command(results(tmp_path)), cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True,
                          timeout=300, check=True)
    assert LONG in done.stdout and "planner-H-with-a-long-name" in done.stdout
    assert "…" not in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) > 80


def test_score_on_a_terminal_fits_its_width(tmp_path: Path) -> None:
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))  # 40 rows, 80 columns
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    process = subprocess.Popen(command(results(tmp_path)), cwd=tmp_path, env={**env, "TERM": "dumb"},
                               stdin=child, stdout=child, stderr=child)
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert process.wait(timeout=300) == 0
    os.close(main)
    lines = b"".join(chunks).decode("utf-8", "replace").splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    assert "…" in "\n".join(lines)  # the long names are shortened to fit, on a terminal only
