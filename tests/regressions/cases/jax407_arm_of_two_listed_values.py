# ruff: noqa: F821 - the notebook's other cells define these names
"""The near miss of `jax407_arm_of_one_listed_value.py`: three of the five listed noise levels
take the `else:`, so the same conversion runs on three steps (JAX407 fires; with three levels
in all the loop would be a handful of written-out steps, `hoisting.few_steps`, silent)."""

import jax.numpy as jnp
import numpy as np

NOISE_LEVELS = [0.0, -0.5, -0.25, 0.15, 0.3]
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
        obs_values = jnp.array(obs_clean)  # error: JAX407

    objective = obs_values.sum()
