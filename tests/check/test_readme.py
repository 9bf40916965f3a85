"""The README's table of checker codes is the code table itself, row for row."""

from __future__ import annotations

from pathlib import Path

from pddltools.check.codes import CODES

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_lists_every_checker_code_with_its_severity_and_title() -> None:
    text = README.read_text(encoding="utf-8")
    for code in CODES.values():
        assert f"| {code.code} | {code.severity.value} | {code.title} |" in text
