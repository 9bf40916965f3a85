"""The Lark cache's file names follow every grammar, the imported ones too."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.syntax import larkcache


def test_changing_an_imported_grammar_changes_the_digest(tmp_path: Path) -> None:
    (tmp_path / "pddl.lark").write_text("start: \"a\"\n")
    (tmp_path / "hddl.lark").write_text("%import .pddl (start)\n")
    before = larkcache.grammars_digest(tmp_path)
    (tmp_path / "pddl.lark").write_text("start: \"b\"\n")
    assert larkcache.grammars_digest(tmp_path) != before


def test_files_other_than_grammars_do_not_count(tmp_path: Path) -> None:
    (tmp_path / "pddl.lark").write_text("start: \"a\"\n")
    before = larkcache.grammars_digest(tmp_path)
    (tmp_path / "README").write_text("notes\n")
    assert larkcache.grammars_digest(tmp_path) == before


def test_the_cache_file_names_the_tag_the_grammars_and_lark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    where = larkcache.cache_file("hddl-hddllexer")
    assert isinstance(where, str)
    name = Path(where).name
    assert name.startswith("hddl-hddllexer-") and larkcache._grammars_digest() in name
    assert Path(where).parent == tmp_path / "pddltools"


def test_two_installations_use_two_files(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pddl.lark").write_text("start: \"a\"\n")
    assert larkcache.grammars_digest(tmp_path / "a") != larkcache.grammars_digest(tmp_path / "b")
