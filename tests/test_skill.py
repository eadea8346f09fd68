"""`jaxlint skill --out DIR`: the front matter parses, and every `jaxlint ...` command it shows
exists, parses with the real argument parser and answers `--help`."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from jaxlint.cli import build_parser
from jaxlint.rules import ALL_RULES
from jaxlint.templates import TEMPLATES
from tests.conftest import ROOT

CODE_SPAN = re.compile(r"`(jaxlint [^`]+)`")


def _skill(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "skill"
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "skill", "--out", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    return out


def _front_matter(text: str) -> dict[str, str]:
    """Parse the YAML front matter: with PyYAML when installed, else the flat subset we write
    (`key: value`, values possibly double-quoted JSON strings)."""
    assert text.startswith("---\n")
    block, _, _ = text[4:].partition("\n---\n")
    try:
        import yaml
    except ImportError:
        import json

        data = {}
        for line in block.splitlines():
            key, _, value = line.partition(": ")
            data[key] = json.loads(value) if value.startswith('"') else value
        return data
    return yaml.safe_load(block)


def _commands(text: str) -> list[str]:
    """Every jaxlint command shown: lines of fenced blocks, and inline code spans."""
    found = []
    in_fence = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence and line.strip().startswith("jaxlint "):
            found.append(line.strip())
        elif not in_fence:
            found.extend(m.group(1) for m in CODE_SPAN.finditer(line))
    return found


@pytest.mark.parametrize("target", ["claude", "generic"])
def test_front_matter_and_layout(tmp_path: Path, target: str) -> None:
    out = _skill(tmp_path, "--for", target)
    text = (out / "SKILL.md").read_text()
    meta = _front_matter(text)
    assert meta["name"] == "jaxlint"
    assert re.fullmatch(r"[a-z0-9-]{1,64}", meta["name"])
    assert meta["description"].startswith("Use when") and len(meta["description"]) <= 1024
    assert ("allowed-tools" in meta) == (target == "claude")
    for step in (
        "Classify the problem",
        "Inspect the environment",
        "Scan the project",
        "minimal reproducer",
        "least powerful mechanism",
        "Verify claims by measurement",
    ):
        assert step in text
    for item in (
        "Host round trips",
        "Hidden PRNG or state",
        "Compile time versus run time",
        "honest verification",
    ):
        assert item in text
    pages = sorted(p.relative_to(out).as_posix() for p in (out / "references").iterdir())
    assert "references/templates.md" in pages and "references/rules-prng.md" in pages


def test_red_flags_and_references_come_from_the_registry(tmp_path: Path) -> None:
    out = _skill(tmp_path)
    text = (out / "SKILL.md").read_text()
    flags = text.split("## Red flags", 1)[1].split("## Review checklist", 1)[0]
    assert re.findall(r"^- `(JAX\d{3})`", flags, re.M) == sorted(
        (r.code for r in ALL_RULES), key=lambda c: flags.index(f"`{c}`")
    )
    assert {c for c in re.findall(r"`(JAX\d{3})`", flags)} == {r.code for r in ALL_RULES}
    known = {r.code for r in ALL_RULES}
    assert set(re.findall(r"JAX\d{3}", text)) <= known  # no code that does not exist
    references = "".join(p.read_text() for p in (out / "references").iterdir())
    for rule in ALL_RULES:
        assert f"## {rule.code} {rule.name}" in references
        assert rule.docs().strip().splitlines()[0] in references
    for name in TEMPLATES:
        assert f"`jaxlint template {name}`" in references


def test_every_command_parses_and_answers_help(tmp_path: Path) -> None:
    out = _skill(tmp_path)
    commands = []
    for page in [out / "SKILL.md", *(out / "references").iterdir()]:
        commands += _commands(page.read_text())
    assert len(commands) > 15
    parser = build_parser()
    subcommands = set()
    for command in commands:
        argv = shlex.split(command)[1:]
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # argparse: an option or subcommand that does not exist
            pytest.fail(f"{command!r} does not parse (exit {exc.code})")
        assert getattr(args, "handler", None) is not None, command
        subcommands.add(argv[0])
    assert {
        "env",
        "check",
        "explain",
        "rules",
        "template",
        "verify",
        "probe",
        "bench",
    } <= subcommands
    for sub in sorted(subcommands):
        proc = subprocess.run(
            [sys.executable, "-m", "jaxlint", sub, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, PYTHONPATH=ROOT),
        )
        assert proc.returncode == 0 and "usage: jaxlint" in proc.stdout, (sub, proc.stderr)


def test_static_commands_run_as_shown(tmp_path: Path, run_cli) -> None:  # noqa: ANN001
    """The steps that need no JAX run for real: explain, rules, templates, check of the MRE."""
    _skill(tmp_path)
    assert run_cli("explain", "JAX201").returncode == 0
    assert run_cli("rules").returncode == 0
    assert run_cli("template").returncode == 0
    assert run_cli("template", "training-step").returncode == 0
    assert run_cli("template", "mre", "--out", "mre.py").returncode == 0
    assert run_cli("check", "mre.py").returncode in (0, 1)


def test_existing_skill_is_not_overwritten(tmp_path: Path) -> None:
    out = _skill(tmp_path)
    (out / "SKILL.md").write_text("mine\n")
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "skill", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    assert proc.returncode == 2 and "--force" in proc.stderr
    assert (out / "SKILL.md").read_text() == "mine\n"
    _skill(tmp_path, "--force")
    assert (out / "SKILL.md").read_text().startswith("---\n")


def test_rules_group_by_their_registry_family():
    """A family split into one module per rule (`jaxlint.rules.compile.jit_on_method`) still
    groups as its family, so the skill keeps one section per family, not one per rule."""
    from jaxlint.core.codes import FAMILIES
    from jaxlint.skill import _family

    assert {_family(rule) for rule in ALL_RULES} <= set(FAMILIES)
