#!/usr/bin/env python3
"""Latency of `pddltools lsp`, measured end to end through a real LSP client (pygls) over stdio.

For each file: the time from `didOpen` to its first diagnostics, the time from a one-character edit
(`didChange`) to the diagnostics of that version (which includes the server's debounce pause, reported
separately), and the latency of hover, definition and completion requests. The reference in the same
run is pddltools' own parse + check of the same text in-process (no other PDDL language server can be
installed from PyPI to compare with), so `ratio` is the server's cost over the library's.

Files: a generated 5,000-line domain (the issue's responsiveness target: answers within 200 ms), the
largest domain of the shared corpus, the largest problem of the shared corpus, and a generated 1 MB
problem.

    python benchmarks/lsp.py                 # all four files, 5 keystrokes each
    python benchmarks/lsp.py --keystrokes 20 --json /tmp/lsp.json
    python benchmarks/lsp.py --parse-only --keystrokes 20 [FILE...]   # the incremental parse alone
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
CORPUS = REPO.parent / "shared" / "corpus" / "pddl"
LOGISTICS = REPO / "corpus" / "lsp" / "logistics-domain.pddl"

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from pddltools.check import check  # noqa: E402
from pddltools.diagnostics import Source  # noqa: E402
from pddltools.lsp.recovery import sections  # noqa: E402
from pddltools.lsp.server import DEBOUNCE  # noqa: E402
from pddltools.lsp.workspace import Workspace  # noqa: E402
from pddltools.pddl import ast  # noqa: E402
from pddltools.pddl.parser import parse  # noqa: E402


@dataclass
class Result:
    file: str
    size_kb: int
    lines: int
    first_diagnostics_ms: float
    keystroke_ms: list[float] = field(default_factory=list)  # edit -> diagnostics, debounce included
    hover_ms: list[float] = field(default_factory=list)
    definition_ms: list[float] = field(default_factory=list)
    completion_ms: list[float] = field(default_factory=list)
    library_ms: float = 0.0  # in-process parse + check of the same text

    def row(self) -> str:
        keystroke = statistics.median(self.keystroke_ms)
        return (f"| {self.file} | {self.size_kb} | {self.lines} | {self.first_diagnostics_ms:.0f} | "
                f"{keystroke:.0f} ({keystroke - DEBOUNCE * 1000:.0f}) | {statistics.median(self.hover_ms):.0f} | "
                f"{statistics.median(self.definition_ms):.0f} | {statistics.median(self.completion_ms):.0f} | "
                f"{self.library_ms:.0f} | {(keystroke - DEBOUNCE * 1000) / max(self.library_ms, 1e-9):.2f} |")


# -------------------------------------------------------------------------------------------------
# Inputs


def five_thousand_line_domain(folder: Path) -> Path:
    """The logistics domain with its actions repeated under new names until the file has 5,000 lines."""
    text = LOGISTICS.read_text(encoding="utf-8")
    head, actions = text.split("  (:action", 1)
    body = "  (:action" + actions.rstrip().removesuffix(")")
    copies: list[str] = []
    lines = head.count("\n")
    index = 0
    while lines < 5000:
        copy = body
        for name in ("load-truck", "unload-truck", "drive-truck", "fly-airplane"):
            copy = copy.replace(f":action {name}", f":action {name}-{index}")
        copies.append(copy)
        lines += copy.count("\n") + 1
        index += 1
    path = folder / "domain-5000-lines.pddl"
    path.write_text(head + "\n".join(copies) + "\n)\n", encoding="utf-8")
    return path


def one_megabyte_problem(folder: Path) -> Path:
    """A logistics problem of at least 1 MB: many packages, trucks and cities, their facts in :init."""
    shutil.copy(LOGISTICS, folder / "domain.pddl")
    count = 6000
    objects = [f"pkg{i} - package" for i in range(count)] + [f"truck{i} - truck" for i in range(count // 10)]
    objects += [f"city{i} - city" for i in range(count // 10)] + [f"loc{i} - location" for i in range(count // 10)]
    init = [f"(at pkg{i} loc{i % (count // 10)})" for i in range(count)]
    init += [f"(at truck{i} loc{i})" for i in range(count // 10)]
    init += [f"(in-city loc{i} city{i})" for i in range(count // 10)]
    goal = [f"(at pkg{i} loc{(i + 1) % (count // 10)})" for i in range(count)]
    text = ("(define (problem big) (:domain logistics)\n  (:objects\n    " + "\n    ".join(objects)
            + ")\n  (:init\n    " + "\n    ".join(init) + ")\n  (:goal (and\n    " + "\n    ".join(goal) + ")))\n")
    while len(text.encode()) < 1_000_000:  # pad the goal until the file is 1 MB
        text = text.replace(")))\n", "\n    " + "\n    ".join(goal[:2000]) + ")))\n", 1)
    path = folder / "problem-1mb.pddl"
    path.write_text(text, encoding="utf-8")
    return path


def largest(pattern: str) -> Path | None:
    files = [p for p in CORPUS.rglob(pattern) if p.is_file()]
    return max(files, key=lambda p: p.stat().st_size) if files else None


# -------------------------------------------------------------------------------------------------
# The client


class Client:
    def __init__(self) -> None:
        self.lsp = LanguageClient("pddltools-benchmark", "1")
        self.published: dict[str, asyncio.Queue[int | None]] = {}

        @self.lsp.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, asyncio.Queue()).put_nowait(params.version)

        @self.lsp.feature(lsp.WINDOW_LOG_MESSAGE)
        def on_log(params: lsp.LogMessageParams) -> None:
            sys.stderr.write(params.message + "\n")

    async def start(self) -> None:
        command = shutil.which("pddltools")
        args = ["lsp"] if command else ["-m", "pddltools.cli", "lsp"]
        await self.lsp.start_io(command or sys.executable, *args)
        await self.lsp.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        self.lsp.initialized(lsp.InitializedParams())

    async def stop(self) -> None:
        await self.lsp.shutdown_async(None)
        self.lsp.exit(None)
        await self.lsp.stop()

    async def diagnostics_of(self, uri: str, version: int) -> None:
        queue = self.published.setdefault(uri, asyncio.Queue())
        while True:
            got = await asyncio.wait_for(queue.get(), 600)
            if got is None or got >= version:
                return


async def measure(client: Client, path: Path, keystrokes: int) -> Result:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    started = time.perf_counter()
    client.lsp.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="pddl", version=1, text=text)))
    await client.diagnostics_of(uri, 1)
    result = Result(str(path.relative_to(REPO.parent)) if path.is_relative_to(REPO.parent) else path.name,
                    len(text.encode()) // 1024, text.count("\n"), (time.perf_counter() - started) * 1000)
    # a keystroke: a space typed before the last closing parenthesis (the text stays valid)
    where = text.rstrip().rfind(")")
    line = text.count("\n", 0, where)
    column = where - (text.rfind("\n", 0, where) + 1)
    for version in range(2, keystrokes + 2):
        started = time.perf_counter()
        client.lsp.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=lsp.Position(line=line, character=column),
                                end=lsp.Position(line=line, character=column)), text=" ")]))
        await client.diagnostics_of(uri, version)
        result.keystroke_ms.append((time.perf_counter() - started) * 1000)
        column += 1
        target = _a_name(text)
        doc = lsp.TextDocumentIdentifier(uri=uri)
        started = time.perf_counter()
        await client.lsp.text_document_hover_async(lsp.HoverParams(text_document=doc, position=target))
        result.hover_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await client.lsp.text_document_definition_async(lsp.DefinitionParams(text_document=doc, position=target))
        result.definition_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await client.lsp.text_document_completion_async(lsp.CompletionParams(
            text_document=doc, position=lsp.Position(line=line, character=column)))
        result.completion_ms.append((time.perf_counter() - started) * 1000)
    client.lsp.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    result.library_ms = _library_ms(text, path)
    return result


_PREDICATE_USE = re.compile(r"\((?!(?:and|not|or|imply|forall|exists|when|either|at|over|define|domain|problem)[\s()])"
                            r"[A-Za-z]")


def _a_name(text: str) -> lsp.Position:
    """The position of a name in an atom (a predicate) in the last third of the file."""
    match = _PREDICATE_USE.search(text, len(text) * 2 // 3) or _PREDICATE_USE.search(text)
    at = match.start() + 2 if match else 0
    return lsp.Position(line=text.count("\n", 0, at), character=at - (text.rfind("\n", 0, at) + 1))


def _library_ms(text: str, path: Path) -> float:
    started = time.perf_counter()
    node = parse(Source(text, str(path)))
    if isinstance(node, ast.Domain):
        check(node)
    else:
        domain_path = next((p for p in (path.parent / "domain.pddl", path.parent.parent / "domain.pddl")
                            if p.exists()), None)
        if domain_path is not None:
            domain = parse(Source(domain_path.read_text(encoding="utf-8"), str(domain_path)))
            if isinstance(domain, ast.Domain):
                check(domain, [node])
    return (time.perf_counter() - started) * 1000


def parse_keystrokes(path: Path, keystrokes: int) -> list[str]:
    """The server's incremental parse alone (`Workspace.change` + `Workspace.pddl`, no client, no
    check): `keystrokes` one-character edits in the second section (top), the middle one and the last
    (end), each typed and undone in turn, so that each version re-parses the edited section and
    re-places those below it. CPU time of this process, which a busy machine disturbs less than the
    clock. Rows: where, min and median ms of the parse, and the median of `change` (where the earlier
    version's trees are freed, in the server's pause before the re-check)."""
    text = path.read_text(encoding="utf-8")
    parts = sections(text)
    store = Workspace()
    uri = path.resolve().as_uri()
    doc = store.open(uri, text, 0)
    store.pddl(doc)
    version = 0
    rows = []
    for where, part in (("top", parts[min(1, len(parts) - 1)]), ("middle", parts[len(parts) // 2]),
                        ("end", parts[-1])):
        edited = text[:part.start + 1] + " " + text[part.start + 1:]
        times = []
        changes = []
        for index in range(keystrokes):
            version += 1
            started = time.process_time()
            store.change(uri, edited if index % 2 == 0 else text, version)
            parsing = time.process_time()
            store.pddl(doc)
            times.append((time.process_time() - parsing) * 1000)
            changes.append((parsing - started) * 1000)
        rows.append(f"| {path.name} | {where} | {min(times):.1f} | {statistics.median(times):.1f} | "
                    f"{statistics.median(changes):.1f} |")
        version += 1
        store.change(uri, text, version)
        store.pddl(doc)
    return rows


async def run(paths: list[Path], keystrokes: int) -> list[Result]:
    client = Client()
    await client.start()
    try:
        return [await measure(client, path, keystrokes) for path in paths]
    finally:
        await client.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--keystrokes", type=int, default=5, help="edits measured per file (default 5)")
    parser.add_argument("--json", metavar="FILE", help="also write the measurements as JSON")
    parser.add_argument("files", nargs="*", type=Path, help="measure these files instead of the default four")
    parser.add_argument("--parse-only", action="store_true",
                        help="time only the server's incremental parse per keystroke, at the top, middle and end")
    args = parser.parse_args()
    if args.parse_only:
        print(f"incremental parse per keystroke, {args.keystrokes} edits each; CPU ms")
        print("| file | edit | parse min | parse median | change median |\n| --- | --- | --- | --- | --- |")
        for path in args.files or [p for p in (largest("domain*.pddl"),) if p is not None]:
            print("\n".join(parse_keystrokes(path, args.keystrokes)))
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        paths = list(args.files)
        if not paths:
            paths = [five_thousand_line_domain(folder)]
            paths += [p for p in (largest("domain*.pddl"), largest("instance*.pddl")) if p is not None]
            paths.append(one_megabyte_problem(folder))
        results = asyncio.run(run(paths, args.keystrokes))
    print(f"median of {args.keystrokes} keystrokes; times in ms; keystroke includes the {DEBOUNCE * 1000:.0f} ms "
          "debounce (without it in parentheses); ratio = keystroke without debounce / library parse+check")
    print("| file | KB | lines | first diagnostics | keystroke → diagnostics | hover | definition | completion "
          "| library parse+check | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for result in results:
        print(result.row())
    if args.json:
        data: list[dict[str, Any]] = [asdict(r) for r in results]
        Path(args.json).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
