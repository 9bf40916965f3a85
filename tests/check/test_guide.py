"""The guide's table of checker codes (docs/guide/tour.md, once the README's) is the code table itself, row
for row."""

from __future__ import annotations

from pathlib import Path

from pddltools.check.codes import CODES

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "tour.md"


def test_the_guide_lists_every_checker_code_with_its_severity_and_title() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for code in CODES.values():
        assert f"| {code.code} | {code.severity.value} | {code.title} |" in text
