"""The registry of diagnostic codes is complete and honest: every code raised anywhere is registered,
no code is raised with a meaning other than its registered one, every example triggers its code, and
`pddltools explain` prints the registry."""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import get_args

import pytest

from pddltools.check.codes import CODES as CHECKER_CODES
from pddltools.cli import main
from pddltools.codes import CHECK, REGISTRY, Code, near

PACKAGE = Path(__file__).resolve().parents[1] / "pddltools"
CODE = re.compile(r"^[EWIRSVCTLP]\d{3}$")
# Sources that mention codes without raising them: the registry itself, and the type generated from it.
NOT_RAISING = {PACKAGE / "codes.py", PACKAGE / "code_ids.py"}


@functools.cache
def _sources() -> tuple[tuple[Path, ast.Module], ...]:
    return tuple((path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
                 for path in sorted(PACKAGE.rglob("*.py")) if path not in NOT_RAISING)


def _literals() -> dict[str, list[str]]:
    """Every code-shaped string literal in the package, with where it stands."""
    found: dict[str, list[str]] = {}
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                found.setdefault(node.value, []).append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def _template(node: ast.expr) -> str | None:
    """The literal text of a message argument (an f-string's fixed parts, a concatenation's strings),
    or None when the message is computed elsewhere (a variable, str(exc))."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts = [_template(node.left), _template(node.right)]
        known = [p for p in parts if p]
        return " ".join(known) if known else None
    return None


def raising_sites(tree: ast.Module) -> Iterator[tuple[str, str, int]]:
    """(code, message template, line) for each call that passes a code and then a literal message:
    error("E201", f"..."), finding("W401", ...), fail("R303", ...), Diagnostic("L001", severity, "...")."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        args = node.args
        for index, arg in enumerate(args):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and CODE.match(arg.value):
                after = [_template(a) for a in args[index + 1:]]
                message = next((t for t in after if t), None)
                if message is not None:
                    yield arg.value, message, node.lineno
                break


_STOP = {"the", "and", "not", "for", "has", "its", "any", "one", "but", "are", "was", "can", "may", "all", "per",
         "nor", "too", "out", "use", "this", "that", "with", "from", "than", "which", "their", "there", "here",
         "have", "been", "must", "does", "into", "only", "when", "what", "each", "every", "other", "more",
         "cannot", "pddltools", "takes", "given", "gives", "found", "expected", "name", "names", "line", "file"}


def _stems(text: str) -> set[str]:
    """Words that carry meaning, cut to five letters so that "nests" meets "nested"."""
    return {w[:5] for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _STOP}


def meaning_mismatches(code: str, message: str, entry: Code) -> bool:
    """True when a raising site's message shares no word with the registered meaning: the site is
    using the code for something else (as rddl/builder.py used R106, "nested too deeply", for an
    enum range that runs downwards)."""
    words = _stems(message)
    # a template of placeholders only ("{name} takes {n}, not {m}") says nothing to compare
    return bool(words) and not words & _stems(f"{entry.title} {entry.explanation}")


def test_every_code_raised_anywhere_is_registered() -> None:
    unregistered = {code: where for code, where in _literals().items() if code not in REGISTRY}
    assert unregistered == {}


def test_every_registered_code_is_raised_somewhere() -> None:
    stale = set(REGISTRY) - set(_literals())
    assert stale == set()


def test_every_raising_site_says_what_its_code_means() -> None:
    wrong = [f"{path.relative_to(PACKAGE)}:{line}: {code} raised for {message!r}, but {code} means "
             f"{REGISTRY[code].title!r}"
             for path, tree in _sources()
             for code, message, line in raising_sites(tree)
             if code in REGISTRY and meaning_mismatches(code, message, REGISTRY[code])]
    assert wrong == []


def test_the_meaning_check_catches_a_code_reused_for_something_else() -> None:
    # the very line that gave R106 a second meaning, before it became R107
    tree = ast.parse('raise BuildError("R106", f"an enum range runs from one integer to a larger one, '
                     'not {first}..{last}", first.start_pos, last.end_pos)')
    [(code, message, _)] = list(raising_sites(tree))
    assert code == "R106" and meaning_mismatches(code, message, REGISTRY["R106"])
    assert not meaning_mismatches("R107", message, REGISTRY["R107"])


def test_a_code_has_one_meaning_and_the_enum_range_its_own_code() -> None:
    titles = [entry.title for entry in REGISTRY.values()]
    assert len(titles) == len(set(titles))
    assert "nested too deeply" in REGISTRY["R106"].title and "enum range" in REGISTRY["R107"].title


def test_every_entry_is_explained_with_an_example() -> None:
    for entry in REGISTRY.values():
        assert entry.code == entry.code.upper() and CODE.match(entry.code)
        assert entry.code[0] in "EWIRSVL" and entry.title and len(entry.explanation) > 40, entry.code
        assert entry.example is not None and entry.example.fix, entry.code
        # a code that no input file can trigger describes its triggering situation in words
        assert entry.example.command or "Example:" in entry.explanation or "example" in entry.explanation, entry.code


def test_the_checker_reads_its_codes_from_the_registry() -> None:
    checker = {code: entry for code, entry in REGISTRY.items() if entry.area == CHECK}
    assert checker == CHECKER_CODES
    assert CHECKER_CODES["E201"] is REGISTRY["E201"]


_RUNNABLE = [entry for entry in REGISTRY.values() if entry.example is not None and entry.example.command]


def test_most_codes_have_an_example_that_runs() -> None:
    assert len(_RUNNABLE) >= 110


@pytest.mark.parametrize("entry", _RUNNABLE, ids=lambda entry: entry.code)
def test_each_example_makes_pddltools_report_its_code(entry: Code, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.example is not None
    for name, text in entry.example.files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status = main(list(entry.example.command))
    out, err = capsys.readouterr()
    assert f"[{entry.code}]" in out + err
    assert status != 0 or entry.severity.value != "error"
    assert "Traceback" not in err


# -------------------------------------------------------------------------------------------------
# pddltools explain


def test_explain_prints_one_meaning_for_r106(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "r106"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R106 (error, RDDL syntax): expressions nested too deeply")
    assert "enum" not in out and "\x1b[" not in out  # plain text on a pipe


def test_explain_shows_the_example_and_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "E201"]) == 0
    out = capsys.readouterr().out
    assert "--- domain.pddl" in out and "(at ?t - truk ?p - place)" in out
    assert "$ pddltools check domain.pddl" in out and "Fix: " in out


def test_explain_is_rich_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["explain", "W501"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" in out and "W501" in out and "Fix:" in out


def test_explain_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "V002", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["code"] == "V002" and data["severity"] == "error" and data["area"] == "validator"
    assert data["example"]["command"] == "pddltools validate domain.pddl problem.pddl plan.txt"
    assert [f["name"] for f in data["example"]["files"]] == ["domain.pddl", "problem.pddl", "plan.txt"]


def test_explain_an_unknown_code_suggests_near_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "E2O1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "E2O1 is not a pddltools diagnostic code; did you mean" in captured.err and "E201" in captured.err
    assert near("X106")[:2] == ["R106", "E106"]


def test_explain_alone_lists_every_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(REGISTRY)
    assert "E201  error    undeclared type" in lines
    assert main(["explain", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)["codes"]
    assert [item["code"] for item in listed] == list(REGISTRY)


# -------------------------------------------------------------------------------------------------
# Codes as a type: pddltools/code_ids.py is generated from the registry, and mypy rejects a stray code

ROOT = PACKAGE.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_code_ids", ROOT / "scripts" / "generate_code_ids.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_code_type_is_generated_from_the_registry_and_up_to_date() -> None:
    from pddltools.code_ids import CodeId

    assert set(get_args(CodeId)) == set(REGISTRY)
    rendered = _generator().render(list(REGISTRY))
    assert (PACKAGE / "code_ids.py").read_text(encoding="utf-8") == rendered, \
        "pddltools/code_ids.py is out of date: run python scripts/generate_code_ids.py"


def test_the_generator_writes_one_code_a_line_in_order() -> None:
    text = _generator().render(["W101", "E001"])
    assert text.index('    "E001",\n') < text.index('    "W101",\n')
    assert "CodeId: TypeAlias = Literal[" in text


def mypy_errors(tmp_path: Path, snippet: str, *extra: str) -> list[str]:
    """mypy --strict's error lines for `snippet`, a module importing pddltools (the repository's cache)."""
    module = tmp_path / "snippet.py"
    module.write_text(snippet, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
                           str(ROOT / ".mypy_cache"), *extra, str(module)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    return [line for line in done.stdout.splitlines() if ": error:" in line]


def test_mypy_rejects_a_code_that_is_not_registered(tmp_path: Path) -> None:
    errors = mypy_errors(tmp_path, """from pddltools.check.codes import finding
from pddltools.diagnostics import error, warning
ok = error("E201", "undeclared type")
wrong = [error("E999", "no such code"), warning("W1O1", "a letter O"), finding("e201", "lower case", None)]
""")
    assert [line.split(":")[1] for line in errors] == ["4", "4", "4"], errors
    assert all("incompatible type" in line for line in errors)
