"""Which domain file a PDDL problem is for: one set of rules for `check --each`, `validate`, `run` and the editor.

The rules, most specific first (the layouts the IPC published its benchmarks in):

1. `--domain FILE`, when given, for every problem.
2. A domain file named for the problem: `domain-N.pddl` / `domain_N.pddl` / `domainN.pddl` for a problem
   numbered N (`instance-N.pddl`, `pN.pddl`), `pNN-domain.pddl` and `domain_pNN.pddl` for `pNN*.pddl`,
   `domain-STEM.pddl` / `STEM-domain.pddl` for `STEM.pddl`; looked for beside the problem, in `domains/`
   beside it, in `../domains/` (the IPC-2008/2011/2014 layout) and in the folder above.
3. `domain.pddl` beside the problem, then in the folder above (`domain.pddl` beside `instances/`).

An HDDL problem (`.hddl`) is paired by the same rules with `.hddl` files only (`domain.hddl`,
`pfile01-domain.hddl` for `pfile01.hddl`: the IPC-2020 HTN layouts).
4. A file that declares `(define (domain NAME))` for the problem's `(:domain NAME)`: among the files the
   command was given, then the `.pddl` files beside the problem, in the folder above and in the folders
   beside the problem's. When several declare it, the first is taken and the choice is ambiguous.

A file found by rules 2 and 3 that declares another domain than the problem names is passed over for
one that rule 4 finds; when rule 4 finds none it is still used (the checker then says the names differ).
Files are classified by their first bytes only (no parse), once per finder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pddltools.diagnostics import InputError
from pddltools.reading import read_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Literal

    Kind = Literal["domain", "problem"]

HEAD_BYTES = 16384  # a header comment longer than this hides a file's kind
_MAX_NEARBY = 400  # files read for their header when looking for a domain by name
_MAX_SIBLING_FOLDERS = 20

_COMMENT = re.compile(r";[^\n]*")
_DOMAIN = re.compile(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", re.IGNORECASE)
_PROBLEM = re.compile(r"\(\s*define\s*\(\s*problem\b", re.IGNORECASE)
_PROBLEM_DOMAIN = re.compile(r"\(\s*:domain\s+([^\s()]+)", re.IGNORECASE)
_KEYED = re.compile(r"^(?:domain[-_]?(?P<after>.+)|(?P<before>.+?)[-_]domain)$", re.IGNORECASE)
_LEAD = re.compile(r"^([a-z]*)[-_]?(\d+)")


def read_head(path: str | Path) -> str | None:
    """The first bytes of a file as text, or None when it cannot be read."""
    try:
        return read_input(path, limit=HEAD_BYTES, truncate=True).decode("utf-8", errors="replace")
    except InputError:
        return None


def classify(text: str) -> tuple[Kind | None, str | None]:
    """(`domain`, its name) or (`problem`, the domain it names) from a file's first bytes; (None, None)
    for text that is neither, as far as its head shows."""
    head = _COMMENT.sub(" ", text)
    domain = _DOMAIN.search(head)
    problem = _PROBLEM.search(head)
    if domain and (not problem or domain.start() < problem.start()):
        return "domain", domain.group(1).lower()
    if problem:
        wanted = _PROBLEM_DOMAIN.search(head, problem.end())
        return "problem", wanted.group(1).lower() if wanted else None
    return None, None


@dataclass(frozen=True)
class Resolution:
    """The domain file of one problem and how it was found."""

    problem: Path
    domain: Path | None
    rule: str  # which rule found it, in words ("domains/domain-N.pddl beside instances/", ...)
    wanted: str | None  # the name the problem's (:domain NAME) gives, when it could be read
    others: tuple[Path, ...] = ()  # other files declaring the same domain: the choice was ambiguous

    @property
    def ambiguous(self) -> bool:
        return bool(self.others)

    def missing(self) -> str:
        """What to tell a user when no domain was found."""
        name = f"`{self.wanted}` " if self.wanted else ""
        return (f"no domain {name}found for this problem: looked for domain.pddl and files named for it "
                "beside it, in domains/ and in the folder above, and for a file declaring "
                f"(define (domain {self.wanted or 'NAME'})) near it; give --domain FILE to say which")

    def ambiguity(self) -> str:
        """What to tell a user when several files declare the problem's domain."""
        others = ", ".join(str(p) for p in self.others)
        return f"{len(self.others) + 1} files declare domain {self.wanted}: checked against {self.domain}, not {others}"


def classify_file(path: str | Path) -> tuple[Kind | None, str | None]:
    """`classify` of a file's first bytes; (None, None) when it cannot be read."""
    text = read_head(path)
    return classify(text) if text is not None else (None, None)


