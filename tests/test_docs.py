"""The documentation site builds with `mkdocs build --strict` (a broken link, a stale API reference or an
example whose command no longer behaves as its page says fails it), documents every command, and its
codes reference is the registry."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pddltools.cli import build_parser
from pddltools.codes import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # the parent package of a dotted name is missing
        return False


MISSING = [name for name in ("mkdocs", "material", "mkdocstrings_handlers.python") if not _installed(name)]


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pddltools_docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if MISSING:
        pytest.skip(f"the docs' packages are not installed ({', '.join(MISSING)}): pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_strict_build_passes(site: Path) -> None:
    assert (site / "index.html").is_file()


def test_every_command_has_a_page_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for name in _subcommands(build_parser()):
        assert (DOCS / "commands" / f"{name}.md").is_file(), name
        assert f"commands/{name}.md" in nav, name


def test_every_command_page_shows_real_output() -> None:
    for page in sorted((DOCS / "commands").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert f"<!-- help: {page.stem} -->" in text, page.name
        if page.stem not in ("learn", "lsp"):  # these need a learner or an editor on the other end
            assert "<!-- run" in text, page.name


def test_every_rddl_command_is_documented() -> None:
    rddl = _subcommands(_subcommands(build_parser("rddl"))["rddl"])
    page = (DOCS / "commands" / "rddl.md").read_text(encoding="utf-8")
    for name in rddl:
        assert f"<!-- help: rddl {name} -->" in page, name
        assert re.search(rf"^## .*\b{name}\b", page, re.MULTILINE), name


def test_the_codes_reference_lists_every_registered_code(site: Path) -> None:
    html = (site / "reference" / "codes" / "index.html").read_text(encoding="utf-8")
    for code in REGISTRY:
        assert f'id="{code.lower()}"' in html, code


def test_a_command_page_shows_what_the_command_printed(site: Path) -> None:
    html = (site / "commands" / "check" / "index.html").read_text(encoding="utf-8")
    assert "E207" in html and "argument 1 of predicate at must be a truck" in html


def test_an_example_that_no_longer_behaves_as_its_page_says_is_a_build_warning(
        caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    hooks = _hooks()
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.pddltools"):
        shown = hooks._run("pddltools parse missing.pddl", 0, str(tmp_path), "page.md")
    assert "E001" in shown and "$ echo $?\n2" in shown
    assert any("exited with 2 (the page expects 0)" in r.getMessage() for r in caplog.records)


def test_the_codes_reference_escapes_markup_in_the_prose() -> None:
    text = _hooks().codes_reference()
    assert "&lt;session-request&gt;" in text and "<session-request>" not in text
    assert "### R106: expressions nested too deeply { #r106 }" in text


def test_the_json_page_publishes_every_schema(site: Path) -> None:
    from pddltools.schemas import COMMANDS, schema

    html = (site / "reference" / "json" / "index.html").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f'id="{command.replace(" ", "-")}"' in html, command
        assert schema(command)["title"] in html, command
    assert "defs/diagnostic" in html
