"""The parser image (`pddltools.syntax.image`): the parsers run on plain data kept between runs, and
import Lark only to make that data.

- a fresh process validating a plan, once the image is made, never imports Lark;
- the image follows the grammars: an edited grammar gets a new image, made from the edited text;
- a parser on an image read back from the cache builds the trees, and reports the errors, of Lark's
  own loop (and of a parser made from Lark in the same process).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from time import time as os_time

import pytest

from pddltools.diagnostics import Source
from pddltools.hddl import parser as hddl_parser
from pddltools.pddl import parser as pddl_parser
from pddltools.pddl.parser import Builder, GrammarPathLexer, Parser, make_lark
from pddltools.reading import read_source
from pddltools.syntax import image
from pddltools.syntax.errors import ParseError
from pddltools.syntax.testing import parser_variant

REPO = Path(__file__).resolve().parents[2]
ADL = REPO / "corpus" / "plans" / "adl"
SHARED = REPO.parent / "shared" / "corpus" / "pddl"

#: A fresh process validates the ADL plan, then checks its domain, and says which of Lark's modules it
#: imported (`check` asks the language registry, which imports every dialect's parser).
_PROBE = """
import json, sys
from pddltools.cli import main
code = main(["validate", sys.argv[1], sys.argv[2], sys.argv[3]])
lark = sorted(m for m in sys.modules if m.split(".")[0] == "lark")
checked = main(["check", "--format", "json", sys.argv[1]])
print(json.dumps({"status": [code, checked], "lark": lark,
                  "lark after check": sorted(m for m in sys.modules if m.split(".")[0] == "lark")}))
