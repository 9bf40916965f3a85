"""What a command imports before it does anything: start-up is paid on every run (timing belongs in
benchmarks/startup.py; these tests check the imports that decide it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import sys
# an editable install's finder imports pathlib as the interpreter starts: forgotten, to see who imports it
for name in ("pathlib", "urllib.parse", "urllib", "ipaddress"):
    sys.modules.pop(name, None)
import io, json
from pddltools.cli import main
out, sys.stdout = sys.stdout, io.StringIO()  # not contextlib's redirect: the run must show who imports it
try:
    status = main(sys.argv[1:])
finally:
    out, sys.stdout = sys.stdout, out
print(json.dumps({"status": status, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def run(*argv: str, entry: str = "pddltools.cli", cache: Path | None = None) -> dict[str, object]:
    probe = PROBE.replace("from pddltools.cli import main", f"from {entry} import main")
    environment = None if cache is None else {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", probe, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True, env=environment)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_version_names_the_parser_in_use_without_importing_the_parser_or_rich() -> None:
    from pddltools.syntax.frozen import speedups

    result = run("--version")
    assert result["status"] == 0
    expected = "compiled parser" if speedups is not None else "parser in pure Python"
    assert expected in str(result["out"])
    modules = result["modules"]
    assert isinstance(modules, list)
    assert "rich" not in modules and "pddltools.syntax" not in modules and "lark" not in modules


def test_the_entry_point_answers_version_without_the_command_line() -> None:
    """The console script's `--version` imports neither argparse nor `pddltools.cli`, and says what the
    command line's --version says; anything else goes to the command line."""
    result = run("--version", entry="pddltools.entry")
    assert result["status"] == 0 and result["out"] == run("--version")["out"]
    modules = result["modules"]
    assert isinstance(modules, list)
    assert "argparse" not in modules and "typing" not in modules
    ours = {m for m in modules if m.startswith("pddltools")}
    # the parser's compiled file only, found without importing pddltools.syntax
    assert ours - {"pddltools.syntax._speedups"} == {"pddltools", "pddltools.entry", "pddltools.version"}
    explained = run("explain", "E110", entry="pddltools.entry")
    assert explained["status"] == 0 and "E110" in str(explained["out"]) and "pddltools.cli" in explained["modules"]


def test_validating_a_sequential_plan_imports_neither_rich_nor_the_temporal_validators() -> None:
    adl = ROOT / "corpus" / "plans" / "adl"
    result = run("validate", str(adl / "domain.pddl"), str(adl / "problem.pddl"), str(adl / "valid.plan"))
    assert result["status"] == 0
    assert str(result["out"]) == f"{adl / 'valid.plan'}: valid, value 8 (length 8, cost 8)\n"
    modules = result["modules"]
    assert isinstance(modules, list)
    assert not [m for m in modules if m == "rich" or m.startswith("rich.")]
    assert "pddltools.validate.temporal" not in modules and "pddltools.validate.pddlplus" not in modules


#: What `validate` of a text plan for a sequential task must not import in a run that finds its caches:
#: each was once on that path and costs a fresh process milliseconds (`python -X importtime`).
HEAVY = (
    "inspect", "ast", "dis", "tokenize",  # `dataclasses` imports `inspect` only for a docstring: codecache
    "typing",  # our modules import it for the type checker only (`if TYPE_CHECKING:`): no module the run needs does
    "lark", "rich", "hashlib", "tempfile", "shutil", "importlib.resources",
    "decimal",  # `fractions` imports it for a Fraction of a Decimal, a text or a float: codecache
    "copy",  # `dataclasses` imports it for `asdict` and `astuple`: codecache
    "zlib", "bisect",  # the parser image's key (now by stamps), a position's line (at its first use)
    "pddltools.validate.enhsp",  # a plan without ENHSP's lines is read without it
    "pddltools.semantics.temporal", "pddltools.validate.batch",  # the packages import them at first use
    "pddltools.validate.temporal", "pddltools.validate.pddlplus", "pddltools.semantics.continuous",
    "pathlib", "urllib", "ipaddress",  # the commands' files are named by text (os.path); pathlib brings urllib
    "argparse", "gettext", "locale",  # an ordinary command line is read from the recorded declarations
    "contextlib", "importlib.util",  # context managers as classes; the magic number and a spec found without it
)


def test_validating_a_sequential_plan_from_warm_caches_imports_none_of_the_heavy_modules(tmp_path: Path) -> None:
    adl = ROOT / "corpus" / "plans" / "adl"
    argv = ("validate", str(adl / "domain.pddl"), str(adl / "problem.pddl"), str(adl / "valid.plan"))
    # the console script's way in, which keeps the command's code (pddltools.entry)
    first = run(*argv, cache=tmp_path, entry="pddltools.entry")  # an empty cache folder: all is made
    second = run(*argv, cache=tmp_path, entry="pddltools.entry")
    assert first["out"] == second["out"] == f"{adl / 'valid.plan'}: valid, value 8 (length 8, cost 8)\n"
    assert first["status"] == second["status"] == 0
    modules = second["modules"]
    assert isinstance(modules, list)
    loaded = {m.split(".")[0] for m in modules} | set(modules)
    assert [m for m in HEAVY if m in loaded] == []
    assert "inspect" in first["modules"]  # the first run wrote the dataclasses' docstrings with it


def test_a_command_looks_for_message_catalogues_once_per_question(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """While a command runs, `gettext.find` is asked each question once (argparse asks at every word it
    translates); the answers are gettext's, a language's catalogue is found, and a change of the
    environment's language is a new question. Afterwards gettext's own `find` is back."""
    import gettext

    from pddltools.cli_record import TranslationsFoundOnce

    catalogue = tmp_path / "de" / "LC_MESSAGES" / "probe.mo"
    catalogue.parent.mkdir(parents=True)
    catalogue.write_bytes(b"")
    own = gettext.find
    asked: list[tuple[object, ...]] = []

    def counted(*arguments: object) -> object:
        asked.append(arguments)
        return own(*arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(gettext, "find", counted)
    monkeypatch.setenv("LANGUAGE", "de")
    with TranslationsFoundOnce():
        found = [gettext.find("probe", str(tmp_path), None, True) for _ in range(3)]
        assert found == [[str(catalogue)]] * 3 and len(asked) == 1
        monkeypatch.setenv("LANGUAGE", "fr")
        assert gettext.find("probe", str(tmp_path), None, True) == [] and len(asked) == 2
        assert gettext.translation("argparse", fallback=True).gettext("usage: ") == "usage: "
    assert gettext.find is counted