@dataclass
class DomainFinder:
    """Finds domains by the rules above. `given` are files named on the command line (or open in the
    editor), searched first by name; `classify_path` says what a file holds (the editor passes one that
    sees unsaved text and keeps what it read). Keeps what it read: make one per command."""

    forced: Path | None = None
    given: Sequence[Path] = ()
    classify_path: Callable[[Path], tuple[Kind | None, str | None]] = classify_file
    _kinds: dict[Path, tuple[Kind | None, str | None]] = field(default_factory=dict)
    _listings: dict[tuple[Path, str], list[Path]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Absolute (not resolved: links stay as the user named them), so that `domain.pddl` given and the
        # same file found above `instances/` compare equal, and `..` of a bare file name is its folder's parent.
        self.given = [_absolute(p) for p in self.given]

    def kind(self, path: Path) -> tuple[Kind | None, str | None]:
        """What `path` holds, read once: see `classify`."""
        known = self._kinds.get(path)
        if known is None:
            known = self._kinds[path] = self.classify_path(path)
        return known

    def find(self, problem: Path, wanted: str | None = None) -> Resolution:
        """The domain of `problem`; `wanted` is its (:domain NAME), read from the file when not given."""
        problem = _absolute(problem)
        if wanted is None:
            kind, name = self.kind(problem)
            wanted = name if kind == "problem" else None
        wanted = wanted.lower() if wanted else None
        if self.forced is not None:
            return Resolution(problem, self.forced, "given with --domain", wanted)
        mismatched: Resolution | None = None
        for candidate, rule in self._conventional(problem):
            kind, name = self.kind(candidate)
            if kind == "problem":
                continue
            if wanted is None or name is None or name == wanted:
                return Resolution(problem, candidate, rule, wanted)
            mismatched = mismatched or Resolution(problem, candidate, rule, wanted)
        if wanted is not None:
            declaring = [p for p in self._nearby(problem) if self.kind(p) == ("domain", wanted)]
            if declaring:
                return Resolution(problem, declaring[0], f"declares (domain {wanted})", wanted, tuple(declaring[1:]))
        return mismatched or Resolution(problem, None, "not found", wanted)

    # -- the rules ------------------------------------------------------------------------------
    def _conventional(self, problem: Path) -> Iterable[tuple[Path, str]]:
        folder = problem.parent
        suffix = _suffix(problem)
        places = ((folder, "beside the problem"), (folder / "domains", "in domains/ beside the problem"),
                  (folder.parent / "domains", "in domains/ of the folder above"),
                  (folder.parent, "in the folder above"))
        for place, where in places:
            for candidate in self._files(place, suffix):
                match = _KEYED.match(candidate.stem)
                if match and candidate != problem and _fits(match.group("after") or match.group("before"),
                                                            problem.stem):
                    yield candidate, f"{candidate.name} {where}, named for {problem.name}"
        for place, where in ((folder, "beside the problem"), (folder.parent, "in the folder above")):
            shared = place / f"domain{suffix}"
            if shared != problem and shared in self._files(place, suffix):
                yield shared, f"{shared.name} {where}"

    def _nearby(self, problem: Path) -> list[Path]:
        """Files that may declare the domain: those given, then beside, above and in the folders beside."""
        folder = problem.parent
        try:
            # not through links: a link to the problem's own folder would offer each file twice
            siblings = sorted(d for d in folder.parent.iterdir() if d.is_dir() and not d.is_symlink() and d != folder)
        except OSError:
            siblings = []
        out: dict[Path, None] = dict.fromkeys(p for p in self.given if p != problem)  # ordered, each once
        for place in (folder, folder.parent, *siblings[:_MAX_SIBLING_FOLDERS]):
            out.update(dict.fromkeys(p for p in self._files(place, _suffix(problem)) if p != problem))
            if len(out) >= _MAX_NEARBY:
                break
        return list(out)[:_MAX_NEARBY]

    def _files(self, folder: Path, suffix: str = ".pddl") -> list[Path]:
        """The files of `folder` ending in `suffix` (.pddl, .hddl), sorted (listed once)."""
        listed = self._listings.get((folder, suffix))
        if listed is None:
            try:
                # scandir: the entry's type comes with the listing, no stat per file (instances/ holds hundreds)
                from pathlib import Path  # pathlib only where a domain is looked for (start-up)

                with os.scandir(folder) as entries:
                    listed = sorted(Path(e.path) for e in entries if e.name.lower().endswith(suffix) and e.is_file())
            except OSError:
                listed = []
            self._listings[(folder, suffix)] = listed
        return listed


def _suffix(problem: Path) -> str:
    """The suffix of the problem's language (`pddltools.dialects`), which its domain shares: .hddl for
    HDDL, else .pddl."""
    from pddltools import dialects

    return dialects.of_path(problem).suffixes[0]


def _absolute(path: Path) -> Path:
    from pathlib import Path

    return Path(os.path.abspath(path))


def _fits(key: str, stem: str) -> bool:
    """Whether a domain file keyed `key` (`p01` of p01-domain, `3` of domain-3) is for a problem named `stem`."""
    key, stem = key.lower(), stem.lower()
    if stem == key or stem.startswith((key + "-", key + "_")):
        return True
    if key.isdigit():  # domain-3: the problem numbered 3 (instance-3, p03, pfile3)
        number = re.search(r"\d+", stem)
        return number is not None and int(number.group()) == int(key)
    lead_key, lead_stem = _LEAD.fullmatch(key), _LEAD.match(stem)  # domain_p01 for p1, p01 and p001
    return (lead_key is not None and lead_stem is not None and lead_key.group(1) == lead_stem.group(1)
            and int(lead_key.group(2)) == int(lead_stem.group(2)))


def task_arguments(paths: Sequence[str], forced: str | None = None) -> tuple[Resolution | None, list[str]]:
    """For a command taking `DOMAIN PROBLEM ...`: when `--domain` is given or the first path holds a
    problem, the resolution of that problem's domain and every path from the problem on; else (None,
    `paths`), the first path being the domain."""
    if not paths:
        return None, list(paths)
    # the first path read for its kind without pathlib, which a domain given first never needs (start-up)
    if forced is None and classify_file(paths[0])[0] != "problem":
        return None, list(paths)
    from pathlib import Path

    finder = DomainFinder(forced=Path(forced) if forced is not None else None)
    return finder.find(Path(paths[0])), list(paths)
