"""How long after a keystroke does the editor see jaxlint's diagnostics?

Starts `jaxlint lsp` as a subprocess over stdio (a pygls client, like an editor), opens a
~1,000-line realistic JAX module and sends didChange notifications, measuring the time from
sending each change to receiving its textDocument/publishDiagnostics. Not a test: run it by
hand and record the figures in docs/editors.md.

    python benchmarks/lsp_latency.py                      # generated 1,000-line module
    python benchmarks/lsp_latency.py --file path/to/module.py --changes 50

Two measurements:
- isolated: one change after a quiet period (the common case: an edit, a paste, a quick fix);
  the server lints such a change at once.
- burst: `--burst-size` changes `--burst-gap-ms` apart (typing); the latency is from the
  last change to the diagnostics of the last version. It includes the debounce wait.
Also prints the in-process `lint_text` time on the same text, for the protocol overhead, and
the in-process time of the document's `IncrementalLinter` (what the server runs after an edit).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

BLOCK = '''

# ---- block {i}: a small model, its loss and a training step ----


class Config{i}:
    hidden = {hidden}
    layers = 3
    learning_rate = 1e-3
    dropout = 0.1


def init_mlp_{i}(key, sizes):
    """Glorot-initialised weights for an MLP with the given layer sizes."""
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, (n_in, n_out) in zip(keys, zip(sizes[:-1], sizes[1:])):
        w_key, b_key = jax.random.split(k)
        scale = jnp.sqrt(2.0 / (n_in + n_out))
        params.append(
            {{
                "w": scale * jax.random.normal(w_key, (n_in, n_out)),
                "b": jnp.zeros((n_out,)),
            }}
        )
    return params


def mlp_{i}(params, x):
    for layer in params[:-1]:
        x = jax.nn.gelu(x @ layer["w"] + layer["b"])
    last = params[-1]
    return x @ last["w"] + last["b"]


def loss_{i}(params, batch):
    logits = mlp_{i}(params, batch["x"])
    labels = jax.nn.one_hot(batch["y"], logits.shape[-1])
    return -jnp.mean(jnp.sum(labels * jax.nn.log_softmax(logits), axis=-1))


@jax.jit
def train_step_{i}(params, opt_state, batch):
    loss, grads = jax.value_and_grad(loss_{i})(params, batch)
    grads = jax.tree_map(lambda g: jnp.clip(g, -1.0, 1.0), grads)
    updates = jax.tree.map(lambda g, m: 0.9 * m + 0.1 * g, grads, opt_state)
    params = jax.tree.map(lambda p, u: p - Config{i}.learning_rate * u, params, updates)
    return params, updates, loss


@partial(jax.jit, static_argnames=("num_steps",))
def rollout_{i}(params, state, num_steps):
    def body(carry, _):
        h = jnp.tanh(carry @ params[0]["w"][: carry.shape[-1]])
        return h, h.mean()

    final, trace = jax.lax.scan(body, state, None, length=num_steps)
    return final, trace


def evaluate_{i}(params, batches):
    total, count = 0.0, 0
    for batch in batches:
        logits = mlp_{i}(params, batch["x"])
        total += float(jnp.sum(jnp.argmax(logits, -1) == batch["y"]))
        count += batch["y"].shape[0]
    return total / max(count, 1)


def make_batches_{i}(key, n, dim):
    key, k_x, k_y = jax.random.split(key, 3)
    x = jax.random.normal(k_x, (n, dim))
    y = jax.random.randint(k_y, (n,), 0, 10)
    mask = jnp.ones((n,))
    mask[0] = 0.0
    return [{{"x": x[j : j + 32], "y": y[j : j + 32]}} for j in range(0, n, 32)]
'''

HEADER = '''"""Generated for benchmarks/lsp_latency.py: realistic JAX training code with a few sharp bits."""

from functools import partial

import jax
import jax.numpy as jnp

EDITED = 0
'''


def generated_module(target_lines: int = 1000) -> str:
    parts = [HEADER]
    i = 0
    while sum(p.count("\n") for p in parts) < target_lines:
        parts.append(BLOCK.format(i=i, hidden=64 * (i + 1)))
        i += 1
    return "".join(parts)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def summary(name: str, values_s: list[float]) -> str:
    ms = [v * 1000 for v in values_s]
    return (
        f"{name:<34} n={len(ms):<3} median {statistics.median(ms):7.1f} ms   "
        f"p90 {percentile(ms, 90):7.1f} ms   min {min(ms):7.1f} ms   max {max(ms):7.1f} ms"
    )


class Bench:
    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.client = LanguageClient("jaxlint-latency", "1")
        self.arrivals: asyncio.Queue[tuple[float, int | None, int]] = asyncio.Queue()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(_client: LanguageClient, params: types.PublishDiagnosticsParams):
            if params.uri == self.uri:
                self.arrivals.put_nowait(
                    (time.perf_counter(), params.version, len(params.diagnostics))
                )

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def on_register(_client: LanguageClient, _params: types.RegistrationParams) -> None:
            return None

    async def until_version(self, version: int) -> tuple[float, int]:
        while True:
            at, got, count = await asyncio.wait_for(self.arrivals.get(), timeout=60)
            if got == version:
                return at, count


def change(bench: Bench, text: str, version: int) -> None:
    bench.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=bench.uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def edited(text: str, n: int) -> str:
    return text.replace("EDITED = 0\n", f"EDITED = {n}\n", 1)


async def run(args: argparse.Namespace) -> None:
    if args.file:
        # opened under a name in the current folder (never written): a file inside
        # site-packages would be skipped by the default excludes
        text = Path(args.file).read_text(encoding="utf-8")
        path = Path(os.getcwd(), "lsp_latency_" + Path(args.file).name).resolve()
        if "EDITED = 0\n" not in text:
            text += "\nEDITED = 0\n"
    else:
        path = Path(os.getcwd(), "lsp_latency_generated.py").resolve()  # never written
        text = generated_module(args.lines)
    uri = path.as_uri()
    bench = Bench(uri)
    client = bench.client
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "jaxlint", "lsp", "--debounce-ms", str(args.debounce_ms)]

    t0 = time.perf_counter()
    await client.start_io(*cmd, env=env)
    await client.initialize_async(
        types.InitializeParams(
            process_id=os.getpid(),
            capabilities=types.ClientCapabilities(),
            root_uri=path.parent.as_uri(),
        )
    )
    client.initialized(types.InitializedParams())
    started = time.perf_counter() - t0

    t0 = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    at, count = await bench.until_version(1)
    opened = at - t0

    version = 1
    isolated = []
    for n in range(1, args.changes + 1):
        await asyncio.sleep(args.quiet_ms / 1000)
        version += 1
        t0 = time.perf_counter()
        change(bench, edited(text, n), version)
        at, _ = await bench.until_version(version)
        isolated.append(at - t0)

    bursts = []
    for b in range(args.bursts):
        await asyncio.sleep(args.quiet_ms / 1000)
        for k in range(args.burst_size):
            version += 1
            last = time.perf_counter()
            change(bench, edited(text, 10_000 + b * 100 + k), version)
            if k + 1 < args.burst_size:
                await asyncio.sleep(args.burst_gap_ms / 1000)
        at, _ = await bench.until_version(version)
        bursts.append(at - last)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()

    from jaxlint.core.config import ConfigResolver
    from jaxlint.engine import LintOptions, lint_text

    options = LintOptions(settings=ConfigResolver().for_path(str(path)))
    in_process = []
    for n in range(max(10, args.changes // 2)):
        t0 = time.perf_counter()
        lint_text(edited(text, n), str(path), options)
        in_process.append(time.perf_counter() - t0)

    # what the server runs after an edit: the document's incremental lint (by parts)
    from jaxlint.incremental import IncrementalLinter

    linter = IncrementalLinter()
    linter.lint(edited(text, 0), str(path), replace(options, lazy_fixes=True))
    by_parts = []
    for n in range(1, max(10, args.changes // 2) + 1):
        t0 = time.perf_counter()
        linter.lint(edited(text, n), str(path), replace(options, lazy_fixes=True))
        by_parts.append(time.perf_counter() - t0)

    name = args.file or f"generated module ({len(text.splitlines())} lines)"
    print(f"file: {name}; {len(text.splitlines())} lines, {count} diagnostics")
    print(
        f"cpus: {os.cpu_count()}; python {sys.version.split()[0]}; debounce {args.debounce_ms} ms"
    )
    print(f"{'server start + initialize':<34} {started * 1000:7.1f} ms")
    print(f"{'didOpen -> publishDiagnostics':<34} {opened * 1000:7.1f} ms")
    print(summary("didChange -> publish (isolated)", isolated))
    if bursts:
        print(
            summary(
                f"last of {args.burst_size} changes {args.burst_gap_ms} ms apart -> publish",
                bursts,
            )
        )
    print(summary("lint_text in-process", in_process))
    print(summary("IncrementalLinter.lint in-process", by_parts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", help="module to open (default: a generated one)")
    parser.add_argument("--lines", type=int, default=1000, help="size of the generated module")
    parser.add_argument("--changes", type=int, default=30, help="isolated changes (default 30)")
    parser.add_argument("--quiet-ms", type=int, default=300, help="pause before each change")
    parser.add_argument("--bursts", type=int, default=10, help="typing bursts (default 10)")
    parser.add_argument("--burst-size", type=int, default=8)
    parser.add_argument("--burst-gap-ms", type=int, default=40)
    parser.add_argument("--debounce-ms", type=int, default=150, help="passed to the server")
    args = parser.parse_args(argv)
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
