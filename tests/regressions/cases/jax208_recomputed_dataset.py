"""A data generator with fixed seeds (the dataset must be the same on every call) is called
again in the inner loop of a report, once per fitted method, to rebuild the data the methods
were fitted on; each result is read only within its iteration, for that method's metrics, so
the identical draws are what the caller wants, also where values computed from it are kept
per method: the call is configured by the outer loop (v24 rows, tuning material:
loudspeaker-jax src/comprehensive_results_comparison.py:69/:87/:103 and
final_results_analysis.py:58/:75/:86 and two more copies, JAX208 x12;
analysis/flow/key_repeats.py `_kept_across_iterations`, `_configured_by_outer_loop`). The
twin: the same call in a loop whose results are collected (`masks.append(out != 0)`), where every iteration draws the same
numbers although the loop means to gather different ones."""

import jax
import jax.numpy as jnp


class Analysis:
    def generate_tone(self, n=100):
        t = jnp.linspace(0.0, 1.0, n)
        noise = jax.random.normal(jax.random.PRNGKey(42), (n,)) * 0.01
        return {"t": t, "y_measured": jnp.sin(t) + noise}

    def get_test_data(self, signal_name):
        if signal_name == "tone":
            return self.generate_tone()
        return self.generate_tone(200)

    def report(self, all_results):
        rows = []
        for signal_name, signal_results in all_results.items():
            for method_key, method_result in signal_results.items():
                test_data = self.get_test_data(signal_name)
                err = self.error(test_data["y_measured"], method_result["predictions"])
                rows.append((signal_name, method_key, err))
        return rows

    def export(self, all_results):
        out = {}
        for signal_name, signal_results in all_results.items():
            for method_key, method_result in signal_results.items():
                test_data = self.get_test_data(signal_name)
                residual = test_data["y_measured"] - method_result["predictions"]
                out[signal_name, method_key] = {"residual": residual, "t": test_data["t"]}
        return out

    def error(self, y, pred):
        return float(jnp.mean((y - pred) ** 2))


def dropout(x, rate=0.5):
    keep = jax.random.bernoulli(jax.random.PRNGKey(0), rate, x.shape)  # error: JAX208
    return jnp.where(keep, x / rate, 0.0)


def collect_masks(x):
    masks = []
    for _ in range(5):
        out = dropout(x)
        masks.append(out != 0)
    return masks
