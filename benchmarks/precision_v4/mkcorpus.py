"""Build corpus.json and the recorded split of precision corpus v4 (issue 23, "How to measure").

Run once, BEFORE any jaxlint run on these repositories:
    python benchmarks/precision_v4/mkcorpus.py SEED
SEED comes from `python -c "import secrets; print(secrets.randbits(64))"` and is recorded in
flips.txt with every draw. Balancing by size: the repositories are sorted by lines (python +
notebook code cells) and paired consecutively (largest two, next two, ...); one draw of
random.Random(SEED).randrange(2) per pair decides which member goes to the tuning half
(0: the larger, 1: the smaller); the other goes to the check half.
"""

import json
import pathlib
import random
import subprocess
import sys

ROOT = pathlib.Path("/work/precision-v4")
HERE = pathlib.Path(__file__).parent
KIND = {
    "AI-Hypercomputer/JetStream": "LLM inference engine (jax, flax)",
    "Ceyron/exponax": "PDE solvers, library on equinox",
    "EdanToledo/Stoix": "RL training scripts (flax linen, optax)",
    "NX-AI/xlstm-jax": "LLM research/training code (flax linen)",
    "dfm/tinygp": "Gaussian process library (jax, equinox)",
    "google/dopamine": "RL research framework (jax agents, flax)",
    "google/nerfies": "research code (flax linen)",
    "google-deepmind/alphafold3": "research model (haiku)",
    "google-deepmind/disentangled_rnns": "research code (haiku, optax)",
    "google-deepmind/dm_pix": "image processing library (jax)",
    "google-deepmind/ithaca": "research model (haiku)",
    "google-deepmind/jaxline": "training loop library (jax, haiku examples)",
    "google-deepmind/mujoco_playground": "RL environments and training (mjx, brax)",
    "google-deepmind/nanodo": "LM training scripts (flax linen, optax)",
    "google-deepmind/recurrentgemma": "model library (flax linen and pure jax)",
    "google-deepmind/synjax": "structured distributions library (jax)",
    "google-deepmind/tracr": "research compiler to transformers (haiku)",
    "google-research/jestimator": "optimizers and training (flax, optax)",
    "google-research/neuralgcm": "weather model (haiku)",
    "instadeepai/og-marl": "offline MARL training (jax, flax)",
    "jax-ml/bonsai": "model implementations (flax nnx)",
    "jaxleyverse/jaxley": "neuron simulation library (jax)",
    "lockwo/distreqx": "distributions library on equinox",
    "matthias-wright/flaxmodels": "pretrained models (flax linen)",
    "paganpasta/eqxvision": "vision models on equinox",
    "patrick-kidger/quax": "library on equinox",
    "pnkraemer/probdiffeq": "probabilistic ODE solvers (jax)",
    "salesforce/jaxformer": "LLM training (jax, TPU)",
}


def nb_lines(d: pathlib.Path) -> int:
    n = 0
    for p in d.rglob("*.ipynb"):
        try:
            nbj = json.loads(p.read_text(encoding="utf-8"))
        except Exception:
            continue
        for c in nbj.get("cells", []):
            if c.get("cell_type") == "code":
                src = c.get("source", "")
                src = "".join(src) if isinstance(src, list) else src
                n += len(src.splitlines())
    return n


def git(gd: str, *a: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={gd}", *a], capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    seed = int(sys.argv[1])
    repos = []
    for name in sorted(KIND, key=str.lower):
        key = name.replace("/", "+")
        gd = f"/work/.mirror/{key}/repo"
        d = ROOT / "repos" / key
        py = sum(len(p.read_bytes().splitlines()) for p in d.rglob("*.py"))
        nb = nb_lines(d)
        repos.append(
            {
                "repo": name,
                "kind": KIND[name],
                "commit": git(gd, "rev-parse", "HEAD"),
                "commit_date": git(gd, "log", "-1", "--format=%cs"),
                "python_lines": py,
                "notebook_code_lines": nb,
                "lines": py + nb,
                "notebooks": len(list(d.rglob("*.ipynb"))),
                "path": str(d),
            }
        )
    rng = random.Random(seed)
    order = sorted(repos, key=lambda r: -r["lines"])
    log = [f"seed {seed} (secrets.randbits(64)); random.Random(seed).randrange(2) per size pair"]
    log.append("0 = the larger of the pair to tuning, 1 = the smaller to tuning")
    for i in range(0, len(order), 2):
        a, b = order[i], order[i + 1]
        draw = rng.randrange(2)
        tun, chk = (a, b) if draw == 0 else (b, a)
        tun["half"], chk["half"] = "tuning", "check"
        tun["draw"] = chk["draw"] = draw
        log.append(
            f"pair {i // 2 + 1}: {a['repo']} ({a['lines']}) / {b['repo']} ({b['lines']}) draw={draw}"
            f" -> tuning {tun['repo']}, check {chk['repo']}"
        )
    (HERE / "flips.txt").write_text("\n".join(log) + "\n")
    out = {
        "what": "Fresh precision corpus v4 (issue 23, 'How to measure'): 28 public JAX repositories, none named in /work/main (docs/, benchmarks/ incl. precision_v3 and every json, tests/, README), main's git log, the issues, or /work/shared (reports/, reference/); split into a tuning half and a held-out check half by a recorded seeded draw BEFORE jaxlint was run on any of them.",
        "built": "2026-12-02 by helper (branch r4-corpus), jaxlint at main 330b186",
        "snapshots": "fetch tool mirrors (newest stored snapshot), HEAD exported blob by blob (benchmarks/precision_v3/export.py); blobs absent from a snapshot are absent",
        "selection_notes": [
            "exclusion check: each owner/name and the repository name alone (grep -iw) over docs/, benchmarks/, tests/, README.md of /work/main, /work/shared/reports and /work/shared/reference, main's git log and `issues list`; any hit excluded the candidate (e.g. purejaxrl, optimistix, EasyLM, dynamax, GPJax, lineax, distrax, gymnax, evosax, jumanji, brax, diffrax, blackjax, big_vision, ferminet, graphcast, jax-md, numpyro were excluded so)",
            "fetched but dropped before the split for size: google/tunix (144k .py lines, above 100k), netket/netket (108k), patrick-kidger/sympy2jax (0.5k, below 2k), google-deepmind/language_modeling_is_compression (1.5k)",
        ],
        "flip_method": "seeded draw, size-balanced: sort by lines, pair consecutively, random.Random(seed).randrange(2) per pair picks the tuning member (see flips.txt)",
        "flip_log": "\n".join(log),
        "repos": repos,
        "totals": {
            h: {
                "repos": sum(r["half"] == h for r in repos),
                "python_lines": sum(r["python_lines"] for r in repos if r["half"] == h),
                "notebook_code_lines": sum(
                    r["notebook_code_lines"] for r in repos if r["half"] == h
                ),
            }
            for h in ("tuning", "check")
        },
    }
    (HERE / "corpus.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out["totals"]))
    for r in repos:
        print(r["half"], r["repo"], r["commit"][:8], r["lines"])


if __name__ == "__main__":
    main()
