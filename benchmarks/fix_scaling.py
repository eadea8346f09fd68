"""Does linting cost grow linearly with the findings in one file?

`examples/train_step.py` repeated k times, its functions renamed per copy (no duplicate
names), linted in-process (`engine.lint_text`, default rules, as `jaxlint check` does) and,
with `--fix`, fixed (`engine.fix_text` with unsafe fixes, as `jaxlint check --diff
--unsafe-fixes` does). CPU seconds from `time.process_time` (the machine may be shared:
compare the ratios of one run, not seconds across runs). Not a test: tests/test_fix_scaling.py
counts the per-module work instead (parses, key analyses, fix rounds), which is exact.

    python benchmarks/fix_scaling.py                 # k = 15, 30, 60
    python benchmarks/fix_scaling.py --sizes 15 60 --fix
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jaxlint.core.config import Settings  # noqa: E402
from jaxlint.engine import LintOptions, fix_text, lint_text  # noqa: E402

# JAX201 (whose fixes are the quadratic case) is in preview since the v15 check set
OPTIONS = LintOptions(settings=Settings(preview=True))

EXAMPLE = ROOT / "examples" / "train_step.py"
NAMES = ("init_params", "loss_fn", "train_step", "main")


def repeated(k: int, text: str | None = None) -> str:
    """`k` copies of the example's functions, each copy's renamed (`init_params_3`, ...),
    under one copy of its docstring and imports: a long module imports `jax` once. (Copying
    the imports too made `jax` a name bound k times, so every lookup of it walked k
    bindings: a quadratic cost of the benchmark's file, not of any real one.)"""
    text = text if text is not None else EXAMPLE.read_text(encoding="utf-8")
    body = text.split('if __name__ == "__main__":')[0]
    cut = re.search(r"^(def|class|@)", body, flags=re.MULTILINE)
    head, body = (body[: cut.start()], body[cut.start() :]) if cut else ("", body)
    pattern = re.compile(r"\b(" + "|".join(NAMES) + r")\b")
    return head + "".join(pattern.sub(lambda m, i=i: f"{m.group(1)}_{i}", body) for i in range(k))


def cpu(fn, repeat: int = 1) -> tuple[float, object]:  # noqa: ANN001
    """The median CPU seconds of `repeat` runs of `fn` (one run of a small file is a fraction
    of a second, which a shared machine's noise moves by half), and its last result."""
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[15, 30, 60])
    ap.add_argument("--fix", action="store_true", help="also time fix_text (unsafe fixes)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per size (the median counts)")
    args = ap.parse_args(argv)
    lint_text(repeated(1), "warmup.py", OPTIONS)  # imports, rule tables
    rows = []
    for k in args.sizes:
        text = repeated(k)
        lines = text.count("\n")
        t_lint, diags = cpu(lambda text=text: lint_text(text, "big.py", OPTIONS), args.repeat)
        jax201 = sum(d.code == "JAX201" for d in diags)  # type: ignore[union-attr]
        row = {"k": k, "lines": lines, "findings": len(diags), "jax201": jax201, "lint": t_lint}  # type: ignore[arg-type]
        if args.fix:
            row["fix"], _ = cpu(
                lambda text=text: fix_text(text, "big.py", OPTIONS, unsafe=True), args.repeat
            )
        rows.append(row)
        extra = f"  fix {row['fix']:7.2f} s" if args.fix else ""
        print(
            f"k={k:4d}  {lines:6d} lines  {row['findings']:5d} findings "
            f"({jax201} JAX201)  lint {t_lint:7.2f} s{extra}",
            flush=True,
        )
    first, last = rows[0], rows[-1]
    growth = last["findings"] / first["findings"]
    for what in ("lint", "fix") if args.fix else ("lint",):
        ratio = last[what] / max(first[what], 1e-9)
        print(f"{what}: {growth:.1f}x the findings cost {ratio:.1f}x the CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
