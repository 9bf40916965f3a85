"""Where the RDDL tests find their files: this repository's corpus/rddl, the shared IPC corpus beside
the repository (../shared/corpus/rddl, read only) and the files of the rddlrepository package."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OWN_CORPUS = REPO / "corpus" / "rddl"
SHARED_CORPUS = REPO.parent / "shared" / "corpus" / "rddl"


def shared_corpus_files() -> list[Path]:
    """Every RDDL file of the shared corpus, including traffic's `.rddl.simulate`/`.translate` variants."""
    if not SHARED_CORPUS.is_dir():
        return []
    return sorted(p for p in SHARED_CORPUS.rglob("*") if p.is_file() and ".rddl" in p.name)


def repository_root() -> Path | None:
    try:
        import rddlrepository
    except ImportError:
        return None
    return Path(rddlrepository.__file__).resolve().parent


def repository_files() -> list[Path]:
    root = repository_root()
    return sorted(root.rglob("*.rddl")) if root is not None else []


@pytest.fixture(scope="session")
def shared_files() -> list[Path]:
    files = shared_corpus_files()
    if not files:
        pytest.skip(f"the shared corpus is not at {SHARED_CORPUS}")
    return files


@pytest.fixture(scope="session")
def repo_files() -> list[Path]:
    files = repository_files()
    if not files:
        pytest.skip("the rddlrepository package is not installed (pip install -e .[test])")
    return files
