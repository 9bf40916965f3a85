"""Command-line options that several sub-commands share, so that they read the same everywhere."""

from __future__ import annotations

import argparse


def add_fmt_mode(parser: argparse.ArgumentParser, layout: str) -> None:
    """FILE, --write | --check, and --drop-comments, for a formatter that prints `layout`."""
    parser.add_argument("file", metavar="FILE")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", "-w", action="store_true", help="rewrite FILE in place instead of printing")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if FILE is not in the {layout}")
    parser.add_argument("--drop-comments", action="store_true",
                        help="allow --write to rewrite a file that has comments (they are not kept)")
