# ruff: noqa: F821 - the notebook's other cells define these names
"""Ash12H/SeapoPym-JAX docs/examples/03_optimization.ipynb cells 3, 6 and 10 (JAX407 high,
precision v11 check set, read by an untuned reader; the notebook's code, names of other cells
left undefined): `for noise_level in NOISE_LEVELS:` with `NOISE_LEVELS = [0.0, 0.15]`, and
`jnp.array(obs_clean)` in the `else:` of `if noise_level > 0:`, which holds for one of the two
listed values: the conversion runs on one step, not "every step" (`loops.runs_once_in`: a
comparison of the target with a constant, evaluated on each element of a literal the loop
walks, or of a name bound once to one). The near miss, two listed values that take the
`else:`, is `jax407_arm_of_two_listed_values.py`."""

import jax.numpy as jnp
import numpy as np

NOISE_LEVELS = [0.0, 0.15]
true_ts = true_ts_full[spinup_steps:]
n_opt_steps = len(true_ts)

# Sample 10% of timesteps as observations
rng = np.random.default_rng(SEED)
n_obs = max(2, int(OBS_FRACTION * n_opt_steps))
obs_local_idx = np.sort(rng.choice(n_opt_steps, size=n_obs, replace=False))
obs_global_idx = obs_local_idx + spinup_steps
obs_clean = np.array(true_ts[obs_local_idx])
time_days = np.arange(n_opt_steps) * dt_sec / 86400.0

print(f"Observations: {n_obs} points ({100 * n_obs / n_opt_steps:.0f}% of timesteps)")


def extract_predictions(outputs):
    """Extract biomass at observation timesteps."""
    biomass = outputs["biomass"]
    ts = jnp.mean(biomass, axis=tuple(range(1, biomass.ndim)))
    return ts[obs_global_idx]


all_results = {}  # {(noise_level, method_name): {"result": ..., "elapsed": ...}}

for noise_level in NOISE_LEVELS:
    noise_label = "clean" if noise_level == 0.0 else f"noise={noise_level:.0%}"

    if noise_level > 0:
        noise_rng = np.random.default_rng(SEED + 1)
        obs_values = jnp.array(obs_clean + noise_rng.normal(0, noise_level * np.abs(obs_clean)))
    else:
        obs_values = jnp.array(obs_clean)

    objective = obs_values.sum()
