"""A fixed seed per configuration of a sweep is deliberate when the configurations are a list
written out in the source, also when that list is first bound to a name (v14 check half,
tuning material now: AuralithAI/RT-DLM src/tests/test_agi_attention.py:417-429, JAX202 x1,
`presets = ["standard", "infinite", ...]; for preset in presets: rng = PRNGKey(42); ...`;
the same input for every preset on purpose). The twins: a list that the function grows
before the loop (its written-out length is not what the loop walks) and a `range` loop,
where every step draws the same numbers."""

import jax


def sweep_presets(make):
    presets = ["standard", "infinite", "distributed", "full"]
    for preset in presets:
        rng = jax.random.PRNGKey(42)
        x = jax.random.normal(rng, (1, 32, 64))
        assert make(preset)(x).shape == (1, 32, 64)


def sweep_grown(make, extra):
    presets = ["standard", "infinite"]
    presets.append(extra)
    for preset in presets:
        rng = jax.random.PRNGKey(42)  # error: JAX202
        x = jax.random.normal(rng, (1, 32, 64))
        assert make(preset)(x).shape == (1, 32, 64)


def noisy_steps(x, n):
    for _ in range(n):
        rng = jax.random.PRNGKey(42)  # error: JAX202
        x = x + jax.random.normal(rng, x.shape)
    return x
