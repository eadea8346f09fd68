"""Linting many files: a process pool for many files, serial for a few."""

from __future__ import annotations

import argparse
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from jaxlint.config import ConfigResolver
from jaxlint.diagnostic import Diagnostic
from jaxlint.engine import LintOptions, lint_file

SERIAL_BELOW = 8  # files; a pool's start-up costs more than it saves below this


def _lint_one(task: tuple[str, str, object, bool]) -> list[Diagnostic]:
    path, display, settings, verbose = task
    return lint_file(path, LintOptions(settings=settings, verbose=verbose), display)  # type: ignore[arg-type]


def lint_files(
    files: list[tuple[str, str]], resolver: ConfigResolver, args: argparse.Namespace
) -> list[Diagnostic]:
    tasks = [(p, d, resolver.for_path(p), bool(getattr(args, "verbose", False))) for p, d in files]
    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    out: list[Diagnostic] = []
    if jobs <= 1 or len(tasks) < SERIAL_BELOW:
        for t in tasks:
            out.extend(_lint_one(t))
        return out
    ctx = multiprocessing.get_context("fork") if hasattr(os, "fork") else None
    # big files first so the pool's tail is short
    tasks.sort(key=lambda t: -_size(t[0]))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for result in pool.map(_lint_one, tasks, chunksize=4):
            out.extend(result)
    return out


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
