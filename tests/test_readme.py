"""The README's tour runs as shown: every `pddltools` line of its shell block, from a folder that holds
the repository's corpus, exits as its comment says (0 unless "exits 1"), and its Python example works.
Its set-up commands are `.ci/run`'s, word for word. The rest of the documentation is run by the docs
build (tests/test_docs.py)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from pddltools.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 250


def test_the_set_up_commands_are_the_ci_script_s() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [block.strip() for block in _blocks(_section("Set up"), "sh")]
    assert len(commands) == 2 and all(command in ci for command in commands)


def test_every_tour_command_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "corpus").symlink_to(ROOT / "corpus")
    monkeypatch.chdir(tmp_path)
    expected = 0
    ran = 0
    for line in _blocks(_section("A tour"), "sh")[0].splitlines():
        if line.startswith("#"):
            expected = 1 if "exits 1" in line else expected
            continue
        if not line.strip():
            expected = 0
            continue
        words = shlex.split(line)
        assert words[0] == "pddltools", line
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(words[1:]) == expected, line
        ran += 1
    assert ran >= 10 and (tmp_path / "out" / "plan-map.json").is_file()


def test_the_python_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    (example,) = _blocks(_section("A tour"), "python")
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(example, "README.md", "exec"), {})  # the README's own example
    printed = out.getvalue().splitlines()
    assert printed[0].startswith("domain.pddl + 1 problem: 0 errors") and "ipc2008-seq-sat: fits" in printed[1]
    assert all(len(line) < 200 for line in printed)  # one line a verdict, not the dataclass dumped
