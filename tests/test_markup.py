"""`pddltools.markup` prints what rich prints: its `escape` is rich's, and a line printed without rich
is the line rich's console (as `pddltools.consoles` makes it) writes off a terminal."""

from __future__ import annotations

import contextlib
import io

import pytest
from rich.markup import escape as rich_escape

from pddltools.consoles import stdout_console, stdout_lines
from pddltools.markup import LinePrinter, escape, plain_text

TEXTS = [
    "plan.1", "a[b]c", "[bold]x", "\\[bold]", "\\\\[bold]", "ends with \\", "ends with \\\\", "[/]", "[#ff0000]",
    "x [@click] y", "[not a tag", "(at ?x - [loc])", "unicode: äöü → ✓", "[a=b]", "p x2, q x3", "",
]

MARKUP = [
    "[bold]{t}[/bold]: [green]valid[/green], value 8 (length 8, cost 8)",
    "[bold]{t}[/bold]: [red]invalid[/red] at step 3 (line 4) (precondition): {t}",
    "  unsatisfied: {t}",
]


def rich_prints(markup: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        stdout_console().print(markup)
    return out.getvalue()


def lines_print(markup: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        stdout_lines().print(markup)
    return out.getvalue()


@pytest.mark.parametrize("text", TEXTS)
def test_escape_is_richs(text: str) -> None:
    assert escape(text) == rich_escape(text)


@pytest.mark.parametrize("template", MARKUP)
@pytest.mark.parametrize("text", TEXTS)
def test_a_line_prints_as_rich_prints_it(template: str, text: str) -> None:
    markup = template.format(t=escape(text))
    assert lines_print(markup) == rich_prints(markup)


@pytest.mark.parametrize("markup", ["a :smile: b", "tab\there", "cr\rhere", "[bold]x[/bold] :thumbs_up:"])
def test_what_rich_might_change_is_left_to_rich(markup: str) -> None:
    assert plain_text(markup) is None
    assert lines_print(markup) == rich_prints(markup)


def test_plain_text_removes_tags_and_unescapes() -> None:
    assert plain_text("[bold]a\\[b][/bold]: [green]ok[/green]") == "a[b]: ok"


def test_forced_colour_goes_through_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    made: list[object] = []

    def make() -> object:
        console = stdout_console()
        made.append(console)
        return console

    printer = LinePrinter(make)  # type: ignore[arg-type]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        printer.print("[green]valid[/green]")
    assert made, "colour forced: rich prints the line"
    assert "\x1b[" in out.getvalue()
