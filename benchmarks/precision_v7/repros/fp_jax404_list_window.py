# FP (JAX404, preview): the list is appended in the inner loop but cut back to a fixed window
# (`obs = obs[-args.async_update :]`) at the end of every outer step, so the jitted call sees the same length
# (N + 1) on every outer step after the first: one compile, not one per step
# (cleanba legacy_scripts/cleanba_impala_envpool_impala_atari_wrapper.py:377, trimmed at :413).
import jax
import jax.numpy as jnp


@jax.jit
def bulk(obs):
    return jnp.asarray(obs)


N = 4


class Args:
    async_update = 1


args = Args()
obs = []
for _update in range(10):
    for _ in range(N + int(len(obs) == 0)):
        obs.append(jnp.zeros(3))
    b = bulk(obs)  # jaxlint: JAX404 "obs grows every step" (wrong)
    obs = obs[-args.async_update :]
print("compiles:", bulk._cache_size())