"""


def _probe(cache: Path) -> dict[str, object]:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", _PROBE, str(ADL / "domain.pddl"), str(ADL / "problem.pddl"),
                           str(ADL / "valid.plan")], capture_output=True, text=True, env=env, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_a_fresh_validate_does_not_import_lark_once_the_image_is_kept(tmp_path: Path) -> None:
    first = _probe(tmp_path)  # an empty cache: the image is made from Lark, and kept
    assert first["status"] == [0, 0] and "lark" in first["lark"]  # type: ignore[operator]
    assert list((tmp_path / "pddltools").glob("parser-pddl-*.image"))
    second = _probe(tmp_path)
    assert second == {"status": [0, 0], "lark": [], "lark after check": []}


def _copy_grammars(into: Path) -> Path:
    folder = into / "grammars"
    shutil.copytree(image.grammar_folder(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_an_edited_grammar_gets_a_new_image_made_from_its_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _copy_grammars(tmp_path)
    monkeypatch.setattr(image, "_grammar_folder", lambda: str(folder))  # grammar_folder() reads it too
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    builds: list[str] = []

    def build() -> image.ParserImage:
        text = (folder / "pddl.lark").read_text(encoding="utf-8")
        builds.append(text)
        return image.image_of(make_lark("pddl", GrammarPathLexer, Builder(), text), lowercase=True)

    made = image.load("pddl", build)
    again = image.load("pddl", build)
    assert len(builds) == 1 and again.data == made.data  # read back, not made again
    key = image.image_key("pddl")
    assert image.image_key("pddl", options="{'strict': False}") != key  # how Lark reads the grammar counts
    (folder / "hddl.lark").write_text((folder / "hddl.lark").read_text(encoding="utf-8") + "\n// edited\n")
    assert image.image_key("pddl") != key  # any grammar counts: one may import another
    remade = image.load("pddl", build)
    assert len(builds) == 2  # made again: the same grammar (Lark may number its states otherwise)
    assert (remade.data["terminals"], remade.data["rules"]) == (made.data["terminals"], made.data["rules"])
    grammar = (folder / "pddl.lark").read_text(encoding="utf-8")
    assert '"either"' in grammar
    (folder / "pddl.lark").write_text(grammar.replace('"either"', '"oneof"'), encoding="utf-8")
    edited = image.load("pddl", build)
    assert len(builds) == 3  # the edit of hddl.lark and then of pddl.lark each made an image
    words = {t.pattern.value for t in edited.grammar.terminals if t.pattern.type == "str"}
    assert "oneof" in words and "either" not in words
    assert image.load("pddl", build).data == edited.data and len(builds) == 3
    # a driver on the edited image reads the edited language
    builder = Builder()
    driver = pddl_parser.FastParser(edited, builder=builder, lowercase=True, trigger="LPAR")
    builder.source = Source("(define (domain d) (:types a b c - (oneof a b)))", "edited.pddl")
    builder.warnings = []
    tree = driver.parse(builder.source, "start")
    assert [t.name for t in tree.types[2].type.types] == ["a", "b"]


def test_an_unwritable_cache_costs_the_build_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    made = pddl_parser._image("pddl")
    builds: list[int] = []
    assert image.load("pddl", lambda: builds.append(1) or made) is made and builds == [1]
    assert image.load("pddl", lambda: builds.append(2) or made) is made and builds == [1, 2]


def test_a_build_removes_images_left_behind_and_keeps_recent_ones(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "pddltools"
    folder.mkdir()
    old, recent, other = folder / "parser-pddl-old.image", folder / "parser-hddl-recent.image", folder / "notes.txt"
    for path in (old, recent, other):
        path.write_bytes(b"x")
    month_ago = os_time() - image.STALE_SECONDS - 60
    os.utime(old, (month_ago, month_ago))
    os.utime(other, (month_ago, month_ago))
    made = image.load("pddl", lambda: pddl_parser._image("pddl"))
    assert image.load("pddl", lambda: made).data == made.data
    assert not old.exists()  # an image nobody rebuilt for a month
    assert recent.exists()  # another installation's image in use
    assert other.exists()  # not an image: not ours to remove
    assert len(list(folder.glob("parser-pddl-*.image"))) == 1


def _sample(shared: bool) -> list[Path]:
    """The repository's PDDL files (their broken ones too) and, where `shared`, a domain of each IPC
    folder of the shared corpus, when small (tests/pddl/test_corpus.py compares the loops on every file)."""
    files = sorted((REPO / "corpus" / "pddl").rglob("*.pddl"))
    if shared:
        for folder in sorted(SHARED.glob("ipc-*/*")):
            files += [p for p in sorted(folder.rglob("domain*.pddl"))[:1] if p.stat().st_size < 20_000]
    return files


def _outcome(source: Source) -> object:
    try:
        return pddl_parser.parse(source)
    except ParseError as exc:
        return [(d.code, d.span.start if d.span else None, d.message) for d in exc.diagnostics]


@pytest.mark.parametrize("compiled", [True, False])
def test_a_parser_on_an_image_read_back_agrees_with_larks_loop(compiled: bool, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Trees and error reports (code, position, message) of the driver on a kept image, on Lark's loop,
    and on a driver made from Lark in this process, are the same."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = pddl_parser._image("pddl")
    assert image.load("pddl", lambda: made) is made  # kept in this empty cache
    kept = image.load("pddl", lambda: pytest.fail("the image is in the cache"))
    assert kept is not made and kept.data == made.data
    parser = Parser(True, compiled)
    from_lark = pddl_parser.FastParser(parser.lark, lowercase=True, trigger="LPAR", fast_paths=parser.driver.fast_paths,
                                       compiled=compiled, max_stack=parser.driver.max_stack)
    parser.driver = pddl_parser.FastParser(kept, builder=parser.builder, lowercase=True, trigger="LPAR",
                                           fast_paths=parser.driver.fast_paths, compiled=compiled,
                                           max_stack=parser.driver.max_stack)
    monkeypatch.setattr(pddl_parser, "_parser", lambda fast, compiled=True: parser)
    files = _sample(shared=compiled)  # the Python loop on the repository's files: enough, and quicker
    assert len(files) > 20
    failures = 0
    for path in files:
        source = read_source(path)
        by_image = _outcome(source)
        failures += isinstance(by_image, list)
        with parser_variant(via_lark=True):
            assert _outcome(source) == by_image, path
        parser.driver, kept_driver = from_lark, parser.driver
        try:
            assert _outcome(source) == by_image, path
        finally:
            parser.driver = kept_driver
    assert failures > 5  # the repository's broken files: their errors are compared too


def test_a_kept_image_reads_its_rules_and_state_rows_only_when_asked(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts a valid parse by the compiled loop never reads stay marshal data until first used; read,
    they are what was kept (an error's expected terminals read the state rows)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = pddl_parser._image("pddl")
    image.load("pddl", lambda: made)
    kept = image.load("pddl", lambda: pytest.fail("the image is in the cache"))

    def packed() -> list[str]:
        return [key for key in image.PACKED if type(dict.__getitem__(kept.data, key)) is bytes]

    assert packed() == list(image.PACKED)
    builder = Builder()
    driver = pddl_parser.FastParser(kept, builder=builder, lowercase=True, trigger="LPAR")
    builder.source = Source("(define (domain d) (:predicates (p ?x)))", "kept.pddl")
    builder.warnings = []
    assert driver.parse(builder.source, "start").name == "d"
    if driver.compiled is not None:
        assert packed() == list(image.PACKED) and len(driver.states) == len(made.data["shifts_reduces"])
    assert kept.data["rules"] == made.data["rules"] and packed() == ["shifts_reduces", "gotos"]
    assert kept.data.get("gotos") == made.data["gotos"] and dict(kept.data.items()) == made.data


def test_hddl_has_an_image_of_its_own_and_parses_by_it() -> None:
    parser = hddl_parser._parser.__wrapped__(True)  # a parser of its own: no other test asked it for Lark
    assert parser.image is not pddl_parser._parser(True, True).image
    names = {t.name for t in parser.grammar.terminals}
    assert names > {t.name for t in pddl_parser._parser(True, True).grammar.terminals}
    text = "(define (domain d) (:task deliver :parameters (?p)))"
    tree, _ = parser.parse(Source(text, "d.hddl"))
    assert [t.name for t in tree.tasks] == ["deliver"]
    assert "lark" not in parser.__dict__  # Lark's parser is made only when asked for
