"""Idiom templates: small starter programs, each the canonical JAX way of doing one thing.

`jaxlint template` lists them; `jaxlint template NAME [--out FILE]` prints or writes one.
The templates are package data read with `importlib.resources`; this module never imports JAX.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jaxlint.core.errors import UsageError

__all__ = ["TEMPLATES", "Template", "get_template", "register", "rules_by_template"]


@dataclass(frozen=True)
class Template:
    """One starter program: its CLI name, file in this package, one-line summary, and the
    oldest JAX it runs on when that is newer than every JAX jaxlint supports (0.6): the
    templates show today's idioms, and some of those (`jax.set_mesh`) do not exist on older
    JAX. The rule codes whose fix it shows (`rules`) come from the rules' own `templates`."""

    name: str
    filename: str
    summary: str
    requires_jax: str | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        """Codes of the rules that name this template in their `templates`, sorted."""
        return rules_by_template().get(self.name, ())


@cache
def rules_by_template() -> dict[str, tuple[str, ...]]:
    """Template name -> the codes of the rules that point to it (`Rule.templates`), the one
    source of that relation (the rule docs, docs/rules.md and `jaxlint template` all show it)."""
    from jaxlint.rules import ALL_RULES

    out: dict[str, list[str]] = {}
    for rule in ALL_RULES:
        for name in rule.templates:
            out.setdefault(name, []).append(rule.code)
    return {name: tuple(sorted(codes)) for name, codes in out.items()}


_ALL: tuple[Template, ...] = (
    Template(
        "mre",
        "mre.py",
        "minimal reproducible example: versions, explicit shapes and dtypes, typed keys",
    ),
    Template(
        "training-step",
        "training_step.py",
        "jitted train step: donated state, key plumbing by split, SGD+momentum via jax.tree.map",
    ),
    Template(
        "scan",
        "scan.py",
        "carry-state loops with lax.scan and lax.fori_loop instead of unrolled Python loops",
    ),
    Template(
        "sharding",
        "sharding.py",
        "global-view sharding: jax.make_mesh, NamedSharding, jax.set_mesh, jax.device_put",
        "0.7.1",
    ),
    Template(
        "shard-map",
        "shard_map.py",
        "jax.shard_map with in_specs/out_specs and collectives; both correct gradient patterns",
        "0.7.1",
    ),
    Template(
        "benchmark",
        "benchmark.py",
        "honest timing: warm-up, block_until_ready, compile vs steady state, medians",
    ),
    Template(
        "profile",
        "profiling.py",
        "jax.profiler.trace into a temp dir and save_device_memory_profile",
    ),
    Template(
        "checkify",
        "checkify.py",
        "runtime checks that survive jit with jax.experimental.checkify",
    ),
    Template(
        "custom-vjp",
        "custom_vjp.py",
        "numerically stable custom derivative (softplus) with jax.custom_vjp, checked",
    ),
    Template(
        "export",
        "export.py",
        "jax.export serialise/deserialise round trip with a symbolic batch dimension",
    ),
    Template(
        "pallas",
        "pallas.py",
        "minimal Pallas kernel skeleton (BlockSpec, grid), interpret=True so it runs on CPU",
    ),
    Template(
        "issue-report",
        "issue_report.md",
        "markdown bug-report skeleton: summary, MRE, actual vs expected, environment",
    ),
)

TEMPLATES: dict[str, Template] = {t.name: t for t in _ALL}


def _lookup(name: str) -> Template:
    try:
        return TEMPLATES[name]
    except KeyError:
        raise UsageError(
            f"unknown template {name!r}; choose one of: {', '.join(TEMPLATES)}"
        ) from None


def get_template(name: str) -> str:
    """Source text of the template `name`; raises UsageError for unknown names."""
    template = _lookup(name)
    return resources.files(__name__).joinpath(template.filename).read_text(encoding="utf-8")


def _describe(template: Template) -> dict[str, Any]:
    data = asdict(template)
    return {
        "name": data["name"],
        "filename": data["filename"],
        "summary": data["summary"],
        "rules": list(template.rules),
        "requires_jax": data["requires_jax"],
    }


def _list(fmt: str) -> int:
    if fmt == "json":
        print(json.dumps([_describe(t) for t in TEMPLATES.values()], indent=2))
        return 0
    width = max(len(name) for name in TEMPLATES)
    for template in TEMPLATES.values():
        rules = f"  [{', '.join(template.rules)}]" if template.rules else ""
        needs = f"  (JAX >= {template.requires_jax})" if template.requires_jax else ""
        print(f"{template.name:<{width}}  {template.summary}{rules}{needs}")
    return 0


def _handle(args: argparse.Namespace) -> int:
    if args.name is None:
        if args.out is not None:
            raise UsageError("--out needs a template name")
        return _list(args.format)
    template = _lookup(args.name)
    source = get_template(template.name)
    if args.out is None:
        if args.format == "json":
            print(json.dumps({**_describe(template), "source": source}, indent=2))
        else:
            sys.stdout.write(source)
        return 0
    out = Path(args.out)
    if out.is_dir():
        raise UsageError(f"{out} is a directory; give a file name, e.g. {out / template.filename}")
    if out.exists() and not args.force:
        raise UsageError(f"{out} already exists; use --force to overwrite it")
    try:
        out.write_text(source, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"wrote template {template.name!r} to {out}", file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    """Add the `template` subcommand to the CLI's subparsers."""
    parser = subparsers.add_parser(
        "template",
        help="print or write an idiomatic JAX starter program",
        description=(
            "Print an idiom template (the canonical JAX way of doing one thing), or write it "
            "with --out. Without NAME, list the templates."
        ),
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="template name (omit to list)")
    parser.add_argument("--out", "-o", metavar="FILE", help="write to FILE instead of stdout")
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="output format for the list (json: name, filename, summary, rules)",
    )
    parser.set_defaults(handler=_handle)
